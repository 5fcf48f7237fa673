/** Query options of `POST /v1/{dataset}/file`; unknown names are a 400 (but `key` and `_`), as on /v1. */
import { InvalidRequestError, excerpt } from '../errors';
import { IGNORED_PARAMETERS, parseInterpolation } from '../request/options';
import { parseDatumOption, type VerticalDatum } from '../datum/vertical-datum';
import type { FillOptions } from './fill-heights';

export interface FileRequestOptions extends FillOptions {
  /** Answer a JSON report instead of the file. */
  reportOnly: boolean;
  /** Convert heights to this vertical datum; null: as the dataset has them. */
  datum: VerticalDatum | null;
}

const KNOWN = ['interpolation', 'overwrite', 'altitude_mode', 'report', 'datum'];

/**
 * @example
 * ```ts
 * const options = parseFileOptions({ overwrite: 'false', report: 'json' });
 * assert.equal(options.overwrite, false);
 * assert.equal(options.reportOnly, true);
 * assert.throws(() => parseFileOptions({ colour: 'red' }), /Unknown parameter 'colour'/);
 * ```
 */
export function parseFileOptions(params: Readonly<Record<string, string | undefined>>): FileRequestOptions {
  const unknown = Object.keys(params).find((k) => !KNOWN.includes(k) && !IGNORED_PARAMETERS.has(k));
  if (unknown !== undefined) {
    throw new InvalidRequestError(
      `Unknown parameter '${excerpt(unknown)}': supported are ${KNOWN.join(', ')}.`,
    );
  }
  return {
    interpolation: parseInterpolation(params.interpolation),
    overwrite: parseBoolean('overwrite', params.overwrite, true),
    absoluteAltitude: parseChoice('altitude_mode', params.altitude_mode, 'absolute'),
    reportOnly: parseChoice('report', params.report, 'json'),
    datum: parseDatumOption(params.datum),
  };
}

export function tryParseBoolean(raw: string | undefined): boolean | null {
  const value = raw?.trim().toLowerCase();
  return value === 'true' || value === '1' ? true : value === 'false' || value === '0' ? false : null;
}

function parseBoolean(name: string, raw: string | undefined, fallback: boolean): boolean {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = tryParseBoolean(raw);
  if (value !== null) return value;
  throw new InvalidRequestError(`Invalid ${name} '${excerpt(raw)}': use true or false.`);
}

/** An option with one value besides leaving it out (true when given): `report=json`, `altitude_mode=absolute`. */
function parseChoice(name: string, raw: string | undefined, choice: string): boolean {
  if (raw === undefined || raw.trim() === '') return false;
  if (raw.trim().toLowerCase() === choice) return true;
  throw new InvalidRequestError(`Invalid ${name} '${excerpt(raw)}': use ${choice}, or leave it out.`);
}
