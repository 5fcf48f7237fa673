/**
 * Runtime settings from environment variables, parsed once at cold start. An invalid value fails fast with a
 * message naming the variable. The README's settings table mirrors this list.
 */
import path from 'node:path';
import { excerpt } from '../errors';
import { decimalNumber } from '../request/decimal';
import { tryParseOrigin } from './dataset-config';

export interface Settings {
  /** OpenTopoData-style config.yaml declaring the datasets. */
  configPath: string;
  /** Base for relative dataset paths: a folder or an http(s)/s3 URL prefix; null = the config file's folder. */
  dataRoot: string | null;
  /** Dataset used by the original system's /api/elevation endpoint; null = the first configured one. */
  defaultDataset: string | null;
  /** Dataset (or chain "a,b") of the Google-compatible /maps/api/elevation/json; null = the default dataset. */
  googleDataset: string | null;
  /** Overrides the config's max_locations_per_request when set. */
  maxLocations: number | null;
  maxBodyBytes: number;
  /** Lowers the `samples` limit below the locations limit when set; null = the locations limit (OpenTopoData). */
  maxSamples: number | null;
  /** Overrides the config's access_control_allow_origin when set. */
  corsOrigin: string | null;
  blockCacheBytes: number;
  headerPrefetchBytes: number;
  rangeTimeoutMs: number;
  rangeRetries: number;
  /** How long a missing tile or file is remembered as missing before the data layer is asked again. */
  missingTtlMs: number;
  /**
   * Serve a block's rows as soon as they are inflated (PARTIAL_DECODE=true), before the rest of the block and its
   * DEFLATE checksum: faster cold points, but rows of a block silently corrupted at rest could be served.
   */
  partialDecode: boolean;
  /** Most range reads one request runs at once. */
  maxConcurrentReads: number;
  /** Most decoded block bytes one request holds at once beyond the shared cache (points run in batches). */
  requestBlockBudgetBytes: number;
  /** Time kept back from the Lambda's remaining time, so the handler answers 504 before the platform kills it. */
  deadlineMarginMs: number;
  /** Largest track file (KML, KMZ, GPX, TCX, GeoJSON, CSV, FIT) `POST /v1/{dataset}/file` accepts. */
  maxFileBytes: number;
  /** Most coordinates one track file may hold. */
  maxFileCoordinates: number;
  /** Most bytes a KMZ may unzip to (zip-bomb bound). */
  maxKmzUnzippedBytes: number;
  s3: S3Settings;
}

/** How the S3 client is built; read at module init by the S3 source too (`data/s3-source.ts`). */
export interface S3Settings {
  /** `bucket` in the path (`host/bucket/key`), not the host name: for S3-compatible stores reached by address. */
  forcePathStyle: boolean;
}

type Env = Record<string, string | undefined>;

/**
 * @example
 * ```ts
 * assert.throws(() => loadSettings({ BLOCK_CACHE_MB: '0' }), /BLOCK_CACHE_MB must be an integer between 1 and/);
 * ```
 */
export class SettingsError extends Error {}

function integer(env: Env, name: string, fallback: number, min: number, max: number): number {
  const raw = env[name];
  if (raw === undefined || raw.trim() === '') return fallback;
  // Decimal, as every number a client sends: Number() also read 0x10 as 16.
  const value = decimalNumber(raw);
  if (!Number.isInteger(value) || value < min || value > max) {
    throw new SettingsError(`${name} must be an integer between ${min} and ${max}, got '${raw}'.`);
  }
  return value;
}

function flag(env: Env, name: string, fallback: boolean): boolean {
  const raw = text(env, name)?.toLowerCase();
  if (raw === undefined) return fallback;
  if (['true', '1'].includes(raw)) return true;
  if (['false', '0'].includes(raw)) return false;
  throw new SettingsError(`${name} must be true or false, got '${env[name]}'.`);
}

// Virtual-hosted style (bucket.host) is what AWS S3 wants; a store reached by IP or plain host name needs paths.
/**
 * @example
 * ```ts
 * assert.deepEqual(loadS3Settings({ S3_FORCE_PATH_STYLE: 'true' }), { forcePathStyle: true });
 * ```
 */
export function loadS3Settings(env: Env = process.env): S3Settings {
  return { forcePathStyle: flag(env, 'S3_FORCE_PATH_STYLE', false) };
}

function text(env: Env, name: string): string | null {
  const raw = env[name];
  return raw === undefined || raw.trim() === '' ? null : raw.trim();
}

/**
 * CORS_ORIGIN as the header holds it: '*' or one origin, serialised (a trailing slash dropped: browsers refuse the
 * header unless it equals their origin). A newline in it made every function fail as it loaded (Node refuses the
 * header value), and npm start waited out its start-up among stack traces.
 */
function origin(env: Env, name: string): string | null {
  const value = text(env, name);
  if (value === null || value === '*') return value;
  const parsed = tryParseOrigin(value);
  if (parsed !== null) return parsed;
  throw new SettingsError(
    `${name} must be '*' or one origin, a scheme and host such as https://example.org (no path), got '${excerpt(value)}'.`,
  );
}

const DEFAULT_CONFIG_PATH = 'layers/dem-sample/config.yaml';

/**
 * @example
 * ```ts
 * const settings = loadSettings({ BLOCK_CACHE_MB: '128', MAX_LOCATIONS: '100' });
 * assert.equal(settings.blockCacheBytes, 128 * 1024 * 1024);
 * assert.equal(settings.maxLocations, 100);
 * assert.throws(() => loadSettings({ RANGE_RETRIES: 'many' }), SettingsError);
 * ```
 */
export function loadSettings(env: Env = process.env): Settings {
  const maxLocations = text(env, 'MAX_LOCATIONS');
  const maxSamples = text(env, 'MAX_SAMPLES');
  return {
    configPath: path.resolve(text(env, 'CONFIG_PATH') ?? DEFAULT_CONFIG_PATH),
    dataRoot: text(env, 'DATA_ROOT'),
    defaultDataset: text(env, 'DEFAULT_DATASET'),
    googleDataset: text(env, 'GOOGLE_DATASET'),
    // 512 is Google's Elevation API limit and OpenTopoData's convention; the config file may lower it.
    maxLocations: maxLocations === null ? null : integer(env, 'MAX_LOCATIONS', 512, 1, 100_000),
    maxBodyBytes: integer(env, 'MAX_BODY_BYTES', 1024 * 1024, 1024, 6 * 1024 * 1024),
    // Unset, samples are bounded as OpenTopoData bounds them: by the locations limit (a path sampled is that many
    // locations), whatever the config sets it to.
    maxSamples: maxSamples === null ? null : integer(env, 'MAX_SAMPLES', 512, 2, 100_000),
    corsOrigin: origin(env, 'CORS_ORIGIN'),
    // 512 MiB holds 128 decoded 1024x1024 Float32 blocks (4 MiB each) within a 1769 MB Lambda.
    blockCacheBytes: integer(env, 'BLOCK_CACHE_MB', 512, 1, 64 * 1024) * 1024 * 1024,
    // 64 KiB covers the IFDs and tile offset tables of a GDAL COG up to ~4,000 blocks in one request.
    headerPrefetchBytes: integer(env, 'HEADER_PREFETCH_BYTES', 64 * 1024, 1024, 16 * 1024 * 1024),
    // S3 first-byte latency is typically < 100 ms; 5 s means the data layer is unhealthy, not slow.
    rangeTimeoutMs: integer(env, 'RANGE_TIMEOUT_MS', 5000, 10, 120_000),
    rangeRetries: integer(env, 'RANGE_RETRIES', 2, 0, 10),
    // A minute: an ocean tile costs one 404 a minute, and a wrong DATA_ROOT or a deploy in progress heals soon.
    missingTtlMs: integer(env, 'MISSING_TTL_S', 60, 0, 86_400) * 1000,
    // Off: a block's Adler-32 is checked (its whole inflate, ~4 ms more per cold 1024² Float32 point) before any
    // of its rows is served. Never a wrong height comes first.
    partialDecode: flag(env, 'PARTIAL_DECODE', false),
    // 16 sockets keep S3 latency hidden for a 512-point request without a burst of hundreds of connections.
    maxConcurrentReads: integer(env, 'MAX_CONCURRENT_READS', 16, 1, 256),
    // 64 MiB = 16 decoded 1024x1024 Float32 blocks: a 512-block request runs in batches instead of holding 2 GiB.
    requestBlockBudgetBytes: integer(env, 'REQUEST_BLOCK_BUDGET_MB', 64, 4, 4096) * 1024 * 1024,
    // Rendering and telemetry after the last read take a few ms; 500 ms covers a GC pause and the log flush.
    deadlineMarginMs: integer(env, 'DEADLINE_MARGIN_MS', 500, 0, 60_000),
    // 4 MiB arrives base64-encoded as ~5.3 MB, under Lambda's 6 MB synchronous request payload limit.
    maxFileBytes: integer(env, 'MAX_FILE_BYTES', 4 * 1024 * 1024, 1024, 6 * 1024 * 1024),
    // A 1 Hz GPS track of 24 hours is 86,400 points; reading 100,000 cached points takes well under a second.
    maxFileCoordinates: integer(env, 'MAX_FILE_COORDINATES', 100_000, 1, 1_000_000),
    // A KMZ is a KML plus icons; 32 MiB is ~10x the largest KML a 4 MiB request can carry after heights.
    maxKmzUnzippedBytes: integer(env, 'MAX_KMZ_UNZIPPED_MB', 32, 1, 1024) * 1024 * 1024,
    s3: loadS3Settings(env),
  };
}
