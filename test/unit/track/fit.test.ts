/** FIT files for a profile: the records' positions in order, and the files refused with a 4xx that says why. */
import { InvalidRequestError, PayloadTooLargeError } from '../../../layers/elevation';
import { fitPoints, isFit, MAX_FIT_BYTES, readFitPath } from '../../../layers/elevation/track/fit';
import { readTrackPath } from '../../../layers/elevation/track/track-text';
import { FitBaseType, FitEncoder } from 'fit-file-parser';
import { DEVICE_HEADER, bytesOf, fitFile, rawFitFile, semicirclesOf } from '../../support/fit-files';

const LIMITS = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
const rounded = (path: { lat: number; lon: number }[]) =>
  path.map((p) => [Math.round(p.lat * 1e6) / 1e6, Math.round(p.lon * 1e6) / 1e6]);

it('tells a FIT file by its header (size 12 or 14, .FIT at bytes 8-11)', () => {
  const file = fitFile([[48.7, 9.1]]);
  expect(file[0]).toBe(14);
  expect(isFit(file)).toBe(true);
  const twelve = Buffer.from(file);
  twelve[0] = 12;
  expect(isFit(twelve)).toBe(true);
  for (const at of [0, 8, 9, 10, 11]) {
    const other = Buffer.from(file);
    other[at] ^= 0x01;
    expect(isFit(other)).toBe(false);
  }
  expect(isFit(new TextEncoder().encode('<gpx version="1.1"/>'))).toBe(false);
});

it('answers the records’ positions in order, skipping records without one', async () => {
  const file = fitFile([null, [48.742275, 9.101177], null, [48.75, 9.12], [-33.9, 151.2]]);
  expect(rounded(readFitPath(file, 10))).toEqual([
    [48.742275, 9.101177],
    [48.75, 9.12],
    [-33.9, 151.2],
  ]);
  expect((await readTrackPath(file, LIMITS)).format).toBe('fit');
});

it('takes exactly MAX_FILE_COORDINATES positions and refuses one more', () => {
  const three = fitFile([
    [1, 1],
    [2, 2],
    [3, 3],
  ]);
  expect(readFitPath(three, 3)).toHaveLength(3);
  expect(() => readFitPath(three, 2)).toThrow(
    'The FIT file has more than 2 positions, the limit per request (MAX_FILE_COORDINATES). Split it into smaller files.',
  );
});

it('refuses a file without positions for a profile (an indoor activity)', async () => {
  await expect(readTrackPath(fitFile([null, null]), LIMITS)).rejects.toThrow(
    'The FIT file has no positions: a profile needs at least one (an indoor activity has none).',
  );
});

describe('refuses a damaged file with a 400 rather than read other positions', () => {
  const file = fitFile([
    [48.742275, 9.101177],
    [48.75, 9.12],
  ]);
  const changed = (at: number) => {
    const copy = Buffer.from(file);
    copy[at] ^= 0x01;
    return copy;
  };
  const CRC = 'a CRC does not match: the file was damaged';
  const LENGTH =
    'its header is not a FIT header, or the file is not as long as its header says: cut short, or several FIT files chained';
  const withHeaderCrc = (bytes: Buffer) => {
    bytes.writeUInt16LE(FitEncoder.calculateCRC(bytes.subarray(0, 12)), 12);
    return bytes;
  };
  it.each([
    ['a changed byte in a position', changed(file.length - 6), CRC],
    ['a changed header CRC', changed(12), CRC],
    ['a changed data size (its header CRC right)', withHeaderCrc(changed(4)), LENGTH],
    ['cut short', file.subarray(0, file.length - 5), LENGTH],
    ['two files chained', Buffer.concat([file, file]), LENGTH],
  ])('%s', (_, bytes, reason) => {
    expect(() => readFitPath(bytes, 10)).toThrow(InvalidRequestError);
    expect(() => readFitPath(bytes, 10)).toThrow(
      `The FIT file cannot be read (${reason}): send it again, or as GPX.`,
    );
  });
});

it('refuses a position outside the globe, naming the record', () => {
  const file = fitFile([
    [1, 1],
    [95, 10],
  ]);
  expect(() => readFitPath(file, 10)).toThrow(/^Invalid latitude 95(\.\d+)? at record 2 of the FIT file/);
});

it('refuses a file over MAX_FIT_BYTES with a 413 before parsing it', () => {
  const header = fitFile([[1, 1]]).subarray(0, 14);
  const huge = Buffer.concat([header, Buffer.alloc(MAX_FIT_BYTES + 1 - header.length)]);
  expect(() => readFitPath(huge, 10)).toThrow(PayloadTooLargeError);
  expect(() => readFitPath(huge, 10)).toThrow(
    `The FIT file is ${MAX_FIT_BYTES + 1} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
  );
});

it('refuses a file whose CRC checks out but whose records do not parse (a data record without a definition)', () => {
  const header = Buffer.from([14, 0x20, 0, 0, 4, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
  const body = Buffer.from([0x00, 1, 2, 3]);
  const crc = FitEncoder.calculateCRC(Buffer.concat([header, body]));
  const file = Buffer.concat([header, body, Buffer.from([crc & 0xff, crc >> 8])]);
  expect(() => readFitPath(file, 10)).toThrow(
    'The FIT file cannot be read (a message runs past its end or has no definition): send it again, or as GPX.',
  );
});

describe("compressed-timestamp records whose definition has no timestamp field (the FIT SDK's form)", () => {
  const T0 = 1_100_000_000;
  const at = (lat: number, lon: number) => [
    ...bytesOf(4, semicirclesOf(lat)),
    ...bytesOf(4, semicirclesOf(lon)),
  ];
  const position: [number, number, number][] = [
    [0, 4, 0x85],
    [1, 4, 0x85],
  ];
  // A record with a time first (the compressed ones count from it), then records of a definition without 253.
  const file = rawFitFile([
    { kind: 'definition', local: 0, global: 20, fields: [[253, 4, 0x86], ...position] },
    { kind: 'data', local: 0, bytes: [...bytesOf(4, T0), ...at(48.7, 9.1)] },
    { kind: 'definition', local: 1, global: 20, fields: position },
    { kind: 'compressed', local: 1, timeOffset: (T0 + 1) & 31, bytes: at(48.71, 9.11) },
    { kind: 'compressed', local: 1, timeOffset: (T0 + 2) & 31, bytes: at(48.72, 9.12) },
  ]);

  it('walks them as the spec says (a compressed header: no timestamp bytes in the record, 253 listed or not)', () => {
    // fitPoints is the walk alone: fit-file-parser's strict reader (checkFitStructure) does not take this form.
    expect(rounded(fitPoints(file, 10, 'positions').map((p) => p.location))).toEqual([
      [48.7, 9.1],
      [48.71, 9.11],
      [48.72, 9.12],
    ]);
  });

  it('refuses the file saying which form of compressed timestamps is read, since the strict reader cannot check it', () => {
    expect(() => readFitPath(file, 10)).toThrow(
      new InvalidRequestError(
        'The FIT file has compressed-timestamp records whose definition does not list the timestamp field (253) ' +
          'first, as the FIT SDK writes them: those are not read here (only ones whose definition lists 253 first ' +
          'and whose records leave its 4 bytes out). Send the activity as GPX (gpsbabel -i garmin_fit -f in.fit ' +
          '-o gpx -F out.gpx), or export it from the device app.',
      ),
    );
  });
});

it('reads a file of exactly MAX_FIT_BYTES (then its content decides)', () => {
  const header = fitFile([[1, 1]]).subarray(0, 14);
  const exact = Buffer.concat([header, Buffer.alloc(MAX_FIT_BYTES - header.length)]);
  expect(() => readFitPath(exact, 10)).toThrow(/^The FIT file cannot be read \(/);
});

it('skips a record with a latitude but no longitude', () => {
  const encoder = new FitEncoder(DEVICE_HEADER);
  encoder.writeMessage(20, [{ number: 0, size: 4, baseType: FitBaseType.Sint32, value: 581_000_000 }]); // lat only
  const half = Buffer.from(encoder.close());
  expect(readFitPath(half, 10)).toEqual([]);
});

describe('checks the types of the fields it reads, and only those', () => {
  const file = (fields: [number, number, number][]) =>
    rawFitFile([
      { kind: 'definition', local: 0, global: 20, fields },
      {
        kind: 'data',
        local: 0,
        bytes: fields.flatMap(([, size]) => bytesOf(size as 2 | 4, semicirclesOf(48.7))),
      },
    ]);

  it('reads positions beside an altitude of another type (which /file refuses to write into)', () => {
    const odd = file([
      [0, 4, 0x85],
      [1, 4, 0x85],
      [2, 4, 0x86],
    ]);
    expect(rounded(readFitPath(odd, 10))).toEqual([[48.7, 48.7]]);
  });

  it('refuses a position of another type, naming the field', () => {
    const odd = file([
      [0, 4, 0x86],
      [1, 4, 0x85],
    ]);
    expect(() => readFitPath(odd, 10)).toThrow(
      "The FIT file's record field position_lat is 4 bytes of base type 0x86, not the profile's 4 bytes of 0x85: its positions cannot be read safely.",
    );
  });
});
