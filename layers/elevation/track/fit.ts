/**
 * FIT files, what Garmin, Wahoo and many other devices record (Strava's bulk export holds them as `.fit.gz`), read
 * with fit-file-parser (MIT) with its header and file CRC checks on, so a damaged byte is a 400, never another
 * place. A profile's path is the `record` messages' positions in order; a record without one (before the first fix,
 * indoors) is skipped. `/file` writes heights into a FIT file through fit-heights.ts.
 */
import { InvalidRequestError, PayloadTooLargeError } from '../errors';
import type FitParser from 'fit-file-parser';
import type { LatLon } from '../types';
import { checkedLocation } from './height-slot';

/**
 * The parser holds every message of a file at once: 8 MiB is ~520,000 records (6 days at one a second), measured
 * at 0.68 s and 174 MB of heap to parse, far past MAX_FILE_COORDINATES' 100,000 positions anyway.
 */
export const MAX_FIT_BYTES = 8 * 1024 * 1024;

/**
 * A FIT file's 12- or 14-byte header: its size first, `.FIT` at bytes 8–11.
 *
 * @example
 * ```ts
 * const header = new Uint8Array([14, 0x20, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
 * assert.equal(isFit(header), true);
 * assert.equal(isFit(new TextEncoder().encode('<gpx/>')), false);
 * ```
 */
export function isFit(bytes: Uint8Array): boolean {
  return (
    (bytes[0] === 12 || bytes[0] === 14) &&
    bytes[8] === 0x2e && // .FIT
    bytes[9] === 0x46 &&
    bytes[10] === 0x49 &&
    bytes[11] === 0x54
  );
}

interface FitRecord {
  position_lat?: unknown;
  position_long?: unknown;
}

/**
 * The positions of a FIT file's records, in order, at most `maxCoordinates` of them. The parser (~0.5 MB of the
 * bundle, ~8 MB of memory once loaded) is imported on the first FIT file, not at every cold start.
 */
export async function readFitPath(bytes: Uint8Array, maxCoordinates: number): Promise<LatLon[]> {
  if (bytes.length > MAX_FIT_BYTES) {
    throw new PayloadTooLargeError(
      `The FIT file is ${bytes.length} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
    );
  }
  const { default: FitParser } = await import('fit-file-parser');
  const records = parseRecords(new FitParser({ force: false, mode: 'list' }), bytes);
  const path: LatLon[] = [];
  records.forEach((record, i) => {
    const { position_lat: lat, position_long: lon } = record;
    if (typeof lat !== 'number' || typeof lon !== 'number') return;
    if (path.length >= maxCoordinates) {
      throw new InvalidRequestError(
        `The FIT file has more than ${maxCoordinates} positions, the limit per request (MAX_FILE_COORDINATES). Split it into smaller files.`,
      );
    }
    path.push(checkedLocation(lat, lon, () => `record ${i + 1} of the FIT file`));
  });
  return path;
}

function parseRecords(parser: FitParser, bytes: Uint8Array): FitRecord[] {
  let records: FitRecord[] | undefined;
  let problem: string | undefined;
  try {
    // The parser calls back before parse() returns; force: false makes it check both CRCs and stop at an error.
    parser.parse(
      Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength) as Buffer<ArrayBuffer>,
      (error, data) => {
        problem = error;
        records = data?.records as FitRecord[] | undefined;
      },
    );
  } catch (error) {
    problem = (error as Error).message;
  }
  if (problem !== undefined || records === undefined) {
    throw new InvalidRequestError(
      `The FIT file cannot be read (${String(problem ?? 'no records').slice(0, 200)}): send it again, or as GPX.`,
    );
  }
  return records;
}
