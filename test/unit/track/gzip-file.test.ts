/** gzip-compressed track files (`.gpx.gz`): what is unzipped, and what is refused with a 4xx that says why. */
import { gzipSync } from 'node:zlib';
import { InvalidRequestError, PayloadTooLargeError } from '../../../layers/elevation';
import { gunzipTrackFile, gzipTrackFile, isGzip } from '../../../layers/elevation/track/gzip-file';

const GPX = Buffer.from('<gpx version="1.1"><wpt lat="49.9" lon="10.1"><ele>0</ele></wpt></gpx>');
const text = (bytes: Uint8Array) => Buffer.from(bytes).toString('utf8');

it('tells gzip by its three header bytes (ID1, ID2, deflate), not by a name or content type', () => {
  expect(isGzip(gzipSync(GPX))).toBe(true);
  expect(isGzip(GPX)).toBe(false);
  expect(isGzip(new Uint8Array([0x1f, 0x8b]))).toBe(false);
  expect(isGzip(new Uint8Array([0x1f, 0x8b, 0x07, 0]))).toBe(false); // a method gzip does not define
  expect(isGzip(new Uint8Array([0x1e, 0x8b, 0x08, 0]))).toBe(false);
  expect(isGzip(new Uint8Array([0x1f, 0x8c, 0x08, 0]))).toBe(false);
  expect(isGzip(new Uint8Array())).toBe(false);
});

it('unzips a file, and reads several gzip members as one document (as gunzip does)', () => {
  expect(text(gunzipTrackFile(gzipSync(GPX), 1e6))).toBe(GPX.toString());
  const halves = Buffer.concat([gzipSync(GPX.subarray(0, 20)), gzipSync(GPX.subarray(20))]);
  expect(text(gunzipTrackFile(halves, 1e6))).toBe(GPX.toString());
  expect(text(gunzipTrackFile(gzipTrackFile(GPX), 1e6))).toBe(GPX.toString());
});

it('takes a file that unzips to exactly the limit, and refuses one byte more with a 413 naming the setting', () => {
  const file = gzipSync(GPX);
  expect(gunzipTrackFile(file, GPX.length)).toHaveLength(GPX.length);
  const tooLarge = () => gunzipTrackFile(file, GPX.length - 1);
  expect(tooLarge).toThrow(PayloadTooLargeError);
  expect(tooLarge).toThrow(/^The gzip file unzips to more than .* MiB, the limit \(MAX_KMZ_UNZIPPED_MB\)/);
});

it('stops a gzip bomb at the limit, whatever it would unzip to', () => {
  const bomb = gzipSync(Buffer.alloc(64 * 1024 * 1024)); // 64 MiB of zeros in ~64 KB
  expect(bomb.length).toBeLessThan(100_000);
  expect(() => gunzipTrackFile(bomb, 1024 * 1024)).toThrow(
    'The gzip file unzips to more than 1 MiB, the limit (MAX_KMZ_UNZIPPED_MB). Send a shorter track.',
  );
});

describe('refuses a damaged file with a 400 rather than read other coordinates', () => {
  const file = gzipSync(GPX);
  const changed = (at: number) => {
    const copy = Buffer.from(file);
    copy[at] ^= 0x01;
    return copy;
  };
  it.each([
    ['cut short', file.subarray(0, file.length - 3), /unexpected end of file/],
    ['a CRC-32 that does not match', changed(file.length - 8), /incorrect data check/],
    ['a length that does not match', changed(file.length - 1), /incorrect length check/],
    ['bytes after its end', Buffer.concat([file, Buffer.from('garbage')]), /incorrect header check/],
  ])('%s', (_, bytes, reason) => {
    const read = () => gunzipTrackFile(bytes, 1e6);
    expect(read).toThrow(InvalidRequestError);
    expect(read).toThrow(/^The gzip file is damaged \(/);
    expect(read).toThrow(reason);
    expect(read).toThrow(/: send it again, or uncompressed\.$/);
  });
});

it('refuses a gzip file inside a gzip file', () => {
  expect(() => gunzipTrackFile(gzipSync(gzipSync(GPX)), 1e6)).toThrow(
    'The gzip file holds another gzip file: unzip it once and send that.',
  );
});
