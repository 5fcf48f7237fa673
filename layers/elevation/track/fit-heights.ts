/**
 * Heights written into a FIT file (`/file`): every `record` message with a position gets its height in `altitude`
 * (field 2, uint16) and `enhanced_altitude` (field 78, uint32), both metres × 5 + 2,500 (scale 5, offset 500, as
 * the FIT profile defines them: a resolution of 0.2 m). Where a record definition already has either field, the
 * value is written in place (the file keeps its size); where it has neither, both are added to the definition and
 * to every record it defines (6 bytes a record), after the record's own fields and before its developer fields.
 * Every other byte of the file stays as it was: other messages, developer (Connect IQ) fields, compressed
 * timestamp headers, local message numbers, both byte orders. The header's data size, its CRC (when it has one)
 * and the file's CRC are written anew.
 *
 * The file is first checked by fit-file-parser's strict raw reader (header, both CRCs, every definition and
 * message in bounds), so the walk below only meets well-formed files; a record definition whose position or
 * altitude fields are not the types the profile gives them is refused rather than written into. Summary messages
 * (a lap's or session's total ascent, minimum and maximum altitude) are the device's and are left as they are.
 */
import { FitEncoder } from 'fit-file-parser/encoder';
import { FitMessageReaderError, readFitMessages } from 'fit-file-parser/raw';
import { InvalidRequestError, PayloadTooLargeError } from '../errors';
import type { LatLon } from '../types';
import { checkedLocation } from './height-slot';
import { MAX_FIT_BYTES } from './fit';

const RECORD = 20;
const TIMESTAMP = 253;
const [LAT, LON, ALTITUDE, ENHANCED_ALTITUDE] = [0, 1, 2, 78];
const [SINT32, UINT16, UINT32] = [0x85, 0x84, 0x86];
const INVALID_SINT32 = 0x7fffffff;
const INVALID_UINT16 = 0xffff;
const INVALID_UINT32 = 0xffffffff;
/** The two fields added to a record definition that has neither: field number, size, base type. */
const ADDED_FIELDS = [ALTITUDE, 2, UINT16, ENHANCED_ALTITUDE, 4, UINT32];
const ADDED_BYTES = 6;

interface FieldDef {
  number: number;
  size: number;
  baseType: number;
}

interface Definition {
  global: number;
  littleEndian: boolean;
  /** Where each field's bytes start in a data message with a normal header (after its header byte). */
  offsets: Map<number, number>;
  fields: FieldDef[];
  /** Bytes of the normal fields in a data message (a compressed-timestamp message leaves out field 253). */
  fieldBytes: number;
  developerBytes: number;
  /** A record definition without altitude fields: ADDED_FIELDS go into it and into its messages. */
  addsAltitude: boolean;
}

/** A record with a position: where it is and the height it already has (enhanced_altitude first), or null. */
export interface FitPoint {
  readonly location: LatLon;
  readonly height: number | null;
}

/** What to write at each point, in order: a height in metres, or null to leave the point as it is. */
export type FitHeights = readonly (number | null)[];

/**
 * The points of a FIT file's records, in order; throws a 400 for a file that is not well-formed FIT or whose record
 * definitions are not the profile's types, and at more than `maxCoordinates` points.
 *
 * @example
 * ```ts
 * // A header (its CRC left 0: not computed), no messages, and the file CRC: well-formed, and no points.
 * assert.deepEqual(readFitPoints(new Uint8Array([14, 0x20, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0, 168, 163]), 10), []);
 * ```
 */
export function readFitPoints(bytes: Uint8Array, maxCoordinates: number): readonly FitPoint[] {
  return readFitFile(bytes, maxCoordinates).points;
}

/** A FIT file checked once: its points, and `write` to put heights at them (as writeFitHeights, without a 2nd check). */
export interface FitFile {
  readonly points: readonly FitPoint[];
  write(heights: FitHeights): Uint8Array;
}

export function readFitFile(bytes: Uint8Array, maxCoordinates: number): FitFile {
  const records = checkStructure(bytes);
  return {
    points: pointsOf(bytes, records, maxCoordinates),
    write: (heights) => writeHeights(bytes, records, heights),
  };
}

function pointsOf(bytes: Uint8Array, records: number, maxCoordinates: number): FitPoint[] {
  const points: FitPoint[] = [];
  walkRecords(bytes, records, {
    data(at, definition) {
      if (definition.global !== RECORD) return;
      const point = pointAt(bytes, at, definition, points.length);
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
 * The file with `heights[i]` written at its i-th point (as readFitPoints found them); null leaves a point as it is.
 *
 * @example
 * ```ts
 * const empty = new Uint8Array([14, 0x20, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0, 168, 163]);
 * assert.deepEqual(writeFitHeights(empty, []), empty);
 * ```
 */
export function writeFitHeights(bytes: Uint8Array, heights: FitHeights): Uint8Array {
  return writeHeights(bytes, checkStructure(bytes), heights);
}

function writeHeights(bytes: Uint8Array, records: number, heights: FitHeights): Uint8Array {
  const headerSize = bytes[0];
  const pieces: Uint8Array[] = [copy(bytes, 0, headerSize)];
  let point = 0;
  walkRecords(bytes, records, {
    definition(at, end, definition) {
      if (!definition.addsAltitude) {
        pieces.push(bytes.subarray(at, end));
        return;
      }
      const fieldsEnd = at + 6 + 3 * definition.fields.length;
      const head = copy(bytes, at, fieldsEnd);
      head[5] += ADDED_FIELDS.length / 3; // the field count
      pieces.push(head, Uint8Array.from(ADDED_FIELDS), bytes.subarray(fieldsEnd, end));
    },
    data(at, definition, compressed) {
      const end = at + 1 + dataFieldBytes(definition, compressed) + definition.developerBytes;
      if (definition.global !== RECORD) {
        pieces.push(bytes.subarray(at, end));
        return;
      }
      const located = pointAt(bytes, at, definition, point) !== null;
      const height = located ? heights[point++] : null;
      if (height === undefined) throw new RangeError('Fewer heights than the file has points.');
      const message = copy(bytes, at, end);
      const view = new DataView(message.buffer, message.byteOffset, message.byteLength);
      if (definition.addsAltitude) {
        const fieldsEnd = 1 + dataFieldBytes(definition, compressed);
        const added = new DataView(new ArrayBuffer(ADDED_BYTES));
        added.setUint16(0, height === null ? INVALID_UINT16 : altitude16(height), definition.littleEndian);
        added.setUint32(2, height === null ? INVALID_UINT32 : altitude32(height), definition.littleEndian);
        pieces.push(
          message.subarray(0, fieldsEnd),
          new Uint8Array(added.buffer),
          message.subarray(fieldsEnd),
        );
        return;
      }
      if (height !== null) {
        const offset = (field: number) => fieldOffset(definition, field, compressed);
        const a16 = offset(ALTITUDE);
        const a32 = offset(ENHANCED_ALTITUDE);
        if (a16 !== null) view.setUint16(1 + a16, altitude16(height), definition.littleEndian);
        if (a32 !== null) view.setUint32(1 + a32, altitude32(height), definition.littleEndian);
      }
      pieces.push(message);
    },
  });
  if (point !== heights.length) throw new RangeError('More heights than the file has points.');
  const out = new Uint8Array(pieces.reduce((n, p) => n + p.length, 0) + 2);
  let cursor = 0;
  for (const piece of pieces) {
    out.set(piece, cursor);
    cursor += piece.length;
  }
  const view = new DataView(out.buffer);
  view.setUint32(4, cursor - headerSize, true);
  if (headerSize === 14 && (bytes[12] !== 0 || bytes[13] !== 0))
    view.setUint16(12, FitEncoder.calculateCRC(out.subarray(0, 12)), true);
  view.setUint16(cursor, FitEncoder.calculateCRC(out.subarray(0, cursor)), true);
  return out;
}

/** A copy of bytes [start, end) (a Buffer's `slice` would be a view of the caller's bytes, written through). */
function copy(bytes: Uint8Array, start: number, end: number): Uint8Array {
  return new Uint8Array(bytes.subarray(start, end));
}

/** A height as `altitude` stores it: (m + 500) × 5, or invalid outside its 16 bits (below -500 or above 12,607 m). */
function altitude16(metres: number): number {
  const value = Math.round((metres + 500) * 5);
  return value >= 0 && value < INVALID_UINT16 ? value : INVALID_UINT16;
}

function altitude32(metres: number): number {
  const value = Math.round((metres + 500) * 5);
  return value >= 0 && value < INVALID_UINT32 ? value : INVALID_UINT32;
}

/** Checks the file with fit-file-parser's strict reader; answers how many record messages it has. */
function checkStructure(bytes: Uint8Array): number {
  if (bytes.length > MAX_FIT_BYTES) {
    throw new PayloadTooLargeError(
      `The FIT file is ${bytes.length} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
    );
  }
  try {
    // Records are selected so their field definitions are checked too (sizes fit their base types).
    return readFitMessages(bytes, { messageNumbers: [RECORD] }).messages.length;
  } catch (error) {
    const code = error instanceof FitMessageReaderError ? error.code : (error as Error).message;
    throw new InvalidRequestError(
      `The FIT file cannot be read (${REASONS[code] ?? code}): send it again, or as GPX.`,
    );
  }
}

const REASONS: Record<string, string> = {
  invalid_header:
    'its header is not a FIT header, or its data size does not match the file (a chained FIT file?)',
  invalid_crc: 'a CRC does not match: the file was damaged',
  invalid_structure: 'a message runs past its end or has no definition',
};

function pointAt(bytes: Uint8Array, at: number, definition: Definition, index: number): FitPoint | null {
  const compressed = (bytes[at] & 0x80) !== 0;
  const view = new DataView(bytes.buffer, bytes.byteOffset + at + 1);
  const read = (field: number, size: 2 | 4, signed = false): number | null => {
    const offset = fieldOffset(definition, field, compressed);
    if (offset === null) return null;
    const value =
      size === 2
        ? view.getUint16(offset, definition.littleEndian)
        : signed
          ? view.getInt32(offset, definition.littleEndian)
          : view.getUint32(offset, definition.littleEndian);
    return value === (size === 2 ? INVALID_UINT16 : signed ? INVALID_SINT32 : INVALID_UINT32) ? null : value;
  };
  const lat = read(LAT, 4, true);
  const lon = read(LON, 4, true);
  if (lat === null || lon === null) return null;
  const degrees = (semicircles: number) => (semicircles * 180) / 2 ** 31;
  const location = checkedLocation(degrees(lat), degrees(lon), () => `record ${index + 1} of the FIT file`);
  const stored = read(ENHANCED_ALTITUDE, 4) ?? read(ALTITUDE, 2);
  return { location, height: stored === null ? null : stored / 5 - 500 };
}

/** Where a field's bytes start after the header byte, or null when the definition has no such field. */
function fieldOffset(definition: Definition, field: number, compressed: boolean): number | null {
  const offset = definition.offsets.get(field);
  if (offset === undefined) return null;
  // A compressed-timestamp message leaves out field 253, which the raw reader requires to be the first field.
  return compressed && definition.fields[0]?.number === TIMESTAMP ? offset - 4 : offset;
}

function dataFieldBytes(definition: Definition, compressed: boolean): number {
  return compressed ? definition.fieldBytes - 4 : definition.fieldBytes;
}

interface Visitor {
  /** A definition message from `at` to `end`. */
  definition?(at: number, end: number, definition: Definition): void;
  /** A data message at `at`, of the definition in force for its local message number. */
  data(at: number, definition: Definition, compressed: boolean): void;
}

/**
 * Every message of a file checkStructure passed, in order. The walk and the strict reader must agree on how many
 * records the file holds: if they did not, this walk would be reading other bytes as heights and positions, so it
 * fails (a 500, our bug) rather than write.
 */
function walkRecords(bytes: Uint8Array, records: number, visitor: Visitor): void {
  if (walk(bytes, visitor) !== records) {
    throw new Error(
      `The FIT walk found another number of records than fit-file-parser's reader (${records}).`,
    );
  }
}

/** Every message, in order; answers how many record messages it met. */
function walk(bytes: Uint8Array, visitor: Visitor): number {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const headerSize = bytes[0];
  const end = headerSize + view.getUint32(4, true);
  const definitions = new Map<number, Definition>();
  let records = 0;
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
      for (let i = 0; i < count; i++) {
        const f = at + 6 + 3 * i;
        fields.push({ number: bytes[f], size: bytes[f + 1], baseType: bytes[f + 2] });
        offsets.set(bytes[f], fieldBytes);
        fieldBytes += bytes[f + 1];
      }
      let next = at + 6 + 3 * count;
      let developerBytes = 0;
      if ((header & 0x20) !== 0) {
        const developerCount = bytes[next];
        for (let i = 0; i < developerCount; i++) developerBytes += bytes[next + 1 + 3 * i + 1];
        next += 1 + 3 * developerCount;
      }
      const definition: Definition = {
        global,
        littleEndian,
        offsets,
        fields,
        fieldBytes,
        developerBytes,
        addsAltitude: global === RECORD && !offsets.has(ALTITUDE) && !offsets.has(ENHANCED_ALTITUDE),
      };
      if (global === RECORD) checkRecordDefinition(fields);
      definitions.set(local, definition);
      visitor.definition?.(at, next, definition);
      at = next;
      continue;
    }
    const definition = definitions.get(local) as Definition; // the raw reader checked there is one
    if (definition.global === RECORD) records++;
    visitor.data(at, definition, compressed);
    at += 1 + dataFieldBytes(definition, compressed) + definition.developerBytes;
  }
  return records;
}

/** The types the FIT profile gives a record's position and altitude fields; anything else is not guessed at. */
function checkRecordDefinition(fields: readonly FieldDef[]): void {
  const expected: Record<number, [number, number, string]> = {
    [LAT]: [4, SINT32, 'position_lat'],
    [LON]: [4, SINT32, 'position_long'],
    [ALTITUDE]: [2, UINT16, 'altitude'],
    [ENHANCED_ALTITUDE]: [4, UINT32, 'enhanced_altitude'],
  };
  for (const field of fields) {
    const want = expected[field.number] as [number, number, string] | undefined;
    if (want && (field.size !== want[0] || field.baseType !== want[1])) {
      throw new InvalidRequestError(
        `The FIT file's record field ${want[2]} is ${field.size} bytes of base type 0x${field.baseType.toString(16)}, not the profile's ${want[0]} bytes of 0x${want[1].toString(16)}: its heights cannot be written safely.`,
      );
    }
  }
}
