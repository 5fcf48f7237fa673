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
 * The file is read by fit.ts (checked by fit-file-parser's strict reader, then walked), which refuses a record
 * definition whose position or altitude fields are not the types the profile gives them rather than write into it.
 * The new file is one buffer, its size known from the read: runs of unchanged messages are copied into it whole.
 * Summary messages (a lap's or session's total ascent, minimum and maximum altitude) are the device's and are left
 * as they are. A record the dataset has no height for keeps its own, except a placeholder 0 (what converters write
 * when they know none), which becomes FIT's invalid marker rather than read as sea level, as in the text formats.
 */
import { FitEncoder } from 'fit-file-parser/encoder';
import {
  ALTITUDE,
  checkFitStructure,
  dataFieldBytes,
  ENHANCED_ALTITUDE,
  fieldAt,
  fitPointAt,
  fitPoints,
  INVALID_UINT16,
  INVALID_UINT32,
  RECORD,
  viewOf,
  walkFit,
  type FitPoint,
} from './fit';

export type { FitPoint } from './fit';

const [UINT16, UINT32] = [0x84, 0x86];
/** The two fields added to a record definition that has neither: field number, size, base type. */
const ADDED_FIELDS = [ALTITUDE, 2, UINT16, ENHANCED_ALTITUDE, 4, UINT32];
/** The bytes those two fields add to each record message. */
const ADDED_BYTES = 6;

/**
 * What to write at each point, in order: a height in metres, `'invalid'` for FIT's invalid marker in both altitude
 * fields (no height: a placeholder 0 the dataset has no height for), or null to leave the point as it is.
 */
export type FitHeights = readonly (number | 'invalid' | null)[];

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
  checkFitStructure(bytes);
  let added = 0; // the bytes the altitude fields add: to each record definition without them, and to its messages
  const points = fitPoints(bytes, maxCoordinates, 'heights', {
    definition(_at, _end, definition) {
      if (definition.hasNoAltitude) added += ADDED_FIELDS.length;
    },
    data(_at, definition) {
      if (definition.hasNoAltitude) added += ADDED_BYTES;
    },
  });
  return { points, write: (heights) => writeHeights(bytes, points.length, added, heights) };
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
  return readFitFile(bytes, Infinity).write(heights);
}

function writeHeights(bytes: Uint8Array, points: number, added: number, heights: FitHeights): Uint8Array {
  if (heights.length !== points) {
    throw new RangeError(`${heights.length} heights for a file of ${points} points.`);
  }
  const headerSize = bytes[0];
  const input = viewOf(bytes);
  const dataEnd = headerSize + input.getUint32(4, true);
  const out = new Uint8Array(dataEnd + added + 2);
  const output = viewOf(out);
  let from = 0; // bytes before this are in `out`
  let to = 0; // where the next byte goes in `out`
  const copyUpTo = (end: number) => {
    out.set(bytes.subarray(from, end), to);
    to += end - from;
    from = end;
  };
  const insert = (piece: Uint8Array) => {
    out.set(piece, to);
    to += piece.length;
  };
  let point = 0;
  walkFit(bytes, 'heights', {
    definition(at, _end, definition) {
      if (!definition.hasNoAltitude) return;
      const fieldsEnd = at + 6 + 3 * definition.fields.length;
      copyUpTo(fieldsEnd);
      out[to - (fieldsEnd - (at + 5))] += ADDED_FIELDS.length / 3; // the field count
      insert(Uint8Array.from(ADDED_FIELDS));
    },
    data(at, definition, compressed) {
      if (definition.global !== RECORD) return;
      const located = fitPointAt(input, at, definition, compressed, point, 'positions') !== null;
      const height = located ? heights[point++] : null;
      const { littleEndian } = definition;
      const fieldsEnd = at + 1 + dataFieldBytes(definition, compressed);
      if (definition.hasNoAltitude) {
        copyUpTo(fieldsEnd);
        output.setUint16(to, altitude16(height), littleEndian);
        output.setUint32(to + 2, altitude32(height), littleEndian);
        to += ADDED_BYTES;
        return;
      }
      if (height === null) return;
      copyUpTo(fieldsEnd);
      const shift = to - fieldsEnd; // where a byte of this message is in `out`, less where it is in the file
      const a16 = fieldAt(definition, definition.altitude, at, compressed);
      const a32 = fieldAt(definition, definition.enhancedAltitude, at, compressed);
      if (a16 !== null) output.setUint16(shift + a16, altitude16(height), littleEndian);
      if (a32 !== null) output.setUint32(shift + a32, altitude32(height), littleEndian);
    },
  });
  copyUpTo(dataEnd);
  if (to !== out.length - 2) throw new Error(`The FIT file written is ${to} bytes, not ${out.length - 2}.`);
  output.setUint32(4, to - headerSize, true);
  if (headerSize === 14 && (bytes[12] !== 0 || bytes[13] !== 0))
    output.setUint16(12, FitEncoder.calculateCRC(out.subarray(0, 12)), true);
  output.setUint16(to, FitEncoder.calculateCRC(out.subarray(0, to)), true);
  return out;
}

/** A height as `altitude` stores it: (m + 500) × 5, or invalid outside its 16 bits (below -500 or above 12,607 m). */
function altitude16(metres: number | 'invalid' | null): number {
  if (metres === null || metres === 'invalid') return INVALID_UINT16;
  const value = Math.round((metres + 500) * 5);
  return value >= 0 && value < INVALID_UINT16 ? value : INVALID_UINT16;
}

function altitude32(metres: number | 'invalid' | null): number {
  if (metres === null || metres === 'invalid') return INVALID_UINT32;
  const value = Math.round((metres + 500) * 5);
  return value >= 0 && value < INVALID_UINT32 ? value : INVALID_UINT32;
}
