/**
 * The HTTP edge shared by all handlers: request parameters from query string and body, JSON responses with
 * CORS, and the one place where errors become status codes. 4xx messages go to the client as written; anything
 * else becomes a generic message, with the real error left for the wide log line.
 */
import { createHash } from 'node:crypto';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import {
  DatasetConfigError,
  DataSourceAccessDeniedError,
  DataSourceMisconfiguredError,
  DatasetUnavailableError,
  ElevationError,
  excerpt,
  IGNORED_PARAMETERS,
  InvalidRequestError,
  MethodNotAllowedError,
  PayloadTooLargeError,
  unreadHeightOption,
} from '../layers/elevation';
import type { RequestTelemetry } from '../layers/telemetry';
import { base64DecodedBytes } from './body-bytes';
import { readForm } from './form';

export type Response = APIGatewayProxyStructuredResultV2;

export function body(event: APIGatewayProxyEventV2, maxBodyBytes: number): string | null {
  if (!event.body) return null;
  // Measured undecoded: a body over the limit is never decoded.
  const size = event.isBase64Encoded ? base64DecodedBytes(event.body) : Buffer.byteLength(event.body);
  if (size > maxBodyBytes) {
    throw new PayloadTooLargeError(
      `Request body is ${size} bytes; the limit is ${maxBodyBytes} bytes. Send fewer locations per request.`,
    );
  }
  return event.isBase64Encoded ? Buffer.from(event.body, 'base64').toString('utf8') : event.body;
}

/**
 * Query-string parameters merged with a JSON object or form body (urlencoded or multipart; body wins); a JSON array
 * body is the locations.
 */
export async function requestParams(
  event: APIGatewayProxyEventV2,
  maxBodyBytes: number,
  bodyShape = '{"locations": "lat,lon|lat,lon"} or a JSON array of locations',
): Promise<Record<string, unknown>> {
  rejectRepeatedParameters(event.rawQueryString);
  const params: Record<string, unknown> = { ...(event.queryStringParameters ?? {}) };
  // A GET has no body: no header is looked at on the hot path.
  const formType = event.body ? formContentType(event) : null;
  if (formType !== null) {
    const form = await readForm(event, formType, { maxFileBytes: null, maxFieldBytes: maxBodyBytes });
    return { ...params, ...form.fields };
  }
  const text = body(event, maxBodyBytes);
  if (text === null || text.trim() === '') return params;
  const contentType = headerValue(event, 'content-type') ?? '';
  if (contentType.includes('application/x-www-form-urlencoded')) {
    rejectJsonAsForm(text);
    const fields = new URLSearchParams(text);
    const repeated = repeatedKey(fields.keys());
    if (repeated !== null) {
      throw new InvalidRequestError(
        `Form field '${repeated.slice(0, 64)}' is given more than once; give it once${locationsHint(repeated, '|')}.`,
      );
    }
    // Own keys, as the query's are: `params[key] = value` let a field named __proto__ slip past the name check.
    return { ...params, ...Object.fromEntries(fields) };
  }
  const parsed = parseJsonBody(text, contentType);
  if (Array.isArray(parsed)) return { ...params, locations: parsed };
  if (typeof parsed !== 'object' || parsed === null) {
    throw new InvalidRequestError(`Request body must be a JSON object like ${bodyShape}.`);
  }
  return { ...params, ...(parsed as Record<string, unknown>) };
}

/**
 * `curl -d '{"locations": …}'` sends JSON labelled as a form (curl's default content type), which would be read as
 * one parameter named by the whole body: say what happened instead of "unknown parameter '{…'".
 */
function rejectJsonAsForm(text: string): void {
  const first = text.trimStart()[0];
  if (first === '{' || first === '[') {
    throw new InvalidRequestError(
      "Request body is JSON but its content-type is application/x-www-form-urlencoded (curl -d's default): send it with 'content-type: application/json', or as a form (locations=lat,lon|lat,lon).",
    );
  }
}

/**
 * API Gateway joins a repeated query parameter with commas (`locations=1,2&locations=3,4` arrives as
 * `1,2,3,4`), which would silently become other locations: a parameter given twice is a 400 instead.
 */
export function rejectRepeatedParameters(
  rawQueryString: string | undefined,
  separator = '|',
  only?: readonly string[],
): void {
  const key = repeatedParameter(rawQueryString, only);
  if (key === null) return;
  throw new InvalidRequestError(repeatedMessage(key, separator));
}

/** The first parameter given more than once (of `only`, when given: the others are ignored by the route). */
export function repeatedParameter(
  rawQueryString: string | undefined,
  only?: readonly string[],
): string | null {
  if (!rawQueryString) return null;
  const keys = [...new URLSearchParams(rawQueryString).keys()];
  return repeatedKey(only ? keys.filter((key) => only.includes(key)) : keys);
}

/** The first key seen twice; ignored parameters (`key`, `_`) may repeat: their values are never read. */
function repeatedKey(keys: Iterable<string>): string | null {
  const seen = new Set<string>();
  for (const key of keys) {
    if (IGNORED_PARAMETERS.has(key)) continue;
    if (seen.has(key)) return key;
    seen.add(key);
  }
  return null;
}

/** A 400 for `datum` or `nodata_value` on a route that reads only `interpolation` (Open-Elevation, legacy). */
export function rejectUnreadHeightOption(params: Readonly<Record<string, unknown>>): void {
  const unread = unreadHeightOption(params, ['interpolation']);
  if (unread !== undefined) {
    throw new InvalidRequestError(
      `'${unread}' is an option of /v1/{dataset}, which this route does not read: ask /v1/{dataset} for it.`,
    );
  }
}

export function repeatedMessage(key: string, separator: string): string {
  return `Query parameter '${key.slice(0, 64)}' is given more than once; give it once${locationsHint(key, separator)}.`;
}

/** The hint for a list of locations given as repeated parameters, for the parameters that hold locations. */
function locationsHint(key: string, separator: string): string {
  return ['locations', 'path', 'coordinates'].includes(key)
    ? ` (separate locations with '${separator}')`
    : '';
}

/** No request of this API nests deeper than 3; 64 leaves room and bounds the work any body can cause. */
export const MAX_JSON_DEPTH = 64;

/**
 * A body read as JSON, its parse error saying why it may not be JSON: UTF-16 text (NULs once read as UTF-8), or a
 * content type that names something else (`multipart/mixed` was answered "No number after minus sign" alone).
 */
function parseJsonBody(text: string, contentType: string): unknown {
  try {
    return parseJson(text);
  } catch (error) {
    if (!(error instanceof InvalidRequestError) || !error.message.startsWith('Invalid JSON')) throw error;
    const type = contentType.split(';')[0].trim();
    const hint = text.includes('\u0000')
      ? ' The body looks like UTF-16 (it holds NUL characters): send it as UTF-8.'
      : type !== '' && !/json|^text\/plain$/i.test(type)
        ? ` It was read as JSON, but its content-type is '${type.slice(0, 64)}': send application/json or a form (application/x-www-form-urlencoded, multipart/form-data).`
        : '';
    throw new InvalidRequestError(`${error.message}${hint}`);
  }
}

/** JSON with nesting at most MAX_JSON_DEPTH, checked by one iterative scan before JSON.parse (no recursion). */
export function parseJson(raw: string): unknown {
  // A byte order mark (Windows tools write one) is not JSON's, and RFC 8259 lets a reader ignore it.
  const text = raw.startsWith('\uFEFF') ? raw.slice(1) : raw;
  const depth = jsonDepth(text, MAX_JSON_DEPTH);
  if (depth > MAX_JSON_DEPTH) {
    throw new InvalidRequestError(
      `Request body nests arrays/objects more than ${MAX_JSON_DEPTH} levels deep; send a flat list of locations.`,
    );
  }
  try {
    return JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError(
      `Invalid JSON. The request body could not be parsed: ${(error as Error).message}.`,
    );
  }
}

/** Deepest [ / { nesting outside strings, scanning no further than needed to exceed `limit`. */
function jsonDepth(text: string, limit: number): number {
  let depth = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text.charCodeAt(i);
    if (inString) {
      if (c === 0x5c)
        i++; // backslash: skip the escaped character
      else if (c === 0x22) inString = false;
    } else if (c === 0x22) inString = true;
    else if (c === 0x5b || c === 0x7b) {
      if (++depth > limit) return depth;
    } else if (c === 0x5d || c === 0x7d) depth--;
  }
  return 0;
}

/** Path parameters may arrive percent-encoded ("a%2Cb"); a malformed escape is kept as written (then 404). */
export function decodePathParameter(value: string): string {
  try {
    return decodeURIComponent(value);
  } catch {
    return value;
  }
}

export function headerValue(event: APIGatewayProxyEventV2, name: string): string | undefined {
  const headers = event.headers ?? {};
  const key = Object.keys(headers).find((k) => k.toLowerCase() === name);
  return key === undefined ? undefined : headers[key];
}

/** The request's content type if it is a form (multipart/form-data), else null. */
export function formContentType(event: APIGatewayProxyEventV2): string | null {
  const type = headerValue(event, 'content-type');
  return type !== undefined && /^\s*multipart\/form-data\s*(;|$)/i.test(type) ? type : null;
}

/** Whether a body's text starts like urlencoded form fields (`name=value`, as `curl -d` sends them). */
export function startsLikeFormFields(text: string): boolean {
  return /^[\w%.[\]-]+=/.test(text.trimStart());
}

export function method(event: APIGatewayProxyEventV2): string {
  return (event.requestContext?.http?.method ?? 'GET').toUpperCase();
}

export function requireMethod(event: APIGatewayProxyEventV2, allowed: readonly string[]): void {
  if (!allowed.includes(method(event))) throw new MethodNotAllowedError(method(event), allowed);
}

export function corsHeaders(origin: string | null): Record<string, string> {
  if (!origin) return {};
  return {
    'access-control-allow-origin': origin,
    'access-control-allow-methods': 'GET, POST, OPTIONS',
    'access-control-allow-headers': 'content-type, content-encoding',
    'access-control-max-age': '86400',
  };
}

export function jsonResponse(
  statusCode: number,
  text: string,
  corsOrigin: string | null,
  extra: Record<string, string> = {},
): Response {
  return {
    statusCode,
    headers: { 'content-type': 'application/json', ...corsHeaders(corsOrigin), ...extra },
    body: text,
  };
}

/**
 * Heights for a given dataset version never change, so a successful answer may be kept by CDNs and browsers.
 * A day bounds how long an answer outlives a dataset update; the ETag (a hash of the body) lets a client
 * revalidate cheaply with If-None-Match (304, no body) and changes whenever the answer does.
 */
export const ANSWER_MAX_AGE_S = 86_400;

export function cacheableResponse(
  event: APIGatewayProxyEventV2,
  text: string,
  corsOrigin: string | null,
  contentType = 'application/json',
): Response {
  const etag = `"${createHash('sha256').update(text).digest('base64url').slice(0, 32)}"`;
  const headers = { 'cache-control': `public, max-age=${ANSWER_MAX_AGE_S}`, etag };
  const ifNoneMatch = headerValue(event, 'if-none-match');
  if (ifNoneMatch !== undefined && noneMatchHolds(ifNoneMatch, etag)) {
    const safe = method(event) === 'GET' || method(event) === 'HEAD';
    // The ETag of the answer the 200 would be, compressed or not (RFC 9110 §15.4.5): a cache freshens the
    // stored answer whose ETag it names, and the gzip client's stored answer has the -gzip one.
    const sent: Record<string, string> = sentGzipped(event, text)
      ? { etag: gzipEtag(etag), vary: 'accept-encoding' }
      : { etag };
    if (safe)
      return { statusCode: 304, headers: { ...corsHeaders(corsOrigin), ...headers, ...sent }, body: '' };
    // RFC 9110 §13.1.2: a matching If-None-Match on any other method is a failed precondition.
    return jsonResponse(412, preconditionFailed(), corsOrigin);
  }
  return jsonResponse(200, text, corsOrigin, { ...headers, 'content-type': contentType });
}

/** The ETag of the answer gone out gzip-compressed: a strong ETag names one encoding (`"abc"` → `"abc-gzip"`). */
export function gzipEtag(etag: string): string {
  return `${etag.slice(0, -1)}-gzip"`;
}

/** Below ~1 KB gzip saves less than its own header and the CPU; a 100-point answer (~9 KB) shrinks ~5x. */
const GZIP_MIN_BYTES = 1024;

export function acceptsGzip(event: APIGatewayProxyEventV2): boolean {
  const accept = headerValue(event, 'accept-encoding') ?? '';
  // One \s* per gap: two side by side (before and after an absent q=) split a run of spaces n² ways.
  return /(^|,)\s*gzip\s*(?:;\s*q=(?!0(?:\.0*)?\s*(?:,|$))[\d.]+\s*)?(?:,|$)/i.test(accept);
}

/** Whether a text answer goes out gzip-compressed (response-finish.ts compresses it; its 304 names that ETag). */
export function sentGzipped(event: APIGatewayProxyEventV2, text: string): boolean {
  return text.length >= GZIP_MIN_BYTES && acceptsGzip(event);
}

/**
 * Whether If-None-Match names the answer (RFC 9110 §13.1.2): `*`, or a listed tag equal to its ETag by weak
 * comparison (`W/` ignored), the gzip-compressed answer's tag included.
 */
function noneMatchHolds(header: string, etag: string): boolean {
  const gzipped = gzipEtag(etag);
  return header.split(',').some((listed) => {
    const tag = listed.trim().replace(/^W\//, '');
    return tag === '*' || tag === etag || tag === gzipped;
  });
}

function preconditionFailed(): string {
  return JSON.stringify({
    status: 'INVALID_REQUEST',
    error:
      'If-None-Match names the current answer; only a GET or HEAD is answered 304. Send it without If-None-Match.',
  });
}

export function preflightResponse(corsOrigin: string | null): Response {
  return { statusCode: 204, headers: corsHeaders(corsOrigin), body: '' };
}

/**
 * The longest 4xx message answered and logged (the longest we write is ~600 characters): one quoting a client's
 * value whole (a 30 MB GPX attribute) is cut here, whichever message forgot to cut it.
 */
export const MAX_ERROR_MESSAGE_CHARS = 2000;

/**
 * Maps any error to a response. The wide log line gets the error's code and the exact text the client got; for
 * a 5xx also the internal error with its cause, which never reaches the client.
 */
export function errorResponse(error: unknown, corsOrigin: string | null, t: RequestTelemetry): Response {
  const status = error instanceof ElevationError ? error.statusCode : 500;
  const errorCode = error instanceof ElevationError ? error.name : 'InternalError';
  if (status < 500 && error instanceof Error) {
    const text = excerpt(error.message, MAX_ERROR_MESSAGE_CHARS);
    t.set({ errorCode, errorMessage: text });
    const extra = error instanceof MethodNotAllowedError ? { allow: error.allowed.join(', ') } : undefined;
    return jsonResponse(
      status,
      JSON.stringify({ status: 'INVALID_REQUEST', error: text }),
      corsOrigin,
      extra,
    );
  }
  const message = serverErrorMessage(error, status);
  t.set({ errorCode, errorMessage: message, error: describeError(error) });
  t.recordServerError(error);
  return jsonResponse(status, JSON.stringify({ status: 'SERVER_ERROR', error: message }), corsOrigin);
}

/** What a 5xx tells the client: what it may do (retry or not), never a file, URL or cause (those go to the log). */
function serverErrorMessage(error: unknown, status: number): string {
  if (error instanceof DatasetUnavailableError) return error.publicMessage;
  if (error instanceof DataSourceAccessDeniedError)
    return 'The elevation data store denied access to its files; an operator must fix its permissions.';
  if (error instanceof DataSourceMisconfiguredError)
    return 'The elevation data store is addressed wrongly (a bucket in another region, or a wrong name); an operator must fix the deployment.';
  // The configuration, or a dataset file found unusable when a request first needs it (a VRT's later source, a
  // tile): no retry helps.
  if (error instanceof DatasetConfigError)
    return 'The configuration or a dataset file is unusable; an operator must fix it (the server log says what and why).';
  if (status === 504) return 'The elevation data store did not answer in time. Please retry.';
  if (status === 502) return 'The elevation data store is unavailable. Please retry.';
  return 'Internal server error.';
}

function describeError(error: unknown): Record<string, unknown> {
  if (!(error instanceof Error)) return { message: String(error) };
  return {
    name: error.name,
    message: error.message,
    stack: error.stack,
    cause: error.cause === undefined ? undefined : describeError(error.cause),
  };
}
