/** Options of `GET|POST /v1/{dataset}/profile`; unknown names are a 400 (but `key` and `_`), as on /v1. */
import { parseDatumParam, type VerticalDatum } from '../datum/vertical-datum';
import { InvalidRequestError, excerpt } from '../errors';
import { decimalNumber } from '../request/decimal';
import { IGNORED_PARAMETERS, parseInterpolation } from '../request/options';
import type { Interpolation } from '../types';
import type { Spacing } from './resample';

export interface ProfileOptions {
  spacing: Spacing;
  interpolation: Interpolation;
  format: 'json' | 'svg' | 'csv';
  threshold: number;
  datum: VerticalDatum | null;
}

/** Without samples or distance: enough points for a smooth chart, few enough for any dataset. */
export const DEFAULT_SAMPLES = 100;
/**
 * 5 m: above the point-to-point noise of SRTM/Copernicus heights read bilinearly along a path, below any
 * climb a walker notices; GPS tools use 3-10 m for the same purpose.
 */
export const DEFAULT_THRESHOLD_M = 5;

export const PROFILE_PARAMETERS = [
  'locations',
  'samples',
  'distance',
  'interpolation',
  'format',
  'threshold',
  'datum',
];

/**
 * A 400 naming the first parameter /profile does not know. Checked before the path is read, as /v1 does, so
 * `?path=…` (the Google API's name) is answered with what is wrong rather than with "no locations given".
 *
 * @example
 * ```ts
 * rejectUnknownProfileParameters({ locations: '48.65,9.05|48.85,9.25', samples: '50' }); // known names: no error
 * assert.throws(() => rejectUnknownProfileParameters({ path: '48.65,9.05|48.85,9.25' }), /Unknown parameter 'path'/);
 * ```
 */
export function rejectUnknownProfileParameters(params: Record<string, unknown>): void {
  const unknown = Object.keys(params).find(
    (k) => !PROFILE_PARAMETERS.includes(k) && !IGNORED_PARAMETERS.has(k),
  );
  if (unknown !== undefined) {
    throw new InvalidRequestError(
      `Unknown parameter '${excerpt(unknown)}': supported are ${PROFILE_PARAMETERS.join(', ')}.`,
    );
  }
}

/**
 * @example
 * ```ts
 * const options = parseProfileOptions({ samples: '50', format: 'svg' }, 512);
 * assert.equal(options.format, 'svg');
 * assert.equal(options.threshold, 5); // metres of noise ignored in ascent and descent
 * assert.throws(() => parseProfileOptions({ samples: '5000' }, 512), InvalidRequestError);
 * ```
 */
export function parseProfileOptions(params: Record<string, unknown>, maxSamples: number): ProfileOptions {
  rejectUnknownProfileParameters(params);
  return {
    spacing: parseSpacing(params.samples, params.distance, maxSamples),
    interpolation: parseInterpolation(params.interpolation),
    format: parseFormat(params.format),
    threshold: number('threshold', params.threshold, DEFAULT_THRESHOLD_M, 0, 1000),
    datum: parseDatumParam(params.datum),
  };
}

/** For messages: String() of a JSON object can throw (its toString may be data), which would be a 500. */
function shown(raw: unknown): string {
  return raw !== null && typeof raw === 'object'
    ? Array.isArray(raw)
      ? 'a list'
      : 'an object'
    : excerpt(String(raw));
}

function scalarNumber(raw: unknown): number {
  if (typeof raw === 'number') return raw;
  return typeof raw === 'string' ? decimalNumber(raw) : NaN;
}

function given(raw: unknown): boolean {
  return raw !== undefined && raw !== null && raw !== '';
}

function parseSpacing(samples: unknown, distance: unknown, maxSamples: number): Spacing {
  if (given(samples) && given(distance)) {
    throw new InvalidRequestError("Give either 'samples' or 'distance', not both.");
  }
  if (given(distance)) return { distance: number('distance', distance, 0, 0.1, 1e7) };
  const n = given(samples) ? scalarNumber(samples) : Math.min(DEFAULT_SAMPLES, maxSamples);
  if (!Number.isInteger(n) || n < 2 || n > maxSamples) {
    throw new InvalidRequestError(
      `Invalid samples '${shown(samples)}': use a whole number from 2 to ${maxSamples}.`,
    );
  }
  return { samples: n };
}

function number(name: string, raw: unknown, fallback: number, min: number, max: number): number {
  if (!given(raw)) return fallback;
  const value = scalarNumber(raw);
  if (Number.isFinite(value) && value >= min && value <= max) return value;
  throw new InvalidRequestError(
    `Invalid ${name} '${shown(raw)}': use a number of metres from ${min} to ${max}.`,
  );
}

function parseFormat(raw: unknown): 'json' | 'svg' | 'csv' {
  if (!given(raw)) return 'json';
  const value = typeof raw === 'string' ? raw.toLowerCase() : '';
  if (value === 'json' || value === 'svg' || value === 'csv') return value;
  throw new InvalidRequestError(`Invalid format '${shown(raw)}': use json, svg or csv.`);
}
