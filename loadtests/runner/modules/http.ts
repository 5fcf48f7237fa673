/**
 * k6/http over undici: one keep-alive Pool per origin; every request records k6's http_* metrics with
 * k6's tags. Only the asynchronous API is offered: a synchronous request would block every VU on this
 * event loop. `await http.asyncRequest(...)` runs unchanged under k6.
 */
import { Pool } from 'undici';
import type { KeyedTags } from '../metrics/tag-cache.ts';
import type { Runtime } from '../runtime.ts';
import { TargetGuard } from '../target-guard.ts';
import { exchange } from './http-transport.ts';
import { K6Response, type Timings } from './response.ts';

type Body = string | ArrayBuffer | Uint8Array | Record<string, unknown> | null | undefined;
interface Params {
  headers?: Record<string, string>;
  tags?: Record<string, string>;
  timeout?: string | number;
  responseType?: 'text' | 'binary' | 'none';
  responseCallback?: ExpectedStatuses | null;
}
interface ExpectedStatuses {
  readonly ranges: { min: number; max: number }[];
}

const URL_PARTS = /^(https?:\/\/[^/?#]+)([^#]*)/i;
const USER_AGENT = 'elevation-loadtest-runner';
const DEFAULT_EXPECTED: ExpectedStatuses = { ranges: [{ min: 200, max: 399 }] };
const SYNC_UNSUPPORTED =
  'this runner runs all VUs on one event loop, so HTTP calls must be asynchronous: ' +
  'use `await http.asyncRequest(method, url, body, params)` (k6 runs that unchanged too)';

function encodeBody(body: Body, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof Uint8Array) return body;
  // k6 form-encodes a plain object body.
  headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return new URLSearchParams(body as Record<string, string>).toString();
}

function timeoutMs(value: string | number | undefined): number {
  if (value === undefined) return 60_000;
  if (typeof value === 'number') return value;
  const m = /^(\d+(?:\.\d+)?)(ms|s|m)$/.exec(value);
  if (!m) throw new Error(`invalid timeout "${value}"`);
  return Number(m[1]) * ({ ms: 1, s: 1000, m: 60_000 } as Record<string, number>)[m[2]];
}

function byteLength(body: string | Uint8Array | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

export function createHttpModule(runtime: Runtime) {
  const pools = new Map<string, Pool>();
  const guard = new TargetGuard(runtime.allowRemote);
  let defaultCallback: ExpectedStatuses | null = DEFAULT_EXPECTED;
  const m = runtime.builtins;

  function poolFor(origin: string): Pool {
    let pool = pools.get(origin);
    if (!pool) {
      pool = new Pool(origin, { keepAliveTimeout: 60_000, pipelining: 1 });
      pools.set(origin, pool);
    }
    return pool;
  }

  function recordRequest(
    keyed: KeyedTags,
    t: Timings,
    failed: boolean | undefined,
    sent: number,
    received: number,
  ) {
    const { tags, key } = keyed;
    runtime.record(m.http_reqs, 1, tags, key);
    runtime.record(m.http_req_duration, t.duration, tags, key);
    runtime.record(m.http_req_blocked, t.blocked, tags, key);
    runtime.record(m.http_req_connecting, t.connecting, tags, key);
    runtime.record(m.http_req_tls_handshaking, 0, tags, key);
    runtime.record(m.http_req_sending, t.sending, tags, key);
    runtime.record(m.http_req_waiting, t.waiting, tags, key);
    runtime.record(m.http_req_receiving, t.receiving, tags, key);
    if (failed !== undefined) runtime.record(m.http_req_failed, failed ? 1 : 0, tags, key);
    const base = runtime.tagsFor('');
    runtime.record(m.data_sent, sent, base.tags, base.key);
    runtime.record(m.data_received, received, base.tags, base.key);
  }

  /** Signature of the caller's extra tags (besides `name`), usually empty. */
  function extraSignature(tags: Record<string, string> | undefined): string {
    if (!tags) return '';
    let sig = '';
    for (const k in tags) if (k !== 'name') sig += `${k}\u0004${tags[k]}\u0005`;
    return sig;
  }

  async function asyncRequest(method: string, url: string, body?: Body, params: Params = {}) {
    const parts = URL_PARTS.exec(url);
    if (!parts) throw new Error(`invalid URL "${url}"`);
    const [, origin, pathAndQuery] = parts;
    guard.check(origin);
    const headers: Record<string, string> = { 'user-agent': USER_AGENT, ...params.headers };
    const payload = encodeBody(body, headers);
    const callback = params.responseCallback === undefined ? defaultCallback : params.responseCallback;
    // URL grouping: with a `name` tag, the url tag carries the name too, so random coordinates
    // never become separate series (k6's http.url template gives the same effect).
    const name = params.tags?.name ?? url;
    const verb = method.toUpperCase();
    const start = performance.now();
    let headersAt = start;
    let status = 0;
    let text = '';
    let error = '';
    let errorCode = 0;
    let received = 0;
    let rawHeaders: Buffer[] = [];
    try {
      const res = await exchange(poolFor(origin), {
        method: verb,
        path: pathAndQuery || '/',
        headers,
        body: payload,
        timeoutMs: timeoutMs(params.timeout),
        discardBody: params.responseType === 'none',
      });
      headersAt = res.headersAt;
      status = res.status;
      text = res.body;
      received = res.bytesReceived;
      rawHeaders = res.rawHeaders;
    } catch (err) {
      error = (err as Error).message;
      errorCode = /timeout/i.test(error) ? 1050 : 1000;
    }
    const end = performance.now();
    const timings: Timings = {
      duration: end - start,
      blocked: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: headersAt - start,
      receiving: end - headersAt,
    };
    const failed = callback ? !callback.ranges.some((r) => status >= r.min && status <= r.max) : undefined;
    const signature = `${name}\u0001${verb}\u0001${status}\u0001${failed}\u0001${errorCode}\u0001${extraSignature(params.tags)}`;
    const keyed = runtime.tagsFor(signature, () => ({
      ...params.tags,
      name,
      url: name,
      method: verb,
      status: String(status),
      proto: 'HTTP/1.1',
      ...(failed === undefined ? {} : { expected_response: String(!failed) }),
      ...(errorCode ? { error_code: String(errorCode) } : {}),
    }));
    const sent = 20 + pathAndQuery.length + byteLength(payload);
    recordRequest(keyed, timings, failed, sent, received);
    return new K6Response(url, verb, status, text, rawHeaders, timings, error, errorCode);
  }

  const syncUnsupported = (): never => {
    throw new Error(SYNC_UNSUPPORTED);
  };

  return {
    asyncRequest,
    request: syncUnsupported,
    get: syncUnsupported,
    post: syncUnsupported,
    put: syncUnsupported,
    del: syncUnsupported,
    patch: syncUnsupported,
    head: syncUnsupported,
    options: syncUnsupported,
    batch: syncUnsupported,
    expectedStatuses(...specs: (number | { min: number; max: number })[]): ExpectedStatuses {
      return { ranges: specs.map((s) => (typeof s === 'number' ? { min: s, max: s } : s)) };
    },
    setResponseCallback(callback: ExpectedStatuses | null): void {
      defaultCallback = callback;
    },
    close: async (): Promise<void> => {
      await Promise.all([...pools.values()].map((p) => p.destroy()));
      pools.clear();
    },
  };
}
