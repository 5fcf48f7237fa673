/** FIT files for tests, written with fit-file-parser's encoder: a file_id message, then one record per point. */
import { FitBaseType, FitEncoder } from 'fit-file-parser';

const START = new Date('2026-11-30T07:00:00Z');
/**
 * Protocol 2.0 in the header's byte as devices write it (major << 4): FitEncoder's default, 2, reads as protocol
 * 0.2, which fit-file-parser's own strict reader (and so /file) refuses.
 */
export const DEVICE_HEADER = { protocolVersion: 0x20 };
const semicircles = (degrees: number) => Math.round((degrees * 2 ** 31) / 180);

/** Points as [lat, lon], or null for a record without a position (before a fix). */
export function fitFile(points: ([number, number] | null)[]): Buffer {
  const encoder = new FitEncoder(DEVICE_HEADER);
  encoder.writeMessage(0, [
    { number: 0, size: 1, baseType: FitBaseType.Enum, value: 4 }, // type: activity
    { number: 1, size: 2, baseType: FitBaseType.Uint16, value: 1 }, // manufacturer: garmin
    { number: 4, size: 4, baseType: FitBaseType.Uint32, value: FitEncoder.toFitTimestamp(START) },
  ]);
  points.forEach((point, i) => {
    const time = {
      number: 253,
      size: 4,
      baseType: FitBaseType.Uint32,
      value: FitEncoder.toFitTimestamp(new Date(START.getTime() + i * 1000)),
    };
    encoder.writeMessage(
      20,
      point === null
        ? [time]
        : [
            time,
            { number: 0, size: 4, baseType: FitBaseType.Sint32, value: semicircles(point[0]) },
            { number: 1, size: 4, baseType: FitBaseType.Sint32, value: semicircles(point[1]) },
          ],
    );
  });
  return Buffer.from(encoder.close());
}

/** One message of a hand-built FIT file (rawFitFile): a definition, or a data message's bytes as they are. */
export type RawFitMessage =
  | {
      kind: 'definition';
      local: number;
      global: number;
      bigEndian?: boolean;
      /** [field number, size, base type] */
      fields: [number, number, number][];
      /** [field number, size, developer data index] */
      developerFields?: [number, number, number][];
    }
  | { kind: 'data'; local: number; bytes: number[] }
  /** A compressed-timestamp data message: local 0-3, the time offset's 5 bits, the bytes after field 253. */
  | { kind: 'compressed'; local: number; timeOffset: number; bytes: number[] };

/**
 * A FIT file byte by byte, for what FitEncoder does not write: big-endian definitions, developer fields,
 * compressed-timestamp headers, a 12-byte header. CRCs are right unless a test changes them.
 */
export function rawFitFile(messages: RawFitMessage[], headerSize: 12 | 14 = 14): Buffer {
  const body: number[] = [];
  for (const m of messages) {
    if (m.kind === 'definition') {
      const developer = m.developerFields ?? [];
      body.push(0x40 | (developer.length > 0 ? 0x20 : 0) | m.local, 0, m.bigEndian ? 1 : 0);
      body.push(...(m.bigEndian ? [m.global >> 8, m.global & 0xff] : [m.global & 0xff, m.global >> 8]));
      body.push(m.fields.length, ...m.fields.flat());
      if (developer.length > 0) body.push(developer.length, ...developer.flat());
    } else if (m.kind === 'data') {
      body.push(m.local, ...m.bytes);
    } else {
      body.push(0x80 | (m.local << 5) | m.timeOffset, ...m.bytes);
    }
  }
  const header = Buffer.alloc(headerSize);
  header[0] = headerSize;
  header[1] = 0x20;
  header.writeUInt16LE(2132, 2);
  header.writeUInt32LE(body.length, 4);
  header.write('.FIT', 8, 'ascii');
  if (headerSize === 14) header.writeUInt16LE(FitEncoder.calculateCRC(header.subarray(0, 12)), 12);
  const file = Buffer.concat([header, Buffer.from(body), Buffer.alloc(2)]);
  file.writeUInt16LE(FitEncoder.calculateCRC(file.subarray(0, file.length - 2)), file.length - 2);
  return file;
}

/** A value's bytes in a FIT message: `bytesOf(4, x)` little-endian, `bytesOf(4, x, true)` big-endian. */
export function bytesOf(size: 1 | 2 | 4, value: number, bigEndian = false): number[] {
  const b = Buffer.alloc(size);
  if (size === 1) b.writeUInt8(value);
  else if (size === 2) b[bigEndian ? 'writeUInt16BE' : 'writeUInt16LE'](value);
  else if (value < 0) b[bigEndian ? 'writeInt32BE' : 'writeInt32LE'](value);
  else b[bigEndian ? 'writeUInt32BE' : 'writeUInt32LE'](value);
  return [...b];
}

export const semicirclesOf = (degrees: number) => Math.round((degrees * 2 ** 31) / 180);
