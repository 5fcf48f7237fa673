/** Query options shared by GET and POST, with OpenTopoData's names and defaults. */
import { parseDatumParam, type VerticalDatum } from '../datum/vertical-datum';
import { InvalidRequestError, excerpt } from '../errors';
import { INTERPOLATIONS, type Interpolation } from '../types';
import { decimalNumber } from './decimal';

/** What to return where there is no data: JSON null (default), NaN, or a fixed integer such as -9999. */
export type NodataValue = { kind: 'null' } | { kind: 'nan' } | { kind: 'number'; value: number };
export type ResponseFormat = 'json' | 'geojson';

export interface RequestOptions {
  interpolation: Interpolation;
  nodataValue: NodataValue;
  format: ResponseFormat;
  samples: number | null;
  /** `datum=`: the vertical datum to answer heights in, null for the dataset's own (this API's, not OTD's). */
  datum: VerticalDatum | null;
}

const KNOWN = new Set(['locations', 'interpolation', 'nodata_value', 'format', 'samples', 'datum']);
/**
 * Accepted and ignored on every route that otherwise refuses unknown parameters (/v1, /profile, /file): what
 * clients add to any URL, which OpenTopoData ignores. `key`, an API key: OSMnx 1.x documented
 * `…/v1/aster30m?locations={}&key={}` as its Open Topo Data template, so its users send `key=None`. `_`, jQuery's
 * cache-buster (`cache: false` appends `_=<timestamp>`). Any other unknown parameter stays a 400: a misspelt
 * `interpolaton=cubic` must not answer bilinear heights as if asked for.
 *
 * @example
 * ```ts
 * assert.ok(IGNORED_PARAMETERS.has('key'));
 * assert.ok(!IGNORED_PARAMETERS.has('interpolaton'));
 * ```
 */
export const IGNORED_PARAMETERS: ReadonlySet<string> = new Set(['key', '_']);

/**
 * The first of /v1's height options (`datum`, `interpolation`, `nodata_value`) given to a route that does not read
 * it (all but those in `read`), or undefined: ignored, `datum=ellipsoid` on a compatibility route would answer
 * other heights than the ones asked for, as success. Each route words its own 400.
 *
 * @example
 * ```ts
 * assert.equal(unreadHeightOption({ locations: '1,2', datum: 'ellipsoid' }), 'datum');
 * assert.equal(unreadHeightOption({ interpolation: 'cubic' }, ['interpolation']), undefined);
 * ```
 */
export function unreadHeightOption(
  params: Readonly<Record<string, unknown>>,
  read: readonly string[] = [],
): string | undefined {
  return HEIGHT_OPTIONS.find((name) => !read.includes(name) && params[name] !== undefined);
}

const HEIGHT_OPTIONS = ['datum', 'interpolation', 'nodata_value'];

export function parseRequestOptions(params: Record<string, unknown>, maxSamples: number): RequestOptions {
  const unknown = Object.keys(params).filter((k) => !KNOWN.has(k) && !IGNORED_PARAMETERS.has(k));
  if (unknown.length > 0) {
    throw new InvalidRequestError(
      `Unknown parameter '${excerpt(unknown[0])}': supported are ${[...KNOWN].join(', ')}.`,
    );
  }
  return {
    interpolation: parseInterpolation(params.interpolation),
    nodataValue: parseNodataValue(params.nodata_value),
    format: parseFormat(params.format),
    samples: parseSamples(params.samples, maxSamples),
    datum: parseDatumParam(params.datum),
  };
}

/**
 * Option values are strings (query, form) or JSON scalars. Anything else is a client mistake: converting it
 * with String()/Number() could even throw (a JSON object whose `toString` is not a function), which is a 500.
 */
function scalar(name: string, raw: unknown): unknown {
  if (raw === null || typeof raw !== 'object') return raw;
  throw new InvalidRequestError(
    `Invalid ${name}: expected a string or a number, got ${Array.isArray(raw) ? 'a list' : 'an object'}.`,
  );
}

/**
 * @example
 * ```ts
 * assert.equal(parseInterpolation(undefined), 'bilinear');
 * assert.equal(parseInterpolation('cubic'), 'cubic');
 * assert.throws(() => parseInterpolation('spline'), InvalidRequestError);
 * ```
 */
export function parseInterpolation(input: unknown): Interpolation {
  const raw = scalar('interpolation', input);
  if (raw === undefined || raw === null || raw === '') return 'bilinear';
  const value = String(raw).toLowerCase();
  if ((INTERPOLATIONS as readonly string[]).includes(value)) return value as Interpolation;
  throw new InvalidRequestError(
    `Invalid interpolation method '${excerpt(String(raw))}'. The valid interpolation methods are: ${INTERPOLATIONS.join(', ')}.`,
  );
}

function parseNodataValue(input: unknown): NodataValue {
  const raw = scalar('nodata_value', input);
  if (raw === undefined || raw === null || raw === '' || String(raw).toLowerCase() === 'null')
    return { kind: 'null' };
  if (String(raw).toLowerCase() === 'nan') return { kind: 'nan' };
  const value = decimalNumber(String(raw));
  if (Number.isInteger(value) && Math.abs(value) <= 2 ** 31) return { kind: 'number', value };
  throw new InvalidRequestError(
    `Invalid nodata value '${excerpt(String(raw))}'. Valid nodata values are 'null', 'nan', or an integer.`,
  );
}

function parseFormat(input: unknown): ResponseFormat {
  const raw = scalar('format', input);
  if (raw === undefined || raw === null || raw === '') return 'json';
  const value = String(raw).toLowerCase();
  if (value === 'json' || value === 'geojson') return value;
  throw new InvalidRequestError(`Invalid format '${excerpt(String(raw))}': use json or geojson.`);
}

export function parseSamples(input: unknown, maxSamples: number): number | null {
  const raw = scalar('samples', input);
  if (raw === undefined || raw === null || raw === '') return null;
  const value = decimalNumber(String(raw));
  if (!Number.isInteger(value))
    throw new InvalidRequestError(
      `Invalid value for samples argument '${excerpt(String(raw))}'. Samples should be an integer.`,
    );
  if (value < 2)
    throw new InvalidRequestError(
      'Must provide at least 2 samples. The ends of the path are included as samples.',
    );
  if (value > maxSamples)
    throw new InvalidRequestError(`Too many samples requested (${value}), the limit is ${maxSamples}.`);
  return value;
}
