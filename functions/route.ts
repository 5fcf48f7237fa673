/**
 * The shape every handler shares, written once: instrumented, the app built on first use, CORS preflight
 * answered, the method checked, a compressed body (Content-Encoding) decoded, a deadline set from the Lambda's
 * remaining time, and any error mapped to a status in one place (never thrown: serverless-offline would turn a
 * thrown error into HTTP 200).
 */
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import {
  blockCache,
  DATA_ANSWERS,
  DeadlineExceededError,
  InvalidRequestError,
  ReadLimiter,
  type ReadContext,
} from '../layers/elevation';
import { instrumentHandler, type Observed, type RequestTelemetry } from '../layers/telemetry';
import { corsOriginOrNull, getApp, type App } from './app';
import { errorResponse, method, preflightResponse, requireMethod, type Response } from './http';
import { decodeContentEncoding } from './content-encoding';
import { finishResponse } from './response-finish';
import { requestDeadline, type Deadline } from './deadline';

export type RouteHandler = (
  event: APIGatewayProxyEventV2,
  t: RequestTelemetry,
  app: App,
  /** What reads need from this request: counters, tracing, the deadline and the read cap. */
  ctx: ReadContext,
) => Promise<Response>;

/** What telemetry reports of the library beside each request's counters: its block cache and answer labels. */
const OBSERVED: Observed = { cache: blockCache, answers: DATA_ANSWERS };

/**
 * Most the answer waits, once the deadline has passed, for the request's work to stop (the reads listening to the
 * signal settle within a few ticks): taken from DEADLINE_MARGIN_MS, never beyond it.
 */
const DEADLINE_SETTLE_MS = 100;

/** Used when the context has no clock (tools and tests invoking a handler with a partial context). */
const FALLBACK_REMAINING_MS = 28_000;

/**
 * How a route writes its errors when not in our JSON shape (Google's routes): given the error response made by
 * `errorResponse` (status, headers and logging done), it returns the response the client gets. Every error of
 * the route passes through it, the method check and the deadline included.
 */
export type ErrorShape = (event: APIGatewayProxyEventV2, response: Response) => Response;

export function route(name: string, methods: readonly string[], fn: RouteHandler, shape?: ErrorShape) {
  const run = answer(methods, fn, shape);
  const corsMethods = [...new Set([...methods, 'OPTIONS'])].join(', ');
  return instrumentHandler(
    name,
    async (event, t, context) =>
      finishResponse(asRequest(event), withCorsMethods(await run(event, t, context), corsMethods)),
    OBSERVED,
  );
}

/**
 * The route's own methods in Access-Control-Allow-Methods (corsHeaders writes every route's GET, POST, OPTIONS),
 * so it never contradicts the Allow header of its 405 (`/health` allows GET only).
 */
function withCorsMethods(response: Response, corsMethods: string): Response {
  const headers = response.headers;
  if (headers?.['access-control-allow-methods'] === undefined) return response;
  return { ...response, headers: { ...headers, 'access-control-allow-methods': corsMethods } };
}

/** HEAD is answered as GET (body dropped by finishResponse); OPTIONS is a CORS preflight on every route. */
function answer(methods: readonly string[], fn: RouteHandler, shape: ErrorShape | undefined) {
  const allowed = methods.includes('GET') ? [...methods, 'HEAD'] : methods;
  return async (event: APIGatewayProxyEventV2, t: RequestTelemetry, context: Context): Promise<Response> => {
    let deadline: Deadline | undefined;
    try {
      requireObjectEvent(event);
      const app = getApp();
      if (method(event) === 'OPTIONS') return preflightResponse(app.corsOrigin);
      requireMethod(event, allowed);
      const decoded = decodeContentEncoding(event);
      const { deadlineMarginMs } = app.settings;
      const budgetMs = Math.max(0, remainingMs(context) - deadlineMarginMs);
      // Reads stop at the deadline (the signal); the race answers 504 even if some work ignores the signal, after
      // waiting a little (part of the margin) for the work that listens to it to close its spans and count its reads.
      deadline = requestDeadline(
        budgetMs,
        Math.min(DEADLINE_SETTLE_MS, deadlineMarginMs),
        () => new DeadlineExceededError(`Request deadline of ${budgetMs} ms passed`),
      );
      const ctx: ReadContext = {
        stats: t.stats,
        trace: t.trace,
        signal: deadline.signal,
        limiter: new ReadLimiter(app.settings.maxConcurrentReads),
        blockBudgetBytes: app.settings.requestBlockBudgetBytes,
      };
      return await deadline.race(fn(decoded, t, app, ctx));
    } catch (error) {
      const response = errorResponse(error, corsOriginOrNull(), t);
      return shape ? shape(asRequest(event), response) : response;
    } finally {
      deadline?.clear();
    }
  };
}

/**
 * API Gateway's fields a handler reads (payload 2.0): the type each has when present, and whether it may be null.
 */
const EVENT_FIELDS: readonly [name: string, type: 'string' | 'object', nullable: boolean][] = [
  ['rawPath', 'string', true],
  ['rawQueryString', 'string', true],
  ['body', 'string', true],
  ['headers', 'object', true],
  ['queryStringParameters', 'object', true],
  ['pathParameters', 'object', true],
  ['requestContext', 'object', false],
  ['requestContext.http', 'object', false],
];

/**
 * Lambda passes whatever JSON it was invoked with: API Gateway always sends an object, but a direct invoke
 * (`aws lambda invoke --payload 'null'`, a console test) may send null, a string, an array, or an object whose
 * fields have other types (`{"body": 5}`, a `requestContext` of null). Such an event is a 400 saying what was
 * expected, not a TypeError escaping the handler (a Lambda error with a stack trace) or a 500.
 */
function requireObjectEvent(event: unknown): void {
  if (!isRecord(event)) throw notARequest(`it is ${kindOf(event)}`);
  for (const [name, type, nullable] of EVENT_FIELDS) {
    const value = name.split('.').reduce<unknown>((v, key) => (isRecord(v) ? v[key] : undefined), event);
    if (value === undefined || (value === null && nullable)) continue;
    if (type === 'string' ? typeof value !== 'string' : !isRecord(value))
      throw notARequest(
        `its ${name} is ${kindOf(value)}, not ${type === 'string' ? 'a string' : 'an object'}`,
      );
  }
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function kindOf(value: unknown): string {
  if (value === null || value === undefined) return String(value);
  return Array.isArray(value) ? 'an array' : `a ${typeof value}`;
}

function notARequest(what: string): InvalidRequestError {
  return new InvalidRequestError(
    `The function was invoked with an event that is not an API Gateway HTTP request (${what}): call it through its HTTP API, or invoke it with an API Gateway payload 2.0 event.`,
  );
}

/** The event where it is an object; otherwise an empty one (no headers, no method), to finish the 400 answer. */
function asRequest(event: unknown): APIGatewayProxyEventV2 {
  return (typeof event === 'object' && event !== null ? event : {}) as APIGatewayProxyEventV2;
}

function remainingMs(context: Context | undefined): number {
  const remaining = context?.getRemainingTimeInMillis?.();
  return typeof remaining === 'number' && Number.isFinite(remaining) ? remaining : FALLBACK_REMAINING_MS;
}
