/**
 * The local API gateway in front of serverless-offline (`npm start`, the e2e stack): what API Gateway does for
 * the deployed API and serverless-offline does not.
 *  - Every answer is JSON, with an x-request-id: oversized URLs (414) and headers (431), malformed requests
 *    (400; no Host, a JSON string body), stalled ones (408 after RECEIVE_MS), unknown methods and transfer
 *    codings (501), an Expect other than 100-continue (417), bodies declared too large (413 before they are
 *    sent), unknown routes (404, listing the routes), and serverless-offline's own error answers (a thrown
 *    handler or a Lambda timeout came back as HTTP 200 with a stack trace and file paths) become 500/504 with a
 *    generic message. Each of its own answers gets an access-log line (accessLog), as API Gateway logs them.
 *  - Concurrency per function is bounded with a queue (a ConcurrencyLimit per function), so a burst costs queueing, not a
 *    worker thread per request; the whole wait counts against API Gateway's 30 s integration timeout.
 *  - Requests that arrive while serverless-offline is still starting wait for it (within the timeout), as a
 *    first request waits out a cold start in AWS, instead of failing as uninvocable (502): see upstreamReady.
 *  - CORS headers come from the handlers only (CORS_ORIGIN / access_control_allow_origin), as from an HTTP API
 *    without a `cors` setting: see NOT_FORWARDED.
 */
import { randomUUID } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import { ConcurrencyLimit } from '../../layers/elevation';
import { describeRoutes, matchRoute, trimSlashes, type ApiRoute } from './routes';

export interface GatewayOptions {
  /** serverless-offline's base URL, e.g. http://127.0.0.1:41000 */
  upstream: string;
  routes: ApiRoute[];
  port: number;
  host?: string;
  /** Invocations of one function running at once (LOCAL_CONCURRENCY). */
  maxConcurrent: number;
  /** Requests of one function waiting for a slot before 429 (LOCAL_QUEUE). */
  maxQueued: number;
  /** API Gateway's integration timeout: 30 s for HTTP APIs. */
  timeoutMs: number;
  /**
   * How long a client may take to send its whole request (headers and body) before a 408: default RECEIVE_MS.
   * Without it Node held a stalled upload for its own 300 s, then answered 400.
   */
  receiveTimeoutMs?: number;
  /**
   * Resolves once serverless-offline answers (rejects if it never will). Until then a request holding a slot
   * waits for it, within its timeout, as a first request waits for a cold start in AWS; one still waiting at its
   * timeout is a 503 with Retry-After. Without it the upstream is taken to be up.
   */
  upstreamReady?: Promise<void>;
  /**
   * Gets one JSON line per answer the gateway gives itself (refused, throttled, timed out: the function never
   * logs those), in serverless.yml's HTTP API access-log format, as API Gateway logs every request in AWS.
   */
  accessLog?: (line: string) => void;
}

export interface Gateway {
  url: string;
  port: number;
  /**
   * A graceful stop: takes no new connections, lets every request already received (running or queued) be
   * answered, each on a connection that then closes, for up to `timeoutMs`; any still unanswered then gets a 503
   * with Retry-After (its function may still be running) and one already being answered is cut off. Resolves
   * with how many were cut off so. Call close() after it to free the rest.
   */
  drain(timeoutMs: number): Promise<{ cutOff: number }>;
  close(): Promise<void>;
}

/**
 * 16 KiB: what serverless-offline (Node's default header limit) accepted before this gateway, so a GET of ~500
 * locations still works locally. API Gateway's own limit is 10 KiB for the request line and headers together.
 */
export const MAX_URL_BYTES = 16 * 1024;
export const MAX_HEADER_BYTES = 32 * 1024;
/**
 * Most headers a request may have: Node's http servers (this one's parser, serverless-offline's behind it) keep
 * the first 2,000 and drop the rest without a word; browsers and clients send a few dozen.
 */
export const MAX_HEADER_COUNT = 500;
/** Lambda's synchronous invocation payload limit. */
export const MAX_BODY_BYTES = 6 * 1024 * 1024;
/**
 * A binary body reaches Lambda base64-encoded (serverless-offline encodes application/octet-stream and multipart
 * bodies, API Gateway any binary type), 4 bytes for every 3: above this it would not fit MAX_BODY_BYTES there.
 */
export const MAX_BINARY_BODY_BYTES = Math.floor((MAX_BODY_BYTES * 3) / 4);

/** The body limit for a content type, as serverless-offline tells binary from text (its `detectEncoding`). */
export function bodyLimit(contentType: string | undefined): number {
  const binary = /application\/octet-stream|multipart\/form-data/i.test(contentType ?? '');
  return binary ? MAX_BINARY_BODY_BYTES : MAX_BODY_BYTES;
}
/** Node's parser limit on this server: far above the checks, so they (not the parser) answer with JSON. */
const PARSER_HEADER_BYTES = 1024 * 1024;
/** The time a client has to send its request (the integration timeout's 30 s). */
export const RECEIVE_MS = 30_000;
/** Transfer codings a request may use: chunked only (gzip as a transfer coding was read as the raw body). */
const TRANSFER_CODINGS = new Set(['chunked']);

/** The 501 for a Transfer-Encoding other than chunked, naming it. */
function unsupportedCoding(codings: string): string {
  return `Transfer-Encoding '${codings.slice(0, 64)}' is not supported: send the body chunked or with a Content-Length (compress it with Content-Encoding instead).`;
}

export async function startGateway(options: GatewayOptions): Promise<Gateway> {
  const slots = new Map<string, ConcurrencyLimit>();
  const slotsOf = (fn: string): ConcurrencyLimit => {
    let s = slots.get(fn);
    if (!s) slots.set(fn, (s = new ConcurrencyLimit(options.maxConcurrent, options.maxQueued)));
    return s;
  };
  const agent = new http.Agent({ keepAlive: true, maxSockets: Infinity });
  const upstream = new URL(options.upstream);
  const upstreamUp = upstreamWatch(options.upstreamReady);
  const receiveMs = options.receiveTimeoutMs ?? RECEIVE_MS;
  const log = (answer: OwnAnswer, ip: string | undefined, request?: http.IncomingMessage) => {
    if (!options.accessLog) return;
    const method = request?.method ?? '-';
    const route = request
      ? matchRoute(options.routes, method, originForm(request.url ?? '/').split('?')[0])
      : null;
    options.accessLog(
      accessLine({
        requestId: answer.requestId,
        ip: ip ?? '-',
        method,
        routeKey: route ? `${route.method === '*' ? 'ANY' : route.method} ${route.path}` : '-',
        status: answer.status,
        responseLength: answer.length,
        error: answer.error,
        userAgent: request?.headers['user-agent'] ?? '-',
      }),
    );
  };
  /** `why`, when given, goes to the access log after the message, not to the client. */
  const sendJson = (
    response: http.ServerResponse,
    status: number,
    kind: string,
    error: string,
    headers: http.OutgoingHttpHeaders = {},
    why?: string,
  ) => {
    const answer = writeJson(response, status, kind, error, headers);
    log(
      why === undefined ? answer : { ...answer, error: `${error} (${why})` },
      response.req.socket.remoteAddress,
      response.req,
    );
  };
  const rawJson = (
    socket: Socket,
    status: number,
    kind: string,
    error: string,
    request?: http.IncomingMessage,
  ) => log(writeRawJson(socket, status, kind, error), socket.remoteAddress, request);
  /** Requests received and not yet answered (or given up by their client): what a drain waits for. */
  const open = new Set<http.ServerResponse>();
  let draining = false;
  /** Called once `open` is empty: each waiting drain's. */
  const onDrained = new Set<() => void>();
  const received = (response: http.ServerResponse): void => {
    open.add(response);
    // While draining, each answer closes its connection: a kept-alive client then sends its next request to
    // whatever replaces this process, not into one about to stop.
    if (draining) response.setHeader('connection', 'close');
    response.once('close', () => {
      open.delete(response);
      if (open.size > 0) return;
      for (const resolve of onDrained) resolve();
      onDrained.clear();
    });
  };
  /**
   * A request whose handling failed: a 500, unless its connection is already answered or gone (a body that
   * trickled past the receive timeout got its 408 on the socket, and then a 500 in the access log for the same
   * request, counted as a server error; a client that left mid-body is no server error either).
   */
  const failed = (response: http.ServerResponse): void => {
    const socket = response.socket;
    if (response.headersSent || socket === null || socket.destroyed || !socket.writable) response.destroy();
    else sendJson(response, 500, 'SERVER_ERROR', 'Internal server error.');
  };
  /** Connections whose request was refused (501) for its Transfer-Encoding: the parser's error after it is not answered. */
  const refusedCoding = new WeakSet<Socket>();
  const server = http.createServer(
    {
      maxHeaderSize: PARSER_HEADER_BYTES,
      requestTimeout: receiveMs,
      headersTimeout: receiveMs,
      connectionsCheckingInterval: Math.min(1000, receiveMs),
      requireHostHeader: false, // answered below, in JSON (Node's own 400 has an empty body)
    },
    (request, response) => {
      received(response);
      handle(request, response).catch(() => failed(response));
    },
  );
  // Every header is read: Node keeps the first 2,000 only, so a second Host or a Content-Encoding after them went
  // unseen (and serverless-offline, behind, drops them too). Over MAX_HEADER_COUNT is a 431.
  server.maxHeadersCount = 0;
  // `Expect: 100-continue`: a body over the limit is refused before the client sends it.
  server.on('checkContinue', (request: http.IncomingMessage, response: http.ServerResponse) => {
    received(response);
    if (declaredTooLarge(request, bodyLimit(request.headers['content-type']))) {
      handle(request, response).catch(() => response.destroy());
      return;
    }
    response.writeContinue();
    handle(request, response).catch(() => failed(response));
  });
  server.on('checkExpectation', (request: http.IncomingMessage, response: http.ServerResponse) => {
    received(response);
    request.resume();
    sendJson(
      response,
      417,
      'INVALID_REQUEST',
      `Expect: ${String(request.headers.expect).slice(0, 64)} is not supported; only 100-continue is.`,
    );
  });
  server.on('connect', (request: http.IncomingMessage, socket: Socket) => {
    rawJson(
      socket,
      405,
      'INVALID_REQUEST',
      'CONNECT is not supported: this is an API, not a proxy.',
      request,
    );
  });

  async function handle(request: http.IncomingMessage, response: http.ServerResponse): Promise<void> {
    const arrived = Date.now();
    const method = (request.method ?? 'GET').toUpperCase();
    // An absolute-form target (`GET http://host/v1/… HTTP/1.1`), which servers must accept (RFC 9112 §3.2.2).
    const url = originForm(request.url ?? '/');
    const hosts = request.rawHeaders.filter((_, i) => i % 2 === 0 && /^host$/i.test(request.rawHeaders[i]));
    // HTTP/1.0 may leave Host out (RFC 9112 §3.2); HTTP/1.1 must send exactly one.
    if (hosts.length > 1 || (hosts.length === 0 && request.httpVersion !== '1.0')) {
      request.resume();
      return sendJson(
        response,
        400,
        'INVALID_REQUEST',
        hosts.length === 0 ? 'The request has no Host header.' : 'The request has more than one Host header.',
      );
    }
    const codings = request.headers['transfer-encoding'];
    if (
      codings !== undefined &&
      codings.split(',').some((c) => !TRANSFER_CODINGS.has(c.trim().toLowerCase()))
    ) {
      request.resume();
      refusedCoding.add(request.socket);
      return sendJson(response, 501, 'INVALID_REQUEST', unsupportedCoding(codings), { connection: 'close' });
    }
    if (Buffer.byteLength(url) > MAX_URL_BYTES) {
      request.resume();
      // Only a route that takes POST can take its locations in a body (Google's routes are GET only).
      const postable = matchRoute(options.routes, 'POST', url.split('?')[0]) !== null;
      return sendJson(
        response,
        414,
        'INVALID_REQUEST',
        postable
          ? `The URL is longer than ${MAX_URL_BYTES} bytes: send many locations as a POST body.`
          : `The URL is longer than ${MAX_URL_BYTES} bytes, the most this route takes: send fewer locations per request, or as an enc: polyline.`,
      );
    }
    if (request.rawHeaders.length / 2 > MAX_HEADER_COUNT) {
      request.resume();
      return sendJson(
        response,
        431,
        'INVALID_REQUEST',
        `The request has more than ${MAX_HEADER_COUNT} headers.`,
      );
    }
    if (headerBytes(request) > MAX_HEADER_BYTES) {
      request.resume();
      return sendJson(
        response,
        431,
        'INVALID_REQUEST',
        `The request headers are larger than ${MAX_HEADER_BYTES} bytes.`,
      );
    }
    const [path, query] = url.split('?');
    const badEscape = invalidPercentEscape(path);
    if (badEscape !== null) {
      request.resume();
      return sendJson(
        response,
        400,
        'INVALID_REQUEST',
        `The URL path has an invalid percent-encoding ('${badEscape}'): escapes must spell UTF-8, and a '%' in a dataset name is written %25.`,
      );
    }
    const route = matchRoute(options.routes, method, path);
    // API Gateway matches `/v1/` to the route `/v1`; serverless-offline's router does not: forward it without the slash.
    const forwardPath =
      route && path.length > 1 && path.endsWith('/') && !route.path.endsWith('/')
        ? trimSlashes(path) + (query === undefined ? '' : `?${query}`)
        : url;
    const noRoute = () =>
      sendJson(
        response,
        404,
        'INVALID_REQUEST',
        `No route for ${method} ${path.slice(0, 200)}. Routes: ${describeRoutes(options.routes)}.`,
      );
    if (!route) {
      request.resume();
      return noRoute();
    }
    const limit = bodyLimit(request.headers['content-type']);
    const tooLarge = () => {
      response.once('finish', () => setTimeout(() => request.socket.destroy(), LINGER_MS).unref());
      sendJson(
        response,
        413,
        'INVALID_REQUEST',
        limit === MAX_BODY_BYTES
          ? `The request body is larger than ${MAX_BODY_BYTES} bytes.`
          : `The request body is larger than ${limit} bytes: a binary body reaches Lambda base64-encoded, and ` +
              `would be over its ${MAX_BODY_BYTES}-byte request limit. Send a smaller or gzip-compressed file.`,
        { connection: 'close' },
      );
    };
    // Refused from its Content-Length, before reading it (a 50 MB upload was read in full first); the rest of it
    // is read and dropped so the client gets the answer, and the connection closes after it.
    if (declaredTooLarge(request, limit)) {
      request.resume();
      return tooLarge();
    }
    const body = await readBody(request, limit);
    if (body === null) return tooLarge();
    if (method !== 'GET' && method !== 'HEAD' && jsonString(request.headers['content-type'], body)) {
      // serverless-offline parses a JSON body and hands the handler a JSON string's contents, unwrapped (a
      // double-encoded body was answered locally; API Gateway passes it as sent, which no route reads).
      return sendJson(
        response,
        400,
        'INVALID_REQUEST',
        "The request body is a JSON string; send a JSON object (or the route's file) instead.",
      );
    }
    const release = await slotsOf(route.functionName).acquire();
    if (!release) {
      return sendJson(
        response,
        429,
        'SERVER_ERROR',
        `Too many requests are waiting for this function; retry in ${QUEUE_FULL_RETRY_AFTER_S} s or more.`,
        { 'retry-after': String(QUEUE_FULL_RETRY_AFTER_S) },
      );
    }
    // The slot is freed when the invocation ends, not when the client is answered: a function still running
    // after its 504 keeps its worker busy, and freeing its slot early let serverless-offline start one worker
    // (one more block cache) per timed-out request.
    let invocationEnded: Promise<void> = Promise.resolve();
    try {
      const up = await upstreamUp(options.timeoutMs - (Date.now() - arrived));
      // Answered while it waited (a drain that ran out of time): not invoked now.
      if (response.writableEnded) return;
      if (!up) {
        return sendJson(response, 503, 'SERVER_ERROR', 'The API is still starting; retry in a few seconds.', {
          'retry-after': String(STARTING_RETRY_AFTER_S),
        });
      }
      const remaining = options.timeoutMs - (Date.now() - arrived);
      if (response.destroyed) {
        // The client went away while its request waited for a slot: nothing to answer, no function invoked.
        const gone = 'The client closed the connection while the request waited for a function instance.';
        return log(
          { requestId: gatewayRequestId(), status: null, length: 0, error: gone },
          request.socket.remoteAddress,
          request,
        );
      }
      if (remaining <= 0) {
        return sendJson(
          response,
          504,
          'SERVER_ERROR',
          'The request timed out waiting for a free function instance.',
        );
      }
      const invocation = forward(agent, upstream, request, forwardPath, body, remaining, forwardPath !== url);
      invocationEnded = invocation.ended;
      const answer = await invocation.answer;
      if (response.writableEnded) return; // answered by a drain that ran out of time
      if (answer === 'timeout') return sendJson(response, 504, 'SERVER_ERROR', 'The request timed out.');
      if (answer === 'failed') {
        // Why goes to the access log only: it names internal ports and serverless-offline's behaviour.
        const why = invocation.failure();
        return sendJson(response, 502, 'SERVER_ERROR', 'The function could not be invoked.', {}, why);
      }
      const offlineError = offlineErrorOf(answer);
      if (offlineError === 'timeout')
        return sendJson(response, 504, 'SERVER_ERROR', 'The request timed out.');
      if (offlineError === 'error') return sendJson(response, 500, 'SERVER_ERROR', 'Internal server error.');
      // Its router's own 404 (its route table, its name) for a path the gateway routed: ours instead.
      if (offlineRouteNotFound(answer)) return noRoute();
      const refused = offlineRefusalOf(answer);
      if (refused !== null) {
        return answer.status >= 500
          ? sendJson(response, 500, 'SERVER_ERROR', 'Internal server error.')
          : sendJson(
              response,
              answer.status,
              'INVALID_REQUEST',
              `The request could not be read: ${refused}.`,
            );
      }
      response.writeHead(answer.status, answer.headers);
      response.end(answer.body);
    } finally {
      void invocationEnded.then(release);
    }
  }

  server.on('clientError', (error: NodeJS.ErrnoException & { rawPacket?: Buffer }, socket: Socket) => {
    if (!socket.writable) {
      socket.destroy();
      return;
    }
    // Node's parser hands over a request whose Transfer-Encoding does not end in chunked, answered 501 above, and
    // then fails on it: a second answer (a generic 400) followed the 501 on the connection.
    if (refusedCoding.has(socket)) {
      socket.end();
      return;
    }
    // Linear: a lazy group before `[ \t]*$` backtracks quadratically over a line of spaces (32 KB of headers).
    const codings = /^transfer-encoding:([^\r\n]*)/im.exec(error.rawPacket?.toString('latin1') ?? '');
    const [status, message] =
      error.code === 'HPE_INVALID_TRANSFER_ENCODING' && codings
        ? [501, unsupportedCoding(codings[1].trim())]
        : error.code === 'HPE_HEADER_OVERFLOW'
          ? [431, 'The request line or headers are too large.']
          : error.code === 'ERR_HTTP_REQUEST_TIMEOUT'
            ? [408, `The request was not received in full within ${receiveMs / 1000} s.`]
            : error.code === 'HPE_INVALID_METHOD'
              ? [501, 'The request method is not supported.']
              : [400, 'The request is not valid HTTP.'];
    rawJson(socket, status, 'INVALID_REQUEST', message);
  });
  server.keepAliveTimeout = 5000;
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen(options.port, options.host ?? '127.0.0.1', () => resolve());
  });
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://${options.host ?? '127.0.0.1'}:${port}`,
    port,
    drain: async (timeoutMs) => {
      draining = true;
      server.close(); // no new connections; Node closes the idle kept-alive ones
      server.closeIdleConnections();
      for (const response of open) if (!response.headersSent) response.setHeader('connection', 'close');
      if (open.size > 0) {
        let timer: NodeJS.Timeout | undefined;
        await Promise.race([
          new Promise<void>((resolve) => onDrained.add(resolve)),
          new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, timeoutMs)))),
        ]);
        clearTimeout(timer);
      }
      let cutOff = 0;
      for (const response of [...open]) {
        if (response.headersSent) {
          response.destroy(); // an answer still being written when time ran out
          cutOff += 1;
          continue;
        }
        response.req.resume();
        sendJson(response, 503, 'SERVER_ERROR', 'The API is shutting down; retry in a few seconds.', {
          connection: 'close',
          'retry-after': String(STARTING_RETRY_AFTER_S),
        });
        cutOff += 1;
      }
      return { cutOff };
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
}

interface Answer {
  status: number;
  headers: http.OutgoingHttpHeaders;
  body: Buffer;
}

/** Set by this gateway only (a client's own is dropped): the path had a trailing slash before forwarding. */
export const TRAILING_SLASH_HEADER = 'x-elevation-trailing-slash';

const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'transfer-encoding', 'content-length']);

/** The path and query of an absolute-form request target (`http://host/v1/x?y`), or the target as it is. */
export function originForm(target: string): string {
  const match = /^https?:\/\/[^/?#]*/i.exec(target);
  if (!match) return target;
  const rest = target.slice(match[0].length);
  return rest.startsWith('/') ? rest : `/${rest}`;
}

/**
 * The Accept-Encoding the handlers act on (gzip, with its q), without the codings only hapi would apply: it
 * compressed an answer the handler left plain with deflate or x-gzip, which API Gateway never does (an HTTP API
 * compresses nothing). Nothing left: identity.
 */
export function handlerCodings(accepted: string): string {
  const kept = accepted
    .split(',')
    .map((part) => part.trim())
    .filter((part) => /^(gzip|identity)\s*(;|$)/i.test(part));
  return kept.length > 0 ? kept.join(', ') : 'identity';
}

/** Whether the request's Content-Length already says its body is over the limit for its content type. */
function declaredTooLarge(request: http.IncomingMessage, limit: number): boolean {
  const declared = Number(request.headers['content-length']);
  return Number.isFinite(declared) && declared > limit;
}

/** JSON content types serverless-offline parses before the handler (its `contentTypesThatRequirePayloadParsing`). */
const PARSED_JSON_TYPES = new Set(['application/json', 'application/vnd.api+json']);

/** Whether a body serverless-offline would parse is a JSON string (one with a BOM its JSON.parse refuses: not). */
export function jsonString(contentType: string | undefined, body: Buffer): boolean {
  const type = (contentType ?? 'application/json').split(';')[0].trim().toLowerCase();
  if (!PARSED_JSON_TYPES.has(type)) return false;
  if (!body.subarray(0, 64).toString('utf8').trimStart().startsWith('"')) return false;
  try {
    return typeof JSON.parse(body.toString('utf8')) === 'string';
  } catch {
    return false;
  }
}

/**
 * Request headers serverless-offline does not get. `origin`: serverless-offline (14.8.x) answers every request that
 * carries one, when the service has no `provider.httpApi.cors`, with that origin in Access-Control-Allow-Origin and
 * `Access-Control-Allow-Credentials: true` (and turns a preflight's 204 into 200), where API Gateway adds nothing:
 * with CORS_ORIGIN unset, any site could read the local API with credentials, and a CORS setting that works under
 * `npm start` could fail in AWS. No handler reads Origin (their CORS header is the configured origin), so dropping
 * it changes nothing else they answer. `range` and `if-range`: hapi served a byte range of a handler's answer (206 with
 * part of a JSON body, 416 without Content-Range), where API Gateway passes a Lambda's answer whole. `cookie`: hapi
 * refused every request whose cookies it could not parse (`prefs={"a":1}`, another app's on localhost) with 400, on
 * every route; API Gateway passes them on, and no handler reads them.
 */
const NOT_FORWARDED = new Set(['origin', 'range', 'if-range', 'cookie', TRAILING_SLASH_HEADER]);

/**
 * Answer headers clients do not get: hapi's `accept-ranges: bytes` promised ranges the gateway does not pass on
 * (NOT_FORWARDED's `range`), and API Gateway sends none.
 */
const NOT_ANSWERED = new Set(['accept-ranges']);

/**
 * After the client's 504, how long a still-running invocation may hold its slot before its connection is cut:
 * serverless-offline ends an invocation at the function timeout (28 s) itself, so this only frees a hung one.
 */
const ABANDON_AFTER_MS = 60_000;

function forward(
  agent: http.Agent,
  upstream: URL,
  request: http.IncomingMessage,
  path: string,
  body: Buffer,
  timeoutMs: number,
  slashStripped: boolean,
): { answer: Promise<Answer | 'timeout' | 'failed'>; ended: Promise<void>; failure: () => string } {
  let endInvocation: () => void = () => undefined;
  /** What made the answer 'failed', for the access log (the first cause seen). */
  let failure = 'serverless-offline closed the connection without an answer';
  let failed = false;
  const fail = (why: string): void => {
    if (!failed) failure = why;
    failed = true;
  };
  const ended = new Promise<void>((resolve) => (endInvocation = resolve));
  const answer = new Promise<Answer | 'timeout' | 'failed'>((resolve) => {
    const headers: http.OutgoingHttpHeaders = {};
    for (const [key, value] of Object.entries(request.headers))
      if (!HOP_BY_HOP.has(key) && !NOT_FORWARDED.has(key)) headers[key] = value;
    const accepted = request.headers['accept-encoding'];
    if (accepted !== undefined) headers['accept-encoding'] = handlerCodings(accepted);
    headers['content-length'] = body.byteLength;
    // The handler sees the path without its slash (serverless-offline's router needs that); this tells it the
    // client's path had one, as API Gateway's rawPath does (the help route redirects /v1 but not /v1/).
    if (slashStripped) headers[TRAILING_SLASH_HEADER] = '1';
    const onAnswer = (incoming: http.IncomingMessage): void => {
      const chunks: Buffer[] = [];
      incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
      incoming.once('error', (error: NodeJS.ErrnoException) => {
        fail(`the answer broke off: ${errorText(error)}`);
        resolve('failed');
      });
      incoming.once('end', () => {
        const out: http.OutgoingHttpHeaders = {};
        for (const [key, value] of Object.entries(incoming.headers))
          if (!HOP_BY_HOP.has(key) && !NOT_ANSWERED.has(key)) out[key] = value;
        const payload = Buffer.concat(chunks);
        // Answers without a body get no Content-Length rather than a false 0 (RFC 9110 §8.6): a HEAD's or a
        // 304's may only be the length of the 200 to a GET, which we do not know here; a 204 must have none.
        const status = incoming.statusCode ?? 502;
        if (request.method !== 'HEAD' && status !== 204 && status !== 304) {
          out['content-length'] = payload.byteLength;
        }
        resolve({ status, headers: out, body: payload });
      });
    };
    // The function may still run on (as a Lambda does after API Gateway gives up): the client gets its 504
    // now, the request to serverless-offline stays open, and `ended` (which frees the slot) waits for it.
    let outgoing: http.ClientRequest;
    const timer = setTimeout(() => resolve('timeout'), timeoutMs);
    const abandon = setTimeout(() => outgoing.destroy(), timeoutMs + ABANDON_AFTER_MS);
    const send = (mayResend: boolean): void => {
      outgoing = http.request(
        { host: upstream.hostname, port: upstream.port, method: request.method, path, headers, agent },
        onAnswer,
      );
      let resent = false;
      outgoing.once('error', (error: NodeJS.ErrnoException) => {
        // A kept-alive connection serverless-offline closed as idle just as this request went out on it (Node's
        // documented race, `reusedSocket`): sent once more on a new one. The likely cause of a 502 "could not be
        // invoked" a probe saw twice in ~200 requests, each ~6 s after the one before (its keep-alive timeout).
        if (mayResend && outgoing.reusedSocket && error.code === 'ECONNRESET') {
          resent = true;
          send(false);
          return;
        }
        fail(errorText(error));
        resolve('failed');
      });
      outgoing.once('close', () => {
        if (resent) return;
        clearTimeout(timer);
        clearTimeout(abandon);
        resolve('failed'); // no effect once answered: only a connection closed without an answer lands here
        endInvocation();
      });
      outgoing.end(body);
    };
    send(true);
  });
  return { answer, ended, failure: () => failure };
}

/** 'ECONNREFUSED: connect ECONNREFUSED 127.0.0.1:41234', or the message alone when there is no code. */
function errorText(error: NodeJS.ErrnoException): string {
  const message = error.message.slice(0, 200);
  return error.code && !message.includes(error.code) ? `${error.code}: ${message}` : message;
}

const ERROR_TYPE_KEY = Buffer.from('"errorType"');

/**
 * serverless-offline answers a thrown handler or a Lambda timeout itself, as a body shaped like Lambda's error
 * payload (`errorMessage`, `errorType`, `stackTrace`), often with status 200. Our handlers never answer that shape.
 */
export function offlineErrorOf(answer: Answer): 'timeout' | 'error' | null {
  // Every JSON answer starts with '{', so without the key's byte search each one was parsed in full: 0.076 ms of
  // the gateway's 0.95 ms per warm POST-100 (a CPU profile under load). A body that merely contains the key (a
  // dataset named so) is still parsed and judged by its shape.
  const record = jsonAnswerWith(answer, ERROR_TYPE_KEY, 256 * 1024);
  if (!record || typeof record.errorType !== 'string' || !('errorMessage' in record)) return null;
  return record.errorType === 'LambdaTimeoutError' || /\[504\]/.test(String(record.errorMessage))
    ? 'timeout'
    : 'error';
}

/** An answer's body parsed as a JSON object when it is one of at most `maxBytes` holding `key`, else null. */
function jsonAnswerWith(answer: Answer, key: Buffer, maxBytes: number): Record<string, unknown> | null {
  if (answer.body.byteLength > maxBytes || answer.body[0] !== 0x7b || !answer.body.includes(key)) return null;
  try {
    const parsed: unknown = JSON.parse(answer.body.toString('utf8'));
    return typeof parsed === 'object' && parsed !== null ? (parsed as Record<string, unknown>) : null;
  } catch {
    return null;
  }
}

const STATUS_CODE_KEY = Buffer.from('"statusCode"');

/**
 * The message of an answer serverless-offline's HTTP server (hapi) gave before any handler ran, in hapi's shape
 * `{"statusCode":400,"error":"Bad Request","message":…}` (a multipart body without a boundary), or null: every
 * error of this API is `{"status":…,"error":…}`, so clients get one shape.
 */
export function offlineRefusalOf(answer: Answer): string | null {
  if (answer.status < 400) return null;
  const record = jsonAnswerWith(answer, STATUS_CODE_KEY, 64 * 1024);
  if (!record || typeof record.statusCode !== 'number' || typeof record.message !== 'string') return null;
  if ('status' in record) return null;
  return record.message.slice(0, 200);
}

const CURRENT_ROUTE_KEY = Buffer.from('"currentRoute"');

/**
 * Whether the answer is serverless-offline's router's 404 (`{"currentRoute":…,"error":"Serverless-offline: route
 * not found.","existingRoutes":[…],"statusCode":404}`), which no handler gives: a path the gateway's matching let
 * through that serverless-offline's does not (the gateway's should be the stricter; this is the net under it).
 */
export function offlineRouteNotFound(answer: Answer): boolean {
  if (answer.status !== 404) return false;
  const record = jsonAnswerWith(answer, CURRENT_ROUTE_KEY, 64 * 1024);
  return record !== null && 'currentRoute' in record && 'existingRoutes' in record;
}

/**
 * The first `%` escape in a URL path that is not two hex digits (`%ZZ`), or the first run of escapes that is not
 * UTF-8 (`%FF`, `%C3` alone: hapi answered those "Bad Request" and no more), or null.
 */
export function invalidPercentEscape(path: string): string | null {
  const match = /%(?![0-9a-fA-F]{2}).{0,2}/s.exec(path);
  if (match) return match[0];
  for (const run of path.match(/(?:%[0-9a-fA-F]{2})+/g) ?? []) {
    try {
      decodeURIComponent(run);
    } catch {
      return run.slice(0, 24);
    }
  }
  return null;
}

function headerBytes(request: http.IncomingMessage): number {
  let total = 0;
  for (const part of request.rawHeaders) total += Buffer.byteLength(part) + 2;
  return total;
}

/**
 * The body, or null as soon as it passes `limit` (a chunked 512 MiB upload was read to its end before its 413):
 * the rest is read and dropped, and the 413's connection closes (see LINGER_MS).
 */
function readBody(request: http.IncomingMessage, limit: number): Promise<Buffer | null> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size <= limit) return void chunks.push(chunk);
      request.off('data', onData);
      request.resume();
      resolve(null);
    };
    request.on('data', onData);
    request.once('end', () => resolve(Buffer.concat(chunks))); // no effect once over the limit
    request.once('error', reject);
  });
}

/** How long a client may go on sending a body refused as too large, after its 413, before the connection is cut. */
const LINGER_MS = 2000;

/**
 * The correlation id of an answer the gateway gives itself (the handlers' answers carry the function's): the
 * header every answer has, so a client can name a refused request too. API Gateway's ids are random, so is this.
 */
export function gatewayRequestId(): string {
  return `gw-${randomUUID()}`;
}

/** An answer the gateway gave itself, for its access-log line. */
interface OwnAnswer {
  requestId: string;
  /** null: none was sent (the client had gone). */
  status: number | null;
  length: number;
  error: string;
}

/** A JSON answer the gateway gives itself: its body, the headers every such answer has, and its log fields. */
function ownAnswer(
  status: number,
  kind: string,
  error: string,
): { text: string; headers: Record<string, string | number>; logged: OwnAnswer } {
  const text = JSON.stringify({ status: kind, error });
  const requestId = gatewayRequestId();
  const length = Buffer.byteLength(text);
  const headers = { 'content-type': 'application/json', 'content-length': length, 'x-request-id': requestId };
  return { text, headers, logged: { requestId, status, length, error } };
}

function writeJson(
  response: http.ServerResponse,
  status: number,
  kind: string,
  error: string,
  headers: http.OutgoingHttpHeaders,
): OwnAnswer {
  const answer = ownAnswer(status, kind, error);
  response.writeHead(status, { ...headers, ...answer.headers });
  response.end(answer.text);
  return answer.logged;
}

/** A JSON answer written straight to a socket the HTTP parser gave up on, then closed. */
function writeRawJson(socket: Socket, status: number, kind: string, error: string): OwnAnswer {
  const answer = ownAnswer(status, kind, error);
  const fields = Object.entries({ ...answer.headers, connection: 'close' }).map(
    ([name, v]) => `${name}: ${v}\r\n`,
  );
  socket.end(`HTTP/1.1 ${status} ${http.STATUS_CODES[status]}\r\n${fields.join('')}\r\n${answer.text}`);
  return answer.logged;
}

/**
 * An access-log line with serverless.yml's `logs.httpApi.format` keys, values as API Gateway writes them (all
 * strings, `-` for none; requestTime in its CLF form): the same query finds a refused request locally and in AWS.
 * integrationError holds the gateway's own message: no integration ran.
 */
export function accessLine(fields: {
  requestId: string;
  ip: string;
  method: string;
  routeKey: string;
  status: number | null;
  responseLength: number;
  error: string;
  userAgent: string;
  at?: Date;
}): string {
  const at = fields.at ?? new Date();
  // toUTCString: 'Mon, 07 Dec 2026 04:38:53 GMT' (fixed-width day and time, English month names).
  const [, day, month, year, time] = at.toUTCString().split(' ');
  const requestTime = `${day}/${month}/${year}:${time} +0000`;
  return JSON.stringify({
    requestId: fields.requestId,
    ip: fields.ip,
    requestTime,
    method: fields.method,
    routeKey: fields.routeKey,
    status: fields.status === null ? '-' : String(fields.status),
    responseLength: String(fields.responseLength),
    integrationLatency: '-',
    integrationStatus: '-',
    integrationError: fields.error,
    userAgent: fields.userAgent.slice(0, 256),
  });
}

/**
 * What a 429 for a full queue tells the client: a full queue of LOCAL_QUEUE (1,000) drains in seconds, and retrying
 * clients (retry-axios, urllib3's Retry) wait this long instead of their own backoff, often shorter.
 */
const QUEUE_FULL_RETRY_AFTER_S = 2;

/** What a 503 answered while serverless-offline starts tells the client (it starts in ~10-15 s here). */
const STARTING_RETRY_AFTER_S = 5;

/**
 * `wait(ms)`: true once the upstream is up (at once when it is, or when no readiness was given), false if it is
 * not up within ms. A failed start counts as up: the request then goes through and fails as any unreachable
 * invocation does (502), rather than waiting.
 */
function upstreamWatch(ready: Promise<void> | undefined): (ms: number) => Promise<boolean> {
  let up = ready === undefined;
  const settled = (ready ?? Promise.resolve()).then(
    () => void (up = true),
    () => void (up = true),
  );
  return async (ms) => {
    if (up) return true;
    let timer: NodeJS.Timeout | undefined;
    const late = new Promise<void>((resolve) => (timer = setTimeout(resolve, Math.max(0, ms))));
    await Promise.race([settled, late]);
    clearTimeout(timer);
    return up;
  };
}
