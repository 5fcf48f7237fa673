/** Domain vocabulary shared by every module of the elevation library. No AWS, no HTTP. */
import type { ReadLimiter } from './data/read-limiter';

/** A WGS84 location in degrees. */
export interface LatLon {
  readonly lat: number;
  readonly lon: number;
}

export type Interpolation = 'nearest' | 'bilinear' | 'cubic';
/**
 * @example
 * ```ts
 * assert.deepEqual(INTERPOLATIONS, ['nearest', 'bilinear', 'cubic']);
 * ```
 */
export const INTERPOLATIONS: readonly Interpolation[] = ['nearest', 'bilinear', 'cubic'];

/** One elevation or `null` where the dataset has no data (nodata pixel, missing tile, outside bounds). */
export type Elevation = number | null;

/** Counters a request accumulates while reading; they feed the wide log line, metrics and trace. */
export interface ReadStats {
  blocksRead: number;
  blockCacheHits: number;
  blockCacheMisses: number;
  rangeRequests: number;
  rangeBytes: number;
  rangeMs: number;
  decodeMs: number;
  /** Range-read attempts by how the data layer answered (byte-source.ts); keys from DATA_ANSWERS only. */
  dataAnswers: Partial<Record<DataAnswer, number>>;
}

/**
 * How the data layer answered one range-read attempt: a closed set, so it can be a metric label.
 * ok = 206 (or 416 past the end, a file read); missing = 404; denied = 401/403; throttled = 429 or 503 (S3's
 * SlowDown); server_error = other 5xx; timeout = no answer within RANGE_TIMEOUT_MS; verification_failed = an
 * answer that failed the checks in range-answer.ts; failed = anything else (connection refused, reset).
 *
 * @example
 * ```ts
 * const stats = newReadStats();
 * configureBlockCache(16 * 1024 * 1024);
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats });
 * assert.ok(Object.keys(stats.dataAnswers).every((k) => DATA_ANSWERS.includes(k as DataAnswer)));
 * ```
 */
export const DATA_ANSWERS = [
  'ok',
  'missing',
  'denied',
  'throttled',
  'server_error',
  'timeout',
  'verification_failed',
  'failed',
  'deadline',
] as const;
export type DataAnswer = (typeof DATA_ANSWERS)[number];

/**
 * @example
 * ```ts
 * const stats = newReadStats();
 * configureBlockCache(16 * 1024 * 1024); // cold
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats });
 * assert.equal(stats.blockCacheMisses, 1);
 * assert.ok(stats.rangeBytes > 0);
 * ```
 */
export function newReadStats(): ReadStats {
  return {
    blocksRead: 0,
    blockCacheHits: 0,
    blockCacheMisses: 0,
    rangeRequests: 0,
    rangeBytes: 0,
    rangeMs: 0,
    decodeMs: 0,
    dataAnswers: {},
  };
}

/** What `GET /v1/datasets` says about a dataset. */
export interface DatasetInfo {
  name: string;
  /** WGS84 bounds [west, south, east, north] in degrees; null when not known without opening every tile. */
  bounds: [number, number, number, number] | null;
  /** Pixel size in the dataset CRS units, [x, y]. */
  resolution: [number, number] | null;
  crs: string | null;
  pixelType: string | null;
  tileCount: number | null;
  verticalDatum: string | null;
  children?: string[];
}

/**
 * Per-request context threaded through reads: counters, tracing, the deadline and the cap on concurrent range
 * reads. All optional for tests and tools (see `fullContext`).
 */
export interface ReadContext {
  readonly stats: ReadStats;
  readonly trace: TraceHooks;
  /** Fires at the request's deadline: reads, retries and backoffs stop and the request answers 504. */
  readonly signal?: AbortSignal;
  /** Bounds this request's concurrent range reads. */
  readonly limiter?: ReadLimiter;
  /** Most decoded block bytes one request holds at once (beyond what the shared cache holds). */
  readonly blockBudgetBytes?: number;
}

/**
 * Elevations plus, per point, the name of the dataset that answered it (multi-dataset fallback), and whether a
 * `null` is a nodata pixel inside a raster (true) rather than a point no raster covers (outside the dataset, a
 * missing tile, outside `wgs84_bounds`): OpenTopoData's `nodata_value` replaces only the former.
 */
export interface SampleResult {
  elevations: Elevation[];
  datasets: string[];
  nodataPixels: boolean[];
}

/** A dataset answers elevations for many points at once, in input order. */
export interface Dataset {
  readonly name: string;
  sample(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<Elevation[]>;
  sampleAttributed(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<SampleResult>;
  /**
   * What `/v1/datasets` lists, made from the files' headers and kept a while. The reads it starts are counted and
   * traced in `counted` (the request that asked while none was kept); not cut by that request's deadline: every
   * request asking meanwhile waits for the same description, and one's deadline must not fail the others.
   */
  describe(counted?: CountedReads): Promise<DatasetInfo>;
}

/** Where shared work (a dataset's description) counts and traces its reads: the request that started it. */
export type CountedReads = Partial<Pick<ReadContext, 'stats' | 'trace'>>;

/**
 * How domain code opens trace subsegments without knowing about X-Ray: the telemetry layer passes an
 * implementation in, tests pass `noTracing`. `annotate` values must be low-cost scalars.
 */
export interface TraceHooks {
  span<T>(
    name: string,
    fn: (annotate: (key: string, value: string | number | boolean) => void) => Promise<T>,
  ): Promise<T>;
}

/**
 * @example
 * ```ts
 * const answer = await noTracing.span('read-block', async (annotate) => {
 *   annotate('block', 3); // discarded
 *   return 42;
 * });
 * assert.equal(answer, 42);
 * ```
 */
export const noTracing: TraceHooks = { span: (_name, fn) => fn(() => undefined) };

/**
 * Implements `sample` once, on top of `sampleAttributed`.
 *
 * @example
 * ```ts
 * class SeaLevel extends DatasetBase {
 *   readonly name = 'sea-level';
 *   async sampleAttributed(points: readonly LatLon[]) {
 *     return { elevations: points.map(() => 0), datasets: points.map(() => this.name), nodataPixels: points.map(() => false) };
 *   }
 *   async describe() {
 *     return { name: this.name, bounds: null, resolution: null, crs: null, pixelType: null, tileCount: null, verticalDatum: null };
 *   }
 * }
 * assert.deepEqual(await new SeaLevel().sample([{ lat: 0, lon: 0 }], 'nearest'), [0]);
 * ```
 */
export abstract class DatasetBase implements Dataset {
  abstract readonly name: string;
  abstract sampleAttributed(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<SampleResult>;
  abstract describe(counted?: CountedReads): Promise<DatasetInfo>;

  async sample(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<Elevation[]> {
    return (await this.sampleAttributed(points, interpolation, ctx)).elevations;
  }
}
