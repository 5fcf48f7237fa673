/**
 * FIT files, what Garmin, Wahoo and many other devices record (Strava's bulk export holds them as `.fit.gz`). A
 * file is first checked by fit-file-parser's strict raw reader (header, both CRCs, every definition and message in
 * bounds), so a damaged byte is a 400, never another place; then one walk over its messages, written here, reads
 * the `record` messages' positions (and heights, for `/file`: fit-heights.ts writes them) without keeping any
 * message it has passed. A record without a position (before the first fix, indoors) is skipped.
 */
import { FitMessageReaderError, readFitMessages } from 'fit-file-parser/raw';
import { InvalidRequestError, PayloadTooLargeError } from '../errors';
import type { LatLon } from '../types';
import { checkedLocation } from './height-slot';

/**
 * Bytes of a FIT file read: ~1.6 million records of a timestamp, or 640,000 with a position, far past
 * MAX_FILE_COORDINATES' 100,000 positions anyway. `npm run bench:file-memory` measures the walk over such a file.
 */
export const MAX_FIT_BYTES = 8 * 1024 * 1024;

export const RECORD = 20;
const TIMESTAMP = 253;
export const [LAT, LON, ALTITUDE, ENHANCED_ALTITUDE] = [0, 1, 2, 78];
const [SINT32, UINT16, UINT32] = [0x85, 0x84, 0x86];
const INVALID_SINT32 = 0x7fffffff;
export const INVALID_UINT16 = 0xffff;
export const INVALID_UINT32 = 0xffffffff;

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

export interface FieldDef {
  number: number;
  size: number;
  baseType: number;
}

export interface Definition {
  global: number;
  littleEndian: boolean;
  fields: FieldDef[];
  /** Where a record's fields start in a data message with a normal header, after its header byte; null: none. */
  lat: number | null;
  lon: number | null;
  altitude: number | null;
  enhancedAltitude: number | null;
  /** Bytes of the normal fields in a data message (a compressed-timestamp message leaves out field 253). */
  fieldBytes: number;
  /** Field 253 (timestamp), when the definition lists it: its offset and size in a data message with a normal header. */
  timestamp: { offset: number; size: number } | null;
  developerBytes: number;
  /** A record definition without altitude fields (fit-heights.ts adds them to it and to its messages). */
  hasNoAltitude: boolean;
}

/** A record with a position: where it is and the height it already has (enhanced_altitude first), or null. */
export interface FitPoint {
  readonly location: LatLon;
  readonly height: number | null;
}

/** What a walk reads: record positions only (`/profile`), or their heights too (`/file`, which writes them). */
export type FitReading = 'positions' | 'heights';

/**
 * The positions of a FIT file's records, in order, at most `maxCoordinates` of them; throws a 400 for a file that
 * is not well-formed FIT or whose record positions are not the profile's type (sint32 semicircles), and a 413 over
 * MAX_FIT_BYTES.
 *
 * @example
 * ```ts
 * // A header (its CRC left 0: not computed), no messages, and the file CRC: well-formed, and no points.
 * assert.deepEqual(readFitPath(new Uint8Array([14, 0x20, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0, 168, 163]), 10), []);
 * ```
 */
export function readFitPath(bytes: Uint8Array, maxCoordinates: number): LatLon[] {
  checkFitStructure(bytes);
  return fitPoints(bytes, maxCoordinates, 'positions').map((point) => point.location);
}

/**
 * The points of a file checkFitStructure passed, in order (their heights too when `reading` is 'heights'); `also`
 * sees every message of the same walk.
 */
export function fitPoints(
  bytes: Uint8Array,
  maxCoordinates: number,
  reading: FitReading,
  also?: FitVisitor,
): FitPoint[] {
  const view = viewOf(bytes);
  const points: FitPoint[] = [];
  walkFit(bytes, reading, {
    definition: also?.definition,
    data(at, definition, compressed) {
      also?.data(at, definition, compressed);
      if (definition.global !== RECORD) return;
      const point = fitPointAt(view, at, definition, compressed, points.length, reading);
      if (!point) return;
      if (points.length >= maxCoordinates) {
        throw new InvalidRequestError(
          `The FIT file has more than ${maxCoordinates} positions, the limit per request (MAX_FILE_COORDINATES). Split it into smaller files.`,
        );
      }
      points.push(point);
    },
  });
  return points;
}

/**
 * Checks the file with fit-file-parser's strict reader, keeping none of its messages (a reader that kept them
 * held ~1.2 GB for a file of MAX_FIT_BYTES: an object and a buffer per field of every record).
 */
export function checkFitStructure(bytes: Uint8Array): void {
  if (bytes.length > MAX_FIT_BYTES) {
    throw new PayloadTooLargeError(
      `The FIT file is ${bytes.length} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
    );
  }
  try {
    readFitMessages(bytes, { messageNumbers: [] });
  } catch (error) {
    const code = error instanceof FitMessageReaderError ? error.code : (error as Error).message;
    if (code === 'invalid_structure' && hasSdkCompressedTimestamps(bytes)) {
      throw new InvalidRequestError(
        'The FIT file has compressed-timestamp records whose definition does not list the timestamp field (253) ' +
          'first, as the FIT SDK writes them: those are not read here (only ones whose definition lists 253 first ' +
          'and whose records leave its 4 bytes out). Send the activity as GPX (gpsbabel -i garmin_fit -f in.fit ' +
          '-o gpx -F out.gpx), or export it from the device app.',
      );
    }
    throw new InvalidRequestError(
      `The FIT file cannot be read (${REASONS[code] ?? code}): send it again, or as GPX.`,
    );
  }
}

/**
 * Whether the file, walked as far as it goes, has a compressed-timestamp record of a definition that does not list
 * field 253 first: the FIT SDK's form, which fit-file-parser's strict reader refuses as invalid_structure (it
 * requires 253 first; not ours to patch), so the 400 can say so rather than call the file damaged. Any other stop
 * of the walk (a record without a definition, bytes out of bounds) is not that.
 */
function hasSdkCompressedTimestamps(bytes: Uint8Array): boolean {
  const found = Symbol('found');
  try {
    walkFit(bytes, 'positions', {
      data(_at, definition, compressed) {
        if (compressed && definition.fields[0]?.number !== TIMESTAMP) throw found;
      },
    });
  } catch (error) {
    return error === found;
  }
  return false;
}

const REASONS: Record<string, string> = {
  invalid_header:
    'its header is not a FIT header, or the file is not as long as its header says: cut short, or several FIT files chained',
  invalid_crc: 'a CRC does not match: the file was damaged',
  invalid_structure: 'a message runs past its end or has no definition',
};

export function viewOf(bytes: Uint8Array): DataView {
  return new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
}

/** The point of the record message at `at`, or null when it has no position. */
export function fitPointAt(
  view: DataView,
  at: number,
  definition: Definition,
  compressed: boolean,
  index: number,
  reading: FitReading,
): FitPoint | null {
  const { littleEndian } = definition;
  const lat = fieldAt(definition, definition.lat, at, compressed);
  const lon = fieldAt(definition, definition.lon, at, compressed);
  if (lat === null || lon === null) return null;
  const latSemicircles = view.getInt32(lat, littleEndian);
  const lonSemicircles = view.getInt32(lon, littleEndian);
  if (latSemicircles === INVALID_SINT32 || lonSemicircles === INVALID_SINT32) return null;
  const degrees = (semicircles: number) => (semicircles * 180) / 2 ** 31;
  const location = checkedLocation(
    degrees(latSemicircles),
    degrees(lonSemicircles),
    () => `record ${index + 1} of the FIT file`,
  );
  if (reading === 'positions') return { location, height: null };
  const a32 = fieldAt(definition, definition.enhancedAltitude, at, compressed);
  const a16 = fieldAt(definition, definition.altitude, at, compressed);
  const enhanced = a32 === null ? null : validOrNull(view.getUint32(a32, littleEndian), INVALID_UINT32);
  const stored =
    enhanced ?? (a16 === null ? null : validOrNull(view.getUint16(a16, littleEndian), INVALID_UINT16));
  return { location, height: stored === null ? null : stored / 5 - 500 };
}

function validOrNull(value: number, invalid: number): number | null {
  return value === invalid ? null : value;
}

/**
 * Where a field of the data message at `at` starts in the file, from its offset in a normal message (null: the
 * definition has no such field).
 */
export function fieldAt(
  definition: Definition,
  offset: number | null,
  at: number,
  compressed: boolean,
): number | null {
  if (offset === null) return null;
  // A compressed-timestamp message carries no timestamp bytes (FIT protocol): a field after 253 starts earlier.
  const { timestamp } = definition;
  const skipped = compressed && timestamp !== null && offset > timestamp.offset ? timestamp.size : 0;
  return at + 1 + offset - skipped;
}

/** Bytes of a data message's normal fields: a compressed-timestamp one leaves out field 253, if listed at all. */
export function dataFieldBytes(definition: Definition, compressed: boolean): number {
  const { timestamp } = definition;
  return compressed && timestamp !== null ? definition.fieldBytes - timestamp.size : definition.fieldBytes;
}

export interface FitVisitor {
  /** A definition message from `at` to `end`. */
  definition?(at: number, end: number, definition: Definition): void;
  /** A data message at `at`, of the definition in force for its local message number. */
  data(at: number, definition: Definition, compressed: boolean): void;
}

/**
 * Every message of a file checkFitStructure passed, in order. The walk follows the
 * grammar the strict reader checked, so it must land exactly on the data's end: if it did not, it would be reading
 * other bytes as positions and heights, so it fails (a 500, our bug) rather than answer them.
 */
export function walkFit(bytes: Uint8Array, reading: FitReading, visitor: FitVisitor): void {
  const view = viewOf(bytes);
  const headerSize = bytes[0];
  const end = headerSize + view.getUint32(4, true);
  const definitions = new Map<number, Definition>();
  let at = headerSize;
  while (at < end) {
    const header = bytes[at];
    const compressed = (header & 0x80) !== 0;
    const local = compressed ? (header >> 5) & 3 : header & 15;
    if (!compressed && (header & 0x40) !== 0) {
      const littleEndian = bytes[at + 2] === 0;
      const global = view.getUint16(at + 3, littleEndian);
      const count = bytes[at + 5];
      const fields: FieldDef[] = [];
      const offsets = new Map<number, number>();
      let fieldBytes = 0;
      let timestamp: Definition['timestamp'] = null;
      for (let i = 0; i < count; i++) {
        const f = at + 6 + 3 * i;
        fields.push({ number: bytes[f], size: bytes[f + 1], baseType: bytes[f + 2] });
        offsets.set(bytes[f], fieldBytes);
        if (bytes[f] === TIMESTAMP) timestamp ??= { offset: fieldBytes, size: bytes[f + 1] };
        fieldBytes += bytes[f + 1];
      }
      let next = at + 6 + 3 * count;
      let developerBytes = 0;
      if ((header & 0x20) !== 0) {
        const developerCount = bytes[next];
        for (let i = 0; i < developerCount; i++) developerBytes += bytes[next + 1 + 3 * i + 1];
        next += 1 + 3 * developerCount;
      }
      const offset = (field: number) => offsets.get(field) ?? null;
      const definition: Definition = {
        global,
        littleEndian,
        fields,
        lat: offset(LAT),
        lon: offset(LON),
        altitude: offset(ALTITUDE),
        enhancedAltitude: offset(ENHANCED_ALTITUDE),
        fieldBytes,
        timestamp,
        developerBytes,
        hasNoAltitude: global === RECORD && !offsets.has(ALTITUDE) && !offsets.has(ENHANCED_ALTITUDE),
      };
      if (global === RECORD) checkRecordDefinition(fields, reading);
      definitions.set(local, definition);
      visitor.definition?.(at, next, definition);
      at = next;
      continue;
    }
    const definition = definitions.get(local) as Definition; // the raw reader checked there is one
    visitor.data(at, definition, compressed);
    at += 1 + dataFieldBytes(definition, compressed) + definition.developerBytes;
  }
  if (at !== end) throw new Error(`The FIT walk ended at byte ${at}, not at the data's end (${end}).`);
}

/** The types the FIT profile gives a record's position (and altitude) fields; anything else is not guessed at. */
function checkRecordDefinition(fields: readonly FieldDef[], reading: FitReading): void {
  const expected: Record<number, [number, number, string]> = {
    [LAT]: [4, SINT32, 'position_lat'],
    [LON]: [4, SINT32, 'position_long'],
    ...(reading === 'heights'
      ? { [ALTITUDE]: [2, UINT16, 'altitude'], [ENHANCED_ALTITUDE]: [4, UINT32, 'enhanced_altitude'] }
      : {}),
  };
  for (const field of fields) {
    const want = expected[field.number] as [number, number, string] | undefined;
    if (want && (field.size !== want[0] || field.baseType !== want[1])) {
      throw new InvalidRequestError(
        `The FIT file's record field ${want[2]} is ${field.size} bytes of base type 0x${field.baseType.toString(16)}, not the profile's ${want[0]} bytes of 0x${want[1].toString(16)}: ${reading === 'heights' ? 'its heights cannot be written safely' : 'its positions cannot be read safely'}.`,
      );
    }
  }
}
