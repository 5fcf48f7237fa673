/**
 * What every answer gets on its way out, in one place (route.ts calls it): our version header, an empty body for
 * HEAD (answered as GET, as OpenTopoData's Flask does), and gzip when the client accepts it and it pays.
 */
import { gzipSync } from 'node:zlib';
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import { headerValue, method, type Response } from './http';

/** Kept equal to package.json's version by a unit test (no JSON import in the bundles). */
export const API_VERSION = '0.1.0';
export const VERSION_HEADER = 'x-elevation-api-version';
/** Below ~1 KB gzip saves less than its own header and the CPU; a 100-point answer (~9 KB) shrinks ~5x. */
const GZIP_MIN_BYTES = 1024;

export function finishResponse(event: APIGatewayProxyEventV2, response: Response): Response {
  const headers: Record<string, string | number | boolean> = {
    ...(response.headers ?? {}),
    [VERSION_HEADER]: API_VERSION,
  };
  if (method(event) === 'HEAD') return { ...response, headers, body: '', isBase64Encoded: false };
  const body = response.body ?? '';
  if (response.isBase64Encoded || body.length < GZIP_MIN_BYTES || !acceptsGzip(event)) {
    return { ...response, headers };
  }
  return {
    ...response,
    headers: { ...headers, 'content-encoding': 'gzip', vary: 'accept-encoding' },
    body: gzipSync(body).toString('base64'),
    isBase64Encoded: true,
  };
}

function acceptsGzip(event: APIGatewayProxyEventV2): boolean {
  const accept = headerValue(event, 'accept-encoding') ?? '';
  return /(^|,)\s*gzip\s*(;\s*q=(?!0(\.0*)?\s*(,|$))[\d.]+)?\s*(,|$)/i.test(accept);
}
