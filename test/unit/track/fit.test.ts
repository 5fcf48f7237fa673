/** FIT files for a profile: the records' positions in order, and the files refused with a 4xx that says why. */
import { InvalidRequestError, PayloadTooLargeError } from '../../../layers/elevation';
import { isFit, MAX_FIT_BYTES, readFitPath } from '../../../layers/elevation/track/fit';
import { readTrackPath } from '../../../layers/elevation/track/track-text';
import { FitBaseType, FitEncoder } from 'fit-file-parser';
import { fitFile } from '../../support/fit-files';

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
  expect(rounded(await readFitPath(file, 10))).toEqual([
    [48.742275, 9.101177],
    [48.75, 9.12],
    [-33.9, 151.2],
  ]);
  expect((await readTrackPath(file, LIMITS)).format).toBe('fit');
});

it('takes exactly MAX_FILE_COORDINATES positions and refuses one more', async () => {
  const three = fitFile([
    [1, 1],
    [2, 2],
    [3, 3],
  ]);
  expect(await readFitPath(three, 3)).toHaveLength(3);
  await expect(readFitPath(three, 2)).rejects.toThrow(
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
  it.each([
    ['a changed byte in a position', changed(file.length - 6), 'File CRC mismatch'],
    ['a changed header', changed(4), 'Header CRC mismatch'],
    ['cut short', file.subarray(0, file.length - 5), 'File data exceeds input length'],
  ])('%s', async (_, bytes, reason) => {
    const read = readFitPath(bytes, 10);
    await expect(read).rejects.toThrow(InvalidRequestError);
    await expect(read).rejects.toThrow(`The FIT file cannot be read (${reason}): send it again, or as GPX.`);
  });
});

it('refuses a position outside the globe, naming the record', async () => {
  const file = fitFile([
    [1, 1],
    [95, 10],
  ]);
  await expect(readFitPath(file, 10)).rejects.toThrow(
    /^Invalid latitude 95(\.\d+)? at record 2 of the FIT file/,
  );
});

it('refuses a file over MAX_FIT_BYTES with a 413 before parsing it', async () => {
  const header = fitFile([[1, 1]]).subarray(0, 14);
  const huge = Buffer.concat([header, Buffer.alloc(MAX_FIT_BYTES + 1 - header.length)]);
  await expect(readFitPath(huge, 10)).rejects.toThrow(PayloadTooLargeError);
  await expect(readFitPath(huge, 10)).rejects.toThrow(
    `The FIT file is ${MAX_FIT_BYTES + 1} bytes; FIT files are read up to ${MAX_FIT_BYTES} bytes. Send a shorter activity.`,
  );
});

it('refuses a file whose CRC checks out but whose records do not parse (a data record without a definition)', async () => {
  const header = Buffer.from([14, 0x20, 0, 0, 4, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
  const body = Buffer.from([0x00, 1, 2, 3]);
  const crc = FitEncoder.calculateCRC(Buffer.concat([header, body]));
  const file = Buffer.concat([header, body, Buffer.from([crc & 0xff, crc >> 8])]);
  await expect(readFitPath(file, 10)).rejects.toThrow(
    'The FIT file cannot be read (FIT data record has no local definition): send it again, or as GPX.',
  );
});

it('reads a file of exactly MAX_FIT_BYTES (then its content decides)', async () => {
  const header = fitFile([[1, 1]]).subarray(0, 14);
  const exact = Buffer.concat([header, Buffer.alloc(MAX_FIT_BYTES - header.length)]);
  await expect(readFitPath(exact, 10)).rejects.toThrow(/^The FIT file cannot be read \(/);
});

it('skips a record with a latitude but no longitude', async () => {
  const encoder = new FitEncoder();
  encoder.writeMessage(20, [{ number: 0, size: 4, baseType: FitBaseType.Sint32, value: 581_000_000 }]); // lat only
  const half = Buffer.from(encoder.close());
  expect(await readFitPath(half, 10)).toEqual([]);
});
