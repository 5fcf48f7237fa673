/**
 * What every answer gets on its way out, in one place (route.ts calls it): our version header, an empty body for
 * HEAD (answered as GET, as OpenTopoData's Flask does), gzip when the client accepts it and it pays, and a 413
 * in place of an answer too large for Lambda to return.
 */
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { acceptsGzip, gzipEtag, method, sentGzipped, type Response } from './http';

/** Kept equal to package.json's version by a unit test (no JSON import in the bundles). */
export const API_VERSION = '0.1.0';
export const VERSION_HEADER = 'x-elevation-api-version';

/**
 * Lambda's limit on a synchronous invocation's response (6 MB), counted over the whole JSON document it returns
 * (the body as an escaped JSON string, plus status and headers). Above it AWS answers a bare 502 after the work is
 * done; serverless-offline sends it anyway, so without this check local and deployed answers would differ.
 */
export const MAX_RESPONSE_BYTES = 6 * 1024 * 1024;
/** JSON escaping at most sextuples a character (\u0000); a body below this cannot reach the limit. */
const CHECK_FROM_CHARS = Math.floor(MAX_RESPONSE_BYTES / 6) - 4096;

export function finishResponse(event: APIGatewayProxyEventV2, response: Response): Response {
  const headers: Record<string, string | number | boolean> = {
    ...(response.headers ?? {}),
    [VERSION_HEADER]: API_VERSION,
  };
  const body = response.body ?? '';
  const gzip = acceptsGzip(event);
  const compress = !response.isBase64Encoded && sentGzipped(event, body);
  const etag = headers.etag;
  // A strong ETag names one encoding: the compressed answer's differs (If-None-Match takes either; http.ts).
  const compressedHeaders = {
    ...headers,
    'content-encoding': 'gzip',
    vary: 'accept-encoding',
    ...(typeof etag === 'string' ? { etag: gzipEtag(etag) } : {}),
  };
  // HEAD: the GET's headers (its encoding too), no body, as OpenTopoData's Flask answers it.
  if (method(event) === 'HEAD')
    return { ...response, headers: compress ? compressedHeaders : headers, body: '', isBase64Encoded: false };
  const finished = compress
    ? {
        ...response,
        headers: compressedHeaders,
        body: gzipSync(body).toString('base64'),
        isBase64Encoded: true,
      }
    : { ...response, headers };
  const bytes = (finished.body ?? '').length < CHECK_FROM_CHARS ? 0 : payloadBytes(finished);
  return bytes > MAX_RESPONSE_BYTES ? tooLarge(headers, bytes, advice(response, gzip)) : finished;
}

function payloadBytes(response: Response): number {
  return Buffer.byteLength(JSON.stringify(response));
}

/**
 * What helps: compression the client did not ask for helps text only (a binary answer, a KMZ, a FIT or UTF-16
 * file, goes back base64 and is never gzipped again); a gzip file was answered compressed already.
 */
function advice(response: Response, acceptsGzip: boolean): string {
  if (response.headers?.['content-type'] === 'application/gzip')
    return 'send a shorter track (split the file)';
  if (acceptsGzip || response.isBase64Encoded)
    return 'send a shorter track, or the file gzip-compressed (it is answered compressed)';
  return 'ask for it compressed (Accept-Encoding: gzip; curl --compressed), send the file gzip-compressed (it is answered compressed), or send a shorter track';
}

/** A 413 in place of an answer Lambda could not return, keeping the CORS and version headers. */
function tooLarge(headers: Response['headers'], bytes: number, advice: string): Response {
  const kept = Object.entries(headers ?? {}).filter(
    ([name]) => name.startsWith('access-control-') || name === VERSION_HEADER,
  );
  return {
    statusCode: 413,
    headers: { ...Object.fromEntries(kept), 'content-type': 'application/json' },
    body: JSON.stringify({
      status: 'INVALID_REQUEST',
      error: `The answer would be ${bytes} bytes, over Lambda's limit of ${MAX_RESPONSE_BYTES} bytes for a response: ${advice}.`,
    }),
  };
}
