/**
 * The parameters of Google's Elevation API (`/maps/api/elevation/json`): `locations` (pipe list or `enc:`
 * polyline) or `path` with `samples`. `key` (and Google's premium `client`, `signature`, `channel`) is
 * accepted and ignored; other parameters are ignored too, as Google does. Errors carry Google's wording.
 */
import { InvalidRequestError, excerpt } from '../errors';
import { decimalNumber } from '../request/decimal';
import { parseLocations } from '../request/locations';
import { unreadHeightOption } from '../request/options';
import { samplePath } from '../request/path-sampling';
import type { LatLon } from '../types';

export interface GoogleLimits {
  maxLocations: number;
  maxSamples: number;
}

/**
 * The parameters this route reads; a client's others (`key`, `client`, `signature`, `channel`, `sensor`…) are
 * ignored, as Google ignores unknown ones.
 *
 * @example
 * ```ts
 * assert.deepEqual(GOOGLE_PARAMETERS, ['locations', 'path', 'samples']);
 * ```
 */
export const GOOGLE_PARAMETERS: readonly string[] = ['locations', 'path', 'samples'];

/**
 * A 400 whose message follows Google's "Invalid request. …" wording, with our reason appended.
 *
 * @example
 * ```ts
 * const error = new GoogleInvalidRequestError("Invalid request. Missing the 'samples' parameter.");
 * assert.equal(error.statusCode, 400);
 * assert.ok(error instanceof InvalidRequestError);
 * ```
 */
export class GoogleInvalidRequestError extends InvalidRequestError {}

/**
 * @example
 * ```ts
 * assert.deepEqual(parseGoogleQuery({ locations: '49.9,10.1' }, { maxLocations: 512, maxSamples: 512 }), [{ lat: 49.9, lon: 10.1 }]);
 * assert.equal(parseGoogleQuery({ path: '49.9,10.1|49.8,10.2', samples: '5' }, { maxLocations: 512, maxSamples: 512 }).length, 5);
 * assert.throws(() => parseGoogleQuery({}, { maxLocations: 512, maxSamples: 512 }), /Missing the 'locations' or 'path' parameter/);
 * ```
 */
export function parseGoogleQuery(
  params: Readonly<Record<string, string | undefined>>,
  limits: GoogleLimits,
): LatLon[] {
  const unread = unreadHeightOption(params);
  if (unread !== undefined) {
    throw invalid(
      `'${unread}' is an option of this API's /v1/{dataset}, not of Google's Elevation API, and this route does not read it: ask /v1/{dataset} for it.`,
    );
  }
  const { locations, path, samples } = params;
  const given = (v: string | undefined) => v !== undefined && v.trim() !== '';
  if (given(locations) && given(path)) {
    throw invalid("Only one of the 'locations' and 'path' parameters may be given.");
  }
  if (given(locations)) return parsePoints('locations', locations, limits.maxLocations);
  if (!given(path)) throw invalid("Missing the 'locations' or 'path' parameter.");
  if (!given(samples)) throw invalid("Missing the 'samples' parameter, which 'path' requires.");
  const count = decimalNumber(String(samples));
  // Google's samples are 2 to 512, both ends of the path included, and its path has two or more points.
  if (!Number.isInteger(count) || count < 2 || count > limits.maxSamples) {
    throw invalid(
      `Invalid 'samples' parameter '${excerpt(String(samples))}': use a whole number from 2 to ${limits.maxSamples}.`,
    );
  }
  const points = parsePoints('path', path, limits.maxLocations);
  if (points.length < 2) throw invalid(`Invalid 'path' parameter: a path has two or more points; 1 given.`);
  return samplePath(points, count);
}

function parsePoints(name: string, value: string | undefined, maxLocations: number): LatLon[] {
  try {
    return parseLocations(value, maxLocations);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    throw invalid(`Invalid '${name}' parameter: ${error.message}`);
  }
}

function invalid(reason: string): GoogleInvalidRequestError {
  return new GoogleInvalidRequestError(`Invalid request. ${reason}`);
}
