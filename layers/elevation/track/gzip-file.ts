/**
 * Track files compressed with gzip (`activity.gpx.gz`, as Strava's bulk export holds uploaded files):
 * unzipped in node:zlib, which checks the gzip trailer (CRC-32 and length), so a damaged byte is a 400, never
 * the height of another place; held to `maxUnzippedBytes` (MAX_KMZ_UNZIPPED_MB), so a gzip bomb stops at the
 * limit with a 413. The filled document goes back gzip-compressed again: the same kind of file out as in.
 */
import { gunzipSync, gzipSync } from 'node:zlib';
import { InvalidRequestError, PayloadTooLargeError } from '../errors';

/** ID1, ID2 and CM = 8 (deflate), the only method gzip defines (RFC 1952). */
const GZIP_HEADER = [0x1f, 0x8b, 0x08];

/**
 * @example
 * ```ts
 * assert.equal(isGzip(new Uint8Array([0x1f, 0x8b, 0x08, 0x00])), true);
 * assert.equal(isGzip(new TextEncoder().encode('<gpx/>')), false);
 * ```
 */
export function isGzip(bytes: Uint8Array): boolean {
  return GZIP_HEADER.every((b, i) => bytes[i] === b);
}

/** The document a gzip file holds (several gzip members are one document, as `gunzip` reads them). */
export function gunzipTrackFile(bytes: Uint8Array, maxUnzippedBytes: number): Uint8Array {
  let out: Buffer;
  try {
    // The settings keep the limit at 1 MiB or more; node:zlib needs at least 1.
    out = gunzipSync(bytes, { maxOutputLength: Math.max(1, maxUnzippedBytes) });
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(maxUnzippedBytes);
    throw new InvalidRequestError(
      `The gzip file is damaged (${(error as Error).message}): send it again, or uncompressed.`,
    );
  }
  if (isGzip(out)) {
    throw new InvalidRequestError('The gzip file holds another gzip file: unzip it once and send that.');
  }
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

/** The filled document compressed again, as it came. */
export function gzipTrackFile(bytes: Uint8Array): Uint8Array {
  const out = gzipSync(bytes);
  return new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The gzip file unzips to more than ${limit / (1024 * 1024)} MiB, the limit (MAX_KMZ_UNZIPPED_MB). Send a shorter track.`,
  );
}
