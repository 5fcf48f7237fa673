/**
 * Request bodies compressed by HTTP (`Content-Encoding: gzip`, `deflate` or `br`, as clients that compress
 * uploads send them): API Gateway and serverless-offline hand them on as they came, so the body is decoded here,
 * before any route reads it, and the route's own limits (MAX_BODY_BYTES, MAX_FILE_BYTES, …) then apply to the
 * decoded body. A coding this API cannot undo is a 415, never a body read as if it were plain. (A gzip *file*,
 * `track.gpx.gz` sent without the header, is a track file of its own: layers/elevation/track/gzip-file.ts.)
 */
import { brotliDecompressSync, gunzipSync, inflateRawSync, inflateSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { InvalidRequestError, PayloadTooLargeError, UnsupportedMediaTypeError } from '../layers/elevation';
import { headerValue } from './http';

/**
 * Lambda's request payload limit (6 MB): no plain body can be larger, so no decoded one need be; every route's
 * own limit is below it.
 */
export const MAX_DECODED_BODY_BYTES = 6 * 1024 * 1024;

const DECODERS: Record<string, (bytes: Buffer, maxOutputLength: number) => Buffer> = {
  gzip: (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  'x-gzip': (bytes, maxOutputLength) => gunzipSync(bytes, { maxOutputLength }),
  // RFC 9110's deflate is zlib-wrapped; some clients send raw deflate, told apart by the zlib header's check bits.
  deflate: (bytes, maxOutputLength) =>
    isZlibHeader(bytes)
      ? inflateSync(bytes, { maxOutputLength })
      : inflateRawSync(bytes, { maxOutputLength }),
  br: (bytes, maxOutputLength) => brotliDecompressSync(bytes, { maxOutputLength }),
};

/** Named in the 415: x-gzip is gzip's old alias. */
const SUPPORTED = Object.keys(DECODERS)
  .filter((c) => c !== 'x-gzip')
  .join(', ');

/**
 * The event with its body decoded (base64, as a binary body arrives) and `Content-Encoding` removed; the same
 * event when the body has no coding (or `identity`).
 */
export function decodeContentEncoding(
  event: APIGatewayProxyEventV2,
  maxDecodedBytes = MAX_DECODED_BODY_BYTES,
): APIGatewayProxyEventV2 {
  if (!event.body) return event;
  const header = headerValue(event, 'content-encoding');
  if (header === undefined) return event;
  const codings = header
    .split(',')
    .map((c) => c.trim().toLowerCase())
    .filter((c) => c !== '' && c !== 'identity');
  if (codings.length === 0) return event;
  if (codings.length > 1 || !(codings[0] in DECODERS)) {
    throw new UnsupportedMediaTypeError(
      `Content-Encoding '${header.slice(0, 64)}' is not supported: send the body plain or with one of ${SUPPORTED}.`,
    );
  }
  const coding = codings[0];
  if (!event.isBase64Encoded) {
    // A gzip stream starts with 0x1f 0x8b: text without that start was never gzip, whatever its label says.
    if (coding.endsWith('gzip') && !event.body.startsWith('\u001f')) {
      throw new InvalidRequestError(
        `The body is labelled Content-Encoding: ${coding} but is not gzip data (it starts '${JSON.stringify(event.body.slice(0, 16)).slice(1, -1)}'): drop the header, or send the compressed bytes with Content-Type: application/octet-stream.`,
      );
    }
    // A compressed body passed on as UTF-8 text has lost every byte that was not UTF-8.
    throw new InvalidRequestError(
      `The ${coding}-compressed body arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.`,
    );
  }
  let decoded: Buffer;
  try {
    decoded = DECODERS[coding](Buffer.from(event.body, 'base64'), Math.max(1, maxDecodedBytes));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new PayloadTooLargeError(
        `The ${coding}-compressed request body decompresses to more than ${maxDecodedBytes} bytes, the limit.`,
      );
    }
    throw new InvalidRequestError(
      `The ${coding}-compressed request body cannot be decompressed (${(error as Error).message}): send it again, or plain.`,
    );
  }
  const headers = Object.fromEntries(
    Object.entries(event.headers ?? {}).filter(([name]) => name.toLowerCase() !== 'content-encoding'),
  );
  return { ...event, headers, body: decoded.toString('base64'), isBase64Encoded: true };
}

/** A zlib stream's first two bytes: CM 8 in the low nibble, and the pair a multiple of 31 (RFC 1950). */
function isZlibHeader(bytes: Buffer): boolean {
  return bytes.length >= 2 && (bytes[0] & 0x0f) === 8 && ((bytes[0] << 8) | bytes[1]) % 31 === 0;
}
