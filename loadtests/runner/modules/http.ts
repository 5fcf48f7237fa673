/**
 * k6/http: the synchronous API k6 scripts use (`http.get` & co., `http.request`, `http.batch`), which
 * blocks this VU's thread while the engine's thread performs the exchange, and `http.asyncRequest`,
 * which this VU performs on its own keep-alive connections. Every request records k6's http_* metrics
 * with k6's tags.
 */
import { createHash, randomBytes } from 'node:crypto';
import zlib from 'node:zlib';
import { parseDuration } from '../duration.ts';
import type { KeyedTags } from '../metrics/tag-cache.ts';
import { blacklistedRange, blockedPattern, checkOptions, hostAddress } from '../options.ts';
import type { Runtime } from '../runtime.ts';
import { bareHost, TargetGuard } from '../target-guard.ts';
import { writeStderr } from '../vu/stderr.ts';
import { K6CookieJar, type RequestCookie, type ResponseCookie } from './cookies.ts';
import type { BatchLimits, WireRequest, WireResponse } from './http-transport.ts';
import { K6Response, type Timings } from './response.ts';

/** How this runtime's requests reach the network. */
export interface HttpIo {
  /** Blocks until every request has its response (answers in order); `limits` for an http.batch() call. */
  sync(requests: WireRequest[], limits?: BatchLimits): WireResponse[];
  async(request: WireRequest): Promise<WireResponse>;
}

type Body = string | ArrayBuffer | Uint8Array | Record<string, unknown> | null | undefined;
interface Params {
  headers?: Record<string, unknown>;
  tags?: Record<string, string>;
  timeout?: string | number;
  responseType?: 'text' | 'binary' | 'none';
  responseCallback?: ExpectedStatuses | null;
  redirects?: number;
  /** Request-scoped cookies (not stored in the jar). */
  cookies?: Record<string, RequestCookie>;
  /** The jar to use instead of the VU's. */
  jar?: K6CookieJar;
  /** 'basic' (credentials in the URL, as without it) or 'digest' (answers the server's challenge); 'ntlm' is refused. */
  auth?: string;
  /** Compress the body: gzip, deflate, br (zstd where node:zlib has it), or a comma-separated stack. */
  compression?: string;
}
interface ExpectedStatuses {
  readonly ranges: { min: number; max: number }[];
}
type BatchItem =
  string | [string, string, Body?, Params?] | { method: string; url: string; body?: Body; params?: Params };

interface UrlTemplate {
  readonly url: string;
  readonly name: string;
  toString(): string;
}

/** scheme://, userinfo@ (optional), host[:port], then path and query (the fragment is not sent). */
const URL_PARTS = /^(https?:\/\/)(?:([^/?#@]*)@)?([^/?#]+)([^#]*)/i;
/** k6's default `maxRedirects`. */
const DEFAULT_MAX_REDIRECTS = 10;
const DEFAULT_EXPECTED: ExpectedStatuses = { ranges: [{ min: 200, max: 399 }] };

/** k6's http.file(): a part of a multipart body. */
export class FileData {
  constructor(
    readonly data: string | ArrayBuffer,
    readonly filename: string,
    readonly content_type: string,
  ) {}
}

/** http.file(data, filename?, contentType?) with k6's defaults (a timestamp name, octet-stream). */
function file(data: unknown, filename?: string, contentType?: string): FileData {
  if (typeof data !== 'string' && !(data instanceof ArrayBuffer))
    throw new Error(`invalid type ${typeof data}, expected string or ArrayBuffer`);
  return new FileData(
    data,
    filename ?? String(process.hrtime.bigint()),
    contentType ?? 'application/octet-stream',
  );
}

/** RFC 7578 multipart/form-data, as Go's mime/multipart (so k6) writes it for a body with a file. */
function multipart(fields: Record<string, unknown>, headers: Record<string, string>): Uint8Array {
  const boundary = randomBytes(30).toString('hex');
  const quote = (text: string) => text.replace(/\\/g, '\\\\').replace(/"/g, '\\"');
  const chunks: Buffer[] = [];
  for (const [name, value] of Object.entries(fields)) {
    let head = `--${boundary}\r\nContent-Disposition: form-data; name="${quote(name)}"`;
    let data: Buffer;
    if (value instanceof FileData) {
      head += `; filename="${quote(value.filename)}"\r\nContent-Type: ${value.content_type}`;
      data = typeof value.data === 'string' ? Buffer.from(value.data) : Buffer.from(value.data);
    } else data = Buffer.from(String(value));
    chunks.push(Buffer.from(`${head}\r\n\r\n`), data, Buffer.from('\r\n'));
  }
  chunks.push(Buffer.from(`--${boundary}--\r\n`));
  headers['content-type'] = `multipart/form-data; boundary=${boundary}`;
  return Buffer.concat(chunks);
}

function encodeBody(body: Body, headers: Record<string, string>): string | Uint8Array | undefined {
  if (body === null || body === undefined) return undefined;
  if (typeof body === 'string') return body;
  if (body instanceof ArrayBuffer) return new Uint8Array(body);
  if (body instanceof Uint8Array) return body;
  // k6 sends an object with an http.file() value as multipart/form-data, any other object form-encoded.
  if (Object.values(body).some((v) => v instanceof FileData)) return multipart(body, headers);
  headers['content-type'] ??= 'application/x-www-form-urlencoded';
  return new URLSearchParams(body as Record<string, string>).toString();
}

/** k6's request timeout: a number of milliseconds or a Go duration ("90s", "1m30s"); 60 s by default. */
function timeoutMs(value: string | number | undefined): number {
  if (value === undefined) return 60_000;
  try {
    return parseDuration(value);
  } catch {
    throw new Error(`invalid timeout "${value}" (use e.g. "30s", "1m30s" or a number of milliseconds)`);
  }
}

/**
 * The request's headers: the default User-Agent, then the script's, with names compared without case
 * as HTTP (and Go's header map, so k6) does: `User-Agent` given by the script replaces the default
 * instead of going out as a second header.
 */
function requestHeaders(
  userAgent: string,
  given: Record<string, unknown> | undefined,
): Record<string, string> {
  const headers: Record<string, string> = userAgent ? { 'user-agent': userAgent } : {};
  for (const name in given) headers[name.toLowerCase()] = String(given[name]);
  return headers;
}

type Compress = (data: Buffer) => Buffer;
/** k6's `compression` algorithms ('deflate' is zlib-wrapped, as Go's compress/zlib writes it). */
const COMPRESSORS: Record<string, Compress | undefined> = {
  gzip: (d) => zlib.gzipSync(d),
  deflate: (d) => zlib.deflateSync(d),
  br: (d) => zlib.brotliCompressSync(d),
  // node:zlib has zstd from Node 22.15 on.
  zstd: (zlib as unknown as { zstdCompressSync?: Compress }).zstdCompressSync,
};

/** The body compressed as `compression` says, in order, with the Content-Encoding it gets. */
function compress(
  body: string | Uint8Array | undefined,
  compression: string,
): { body: Uint8Array; encoding: string } {
  const algorithms = compression.split(',').map((a) => a.trim());
  let data: Buffer = Buffer.from(body ?? '');
  for (const algorithm of algorithms) {
    const fn = COMPRESSORS[algorithm];
    if (!fn)
      throw new Error(
        algorithm in COMPRESSORS
          ? `compression "${algorithm}" needs Node 22.15 or later (node:zlib has no zstd before)`
          : `unknown compression algorithm "${algorithm}" (use gzip, deflate, br or zstd)`,
      );
    data = fn(data);
  }
  return { body: data, encoding: algorithms.join(', ') };
}

/** A Digest challenge's parameters (RFC 7616): `realm="x", nonce="y", qop="auth"` → { realm: 'x', … }. */
function challengeParams(header: string): Record<string, string> {
  const params: Record<string, string> = {};
  for (const m of header
    .replace(/^\s*Digest\s+/i, '')
    .matchAll(/([\w-]+)=(?:"((?:[^"\\]|\\.)*)"|([^,\s]*))/g))
    params[m[1].toLowerCase()] = m[2] !== undefined ? m[2].replace(/\\(.)/g, '$1') : m[3];
  return params;
}

const DIGEST_HASHES: Record<string, string> = {
  MD5: 'md5',
  'SHA-256': 'sha256',
  'SHA-512-256': 'sha512-256',
};

/**
 * The Authorization header answering a Digest challenge (RFC 7616: MD5, SHA-256, SHA-512-256 and their
 * -sess forms; qop auth or auth-int, or none as RFC 2069), as k6's digest transport sends it; undefined
 * for an algorithm it does not know (the 401 then stands, as in k6).
 */
function digestAuthorization(
  challenge: string,
  user: string,
  password: string,
  method: string,
  uri: string,
  body: string | Uint8Array | undefined,
): string | undefined {
  const c = challengeParams(challenge);
  const algorithm = c.algorithm ?? 'MD5';
  const session = /-sess$/i.test(algorithm);
  const hashName = DIGEST_HASHES[algorithm.replace(/-sess$/i, '').toUpperCase()];
  if (!hashName || c.nonce === undefined) return undefined;
  const h = (text: string | Uint8Array) => createHash(hashName).update(text).digest('hex');
  const qops = (c.qop ?? '').split(',').map((q) => q.trim());
  const qop = qops.includes('auth') ? 'auth' : qops.includes('auth-int') ? 'auth-int' : undefined;
  const cnonce = randomBytes(8).toString('hex');
  const nc = '00000001';
  let ha1 = h(`${user}:${c.realm ?? ''}:${password}`);
  if (session) ha1 = h(`${ha1}:${c.nonce}:${cnonce}`);
  const ha2 = qop === 'auth-int' ? h(`${method}:${uri}:${h(body ?? '')}`) : h(`${method}:${uri}`);
  const response = qop ? h(`${ha1}:${c.nonce}:${nc}:${cnonce}:${qop}:${ha2}`) : h(`${ha1}:${c.nonce}:${ha2}`);
  const fields = [
    `username="${user}"`,
    `realm="${c.realm ?? ''}"`,
    `nonce="${c.nonce}"`,
    `uri="${uri}"`,
    `algorithm=${algorithm}`,
    `response="${response}"`,
    ...(qop ? [`qop=${qop}`, `nc=${nc}`, `cnonce="${cnonce}"`] : []),
    ...(c.opaque !== undefined ? [`opaque="${c.opaque}"`] : []),
  ];
  return `Digest ${fields.join(', ')}`;
}

/** A binary body as the ArrayBuffer k6 gives (its own bytes only, not a larger buffer it may view). */
function arrayBufferOf(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}

function byteLength(body: string | Uint8Array | undefined): number {
  if (body === undefined) return 0;
  return typeof body === 'string' ? Buffer.byteLength(body) : body.byteLength;
}

/**
 * The bytes a request puts on the wire, as undici writes it (k6 counts what it writes for data_sent):
 * the request line, Host and Connection, the script's headers, Content-Length with a body, the body.
 */
function wireBytes(wire: WireRequest, keepAlive: boolean): number {
  let n = wire.method.length + wire.path.length + 12; // "GET /p HTTP/1.1\r\n"
  const headers = wire.headers;
  if (headers.host === undefined) n += 8 + wire.origin.replace(/^[a-z]+:\/\//i, '').length; // "host: …\r\n"
  n += keepAlive ? 24 : 19; // "connection: keep-alive\r\n" or "connection: close\r\n"
  // Header text goes out as latin1, a byte per character (as node:http writes it too).
  for (const name in headers) n += name.length + headers[name].length + 4;
  const body = byteLength(wire.body);
  if (wire.body !== undefined) n += 18 + String(body).length; // "content-length: N\r\n"
  return n + 2 + body;
}

/**
 * k6's error codes for failed requests (1000 generic, 1050 timeout, 1110 blacklisted IP, 1111 blocked
 * host name, 1212 connection refused).
 */
function errorCodeOf(error: string): number {
  if (/ is in a blacklisted range /.test(error)) return 1110;
  if (/ is in a blocked pattern /.test(error)) return 1111;
  if (/timeout/i.test(error)) return 1050;
  if (/ECONNREFUSED/.test(error)) return 1212;
  return 1000;
}

interface Prepared {
  wire: WireRequest;
  url: string;
  verb: string;
  params: Params;
  /** The jar the request's cookies came from and the response's go to. */
  jar: K6CookieJar;
  /** What the request puts on the wire (data_sent). */
  sentBytes: number;
  /** auth: 'digest': the URL's credentials, and whether this request already answers the challenge. */
  digest?: { user: string; password: string; answered: boolean };
  /** Why it is not sent (blockHostnames, blacklistIPs): it fails with this error. */
  refused?: string;
}

interface Route {
  origin: string;
  /** The Host header when `hosts` sends the request elsewhere. */
  host?: string;
  refused?: string;
}

/** The answer to a request that is never sent. */
function unsent(error: string): WireResponse {
  return { status: 0, headers: [], body: '', bytesReceived: 0, waiting: 0, receiving: 0, duration: 0, error };
}

export function createHttpModule(runtime: Runtime, io: HttpIo) {
  const guard = new TargetGuard(runtime.allowRemote);
  // The engine has checked the options (exit 104 on a wrong type) before any VU starts.
  const settings = checkOptions(runtime.options).settings;
  const batchLimits: BatchLimits = { batch: settings.batch, batchPerHost: settings.batchPerHost };
  let defaultCallback: ExpectedStatuses | null = DEFAULT_EXPECTED;
  const m = runtime.builtins;
  /** Where an origin's requests go: the origin itself, or the address `hosts` maps its host to. */
  const routes = new Map<string, Route>();

  function routeOf(origin: string): Route {
    let route = routes.get(origin);
    if (!route) {
      const u = new URL(origin);
      const port = u.port || (u.protocol === 'https:' ? '443' : '80');
      const to = hostAddress(settings.hosts, u.hostname, port);
      // The URL (its metrics, its Host header) stays as written; the connection goes to the address.
      route = to
        ? {
            origin: `${u.protocol}//${to.address.includes(':') ? `[${to.address}]` : to.address}:${to.port ?? port}`,
            host: u.host,
          }
        : { origin };
      const refused = refusal(u.hostname, to?.address ?? u.hostname);
      if (refused) route.refused = refused;
      routes.set(origin, route);
    }
    return route;
  }

  /**
   * Why k6 would not connect (its dialer's checks): the name is in `blockHostnames` (checked before
   * `hosts`), or the address, an IP in the URL or from `hosts`, is in `blacklistIPs`; a name the system
   * resolves is checked by the transport when it connects.
   */
  function refusal(hostname: string, address: string): string | undefined {
    const pattern = blockedPattern(settings.blockHostnames, hostname);
    if (pattern !== undefined) return `hostname (${hostname}) is in a blocked pattern (${pattern})`;
    const range = blacklistedRange(settings.blacklistIPs, address);
    if (range !== undefined) return `IP (${bareHost(address)}) is in a blacklisted range (${range})`;
    return undefined;
  }

  function prepare(method: string, target: string | UrlTemplate, body: Body, given: Params = {}): Prepared {
    // http.url`…${id}`: the template (with ${}) becomes the name tag, so ids do not split series.
    // A URL object (WHATWG `URL`, jslib's url) is its string, as in k6.
    const template =
      typeof target === 'object' && target !== null && typeof target.url === 'string' ? target : undefined;
    const url = template ? template.url : String(target);
    const params =
      template?.name && !given.tags?.name
        ? { ...given, tags: { ...given.tags, name: template.name } }
        : given;
    if (runtime.inInit)
      throw new Error('Making http requests in the init context is not supported (k6 refuses it too)');
    const parts = URL_PARTS.exec(String(url));
    if (!parts) throw new Error(`invalid URL "${url}"`);
    const [, scheme, userinfo, host, pathAndQuery] = parts;
    const route = routeOf(scheme + host);
    // The target guard checks where the load goes, so `hosts` can point a public name at loopback; a
    // request k6 would refuse to send fails first, as in k6.
    if (!route.refused) guard.check(route.origin);
    const headers = requestHeaders(settings.userAgent, params.headers);
    if (route.host) headers.host ??= route.host;
    if (params.auth !== undefined && params.auth !== 'basic' && params.auth !== 'digest')
      throw new Error(
        `auth "${params.auth}" is not supported by this runner (basic and digest are: credentials in the URL)`,
      );
    const colon = userinfo?.indexOf(':') ?? -1;
    const [user, password] = (
      userinfo === undefined
        ? ['', '']
        : colon < 0
          ? [userinfo, '']
          : [userinfo.slice(0, colon), userinfo.slice(colon + 1)]
    ).map((p) => decodeURIComponent(p));
    // Credentials in the URL are Basic authentication, as Go's client (so k6) sends them; with
    // auth: 'digest' the first request goes without them and the server's challenge is answered.
    if (userinfo !== undefined && headers.authorization === undefined && params.auth !== 'digest')
      headers.authorization = `Basic ${Buffer.from(`${user}:${password}`).toString('base64')}`;
    const jar = params.jar ?? (runtime.cookieJar ??= new K6CookieJar());
    const plainUrl = scheme + host + pathAndQuery;
    const cookie = jar.header(plainUrl, params.cookies);
    if (cookie) headers.cookie = headers.cookie ? `${headers.cookie}; ${cookie}` : cookie;
    const verb = method.toUpperCase();
    // discardResponseBodies makes 'none' the default; a request's own responseType wins, as in k6.
    const responseType = params.responseType ?? (settings.discardResponseBodies ? 'none' : 'text');
    let encoded = encodeBody(body, headers);
    if (params.compression) {
      const compressed = compress(encoded, params.compression);
      encoded = compressed.body;
      headers['content-encoding'] = compressed.encoding;
    }
    const wire: WireRequest = {
      method: verb,
      origin: route.origin,
      path: pathAndQuery || '/',
      headers,
      body: encoded,
      timeoutMs: timeoutMs(params.timeout),
      discardBody: responseType === 'none',
      binaryBody: responseType === 'binary',
    };
    return {
      wire,
      url: String(url),
      verb,
      params,
      jar,
      sentBytes: route.refused ? 0 : wireBytes(wire, !settings.noConnectionReuse),
      ...(params.auth === 'digest' ? { digest: { user, password, answered: false } } : {}),
      ...(route.refused ? { refused: route.refused } : {}),
    };
  }

  /** Signature of the caller's extra tags (besides `name`), usually empty. */
  function extraSignature(tags: Record<string, string> | undefined): string {
    if (!tags) return '';
    let sig = '';
    for (const k in tags) if (k !== 'name') sig += `${k}\u0004${tags[k]}\u0005`;
    return sig;
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

  function complete(p: Prepared, res: WireResponse): K6Response {
    const { params, verb, url } = p;
    const callback = params.responseCallback === undefined ? defaultCallback : params.responseCallback;
    // URL grouping: with a `name` tag, the url tag carries the name too, so random coordinates
    // never become separate series (k6's http.url template gives the same effect).
    const name = params.tags?.name ?? url;
    const status = res.error ? 0 : res.status;
    const errorCode = res.error ? errorCodeOf(res.error) : 0;
    const timings: Timings = {
      duration: res.duration,
      blocked: 0,
      connecting: 0,
      tls_handshaking: 0,
      sending: 0,
      waiting: res.waiting,
      receiving: res.receiving,
    };
    // auth: 'digest' expects a 401 challenge first; k6 does not count it as failed.
    const challenged = p.digest !== undefined && !p.digest.answered && status === 401;
    const failed = callback
      ? !challenged && !callback.ranges.some((r) => status >= r.min && status <= r.max)
      : undefined;
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
    recordRequest(keyed, timings, failed, p.sentBytes, res.bytesReceived);
    if (res.error) {
      // The `throw` option: a failed request is an exception (its metrics are recorded first, as in k6).
      if (settings.throw) throw new Error(`${verb} ${url}: ${res.error}`);
      writeStderr(
        `WARN[${Math.round(runtime.elapsedMs() / 1000)}] Request Failed error="${verb} ${url}: ${res.error}"\n`,
      );
    }
    const body = p.wire.discardBody
      ? null
      : typeof res.body === 'string'
        ? res.body
        : arrayBufferOf(res.body);
    const setCookies: string[] = [];
    for (let i = 0; i + 1 < res.headers.length; i += 2)
      if (res.headers[i].toLowerCase() === 'set-cookie') setCookies.push(res.headers[i + 1]);
    const cookies: Record<string, ResponseCookie[]> = setCookies.length
      ? p.jar.store(url.replace(/^(https?:\/\/)[^/?#@]*@/i, '$1'), setCookies)
      : {};
    return new K6Response(url, verb, status, body, res.headers, timings, res.error ?? '', errorCode, {
      statusText: res.statusText ?? '',
      cookies,
      requestHeaders: p.wire.headers,
      requestBody: p.wire.body,
      send: (method, target, body, params) => request(method, target, body as Body, (params ?? {}) as Params),
    });
  }

  /** k6's http.url tagged template: a URL whose name tag is the template itself. */
  function urlTemplate(strings: TemplateStringsArray, ...values: unknown[]): UrlTemplate {
    const url = strings.reduce(
      (out, part, i) => out + part + (i < values.length ? String(values[i]) : ''),
      '',
    );
    return { url, name: strings.join('${}'), toString: () => url };
  }

  /**
   * The request a redirect asks for, as Go's client (and so k6) follows it: 307/308 keep method and
   * body, 301/302/303 become GET; undefined when the answer is no redirect or no hops are left.
   */
  /**
   * `p` again (a redirect, a Digest answer): with its body as sent, so neither compressed again nor
   * without the Content-Type/Content-Encoding it was sent with (a form or multipart body is encoded
   * once), or without a body.
   */
  function resend(p: Prepared, method: string, url: string, keepBody: boolean): Prepared {
    const params: Params = { ...p.params, compression: undefined };
    if (!keepBody) return prepare(method, url, null, params);
    const sent: Record<string, string> = {};
    for (const name of ['content-type', 'content-encoding'])
      if (p.wire.headers[name] !== undefined) sent[name] = p.wire.headers[name];
    return prepare(method, url, p.wire.body as Body, {
      ...params,
      headers: { ...p.params.headers, ...sent },
    });
  }

  function redirectOf(p: Prepared, res: K6Response, hop: number): Prepared | undefined {
    if (![301, 302, 303, 307, 308].includes(res.status)) return undefined;
    const limit =
      p.params.redirects ?? (runtime.options.maxRedirects as number | undefined) ?? DEFAULT_MAX_REDIRECTS;
    const location = res.headers.Location;
    if (!location || hop >= limit) return undefined;
    const keep = res.status === 307 || res.status === 308;
    const method = keep || p.verb === 'HEAD' ? p.verb : 'GET';
    return resend(p, method, new URL(location, p.url).href, keep);
  }

  /**
   * The request that follows an answer: the same request with the Digest challenge answered (once), or
   * the redirect (counting `hops.redirects` against the limit); undefined when the answer stands.
   */
  function followUp(p: Prepared, res: K6Response, hops: { redirects: number }): Prepared | undefined {
    if (p.digest && !p.digest.answered && res.status === 401) {
      const challenge = res.headers['Www-Authenticate'];
      const authorization =
        challenge && /^\s*Digest\s/i.test(challenge)
          ? digestAuthorization(challenge, p.digest.user, p.digest.password, p.verb, p.wire.path, p.wire.body)
          : undefined;
      if (authorization) {
        const next = resend(p, p.verb, p.url, true);
        next.wire.headers.authorization = authorization;
        next.sentBytes = wireBytes(next.wire, !settings.noConnectionReuse);
        next.digest = { ...p.digest, answered: true };
        return next;
      }
    }
    const next = redirectOf(p, res, hops.redirects);
    if (next) hops.redirects++;
    return next;
  }

  /** The answers to `ps`, in order: those refused unsent, the others exchanged in one synchronous call. */
  function exchangeSync(ps: Prepared[], limits?: BatchLimits): WireResponse[] {
    const sent = ps.filter((p) => !p.refused);
    const answers = sent.length
      ? io.sync(
          sent.map((p) => p.wire),
          limits,
        )
      : [];
    let next = 0;
    return ps.map((p) => (p.refused ? unsent(p.refused) : answers[next++]));
  }

  function request(method: string, url: string | UrlTemplate, body?: Body, params?: Params): K6Response {
    let p = prepare(method, url, body, params);
    let res = complete(p, exchangeSync([p])[0]);
    const hops = { redirects: 0 };
    for (let next = followUp(p, res, hops); next; next = followUp(p, res, hops)) {
      p = next;
      res = complete(p, exchangeSync([p])[0]);
    }
    return res;
  }

  async function asyncRequest(
    method: string,
    url: string | UrlTemplate,
    body?: Body,
    params?: Params,
  ): Promise<K6Response> {
    const send = (q: Prepared) => (q.refused ? Promise.resolve(unsent(q.refused)) : io.async(q.wire));
    let p = prepare(method, url, body, params);
    let res = complete(p, await send(p));
    const hops = { redirects: 0 };
    for (let next = followUp(p, res, hops); next; next = followUp(p, res, hops)) {
      p = next;
      res = complete(p, await send(p));
    }
    return res;
  }

  function batchItem(item: BatchItem): Prepared {
    if (typeof item === 'string') return prepare('GET', item, null);
    if (Array.isArray(item)) return prepare(item[0], item[1], item[2], item[3]);
    return prepare(item.method, item.url, item.body, item.params);
  }

  /** Parallel requests; an array in, an array of responses out (an object in, an object out), as in k6. */
  function batch(items: BatchItem[] | Record<string, BatchItem>): K6Response[] | Record<string, K6Response> {
    const keys = Array.isArray(items) ? null : Object.keys(items);
    const list = Array.isArray(items) ? items : Object.values(items);
    const prepared = list.map(batchItem);
    const answers = exchangeSync(prepared, batchLimits);
    const responses = prepared.map((first, i) => {
      let p = first;
      let res = complete(p, answers[i]);
      const hops = { redirects: 0 };
      for (let next = followUp(p, res, hops); next; next = followUp(p, res, hops)) {
        p = next;
        res = complete(p, exchangeSync([p])[0]);
      }
      return res;
    });
    if (!keys) return responses;
    return Object.fromEntries(keys.map((k, i) => [k, responses[i]]));
  }

  const bodyless = (method: string) => (url: string | UrlTemplate, params?: Params) =>
    request(method, url, null, params);
  const withBody = (method: string) => (url: string | UrlTemplate, body?: Body, params?: Params) =>
    request(method, url, body, params);

  return {
    request,
    asyncRequest,
    batch,
    url: urlTemplate,
    /** The VU's active cookie jar (a fresh one each iteration unless noCookiesReset). */
    cookieJar: (): K6CookieJar => (runtime.cookieJar ??= new K6CookieJar()),
    file,
    CookieJar: K6CookieJar,
    get: bodyless('GET'),
    head: bodyless('HEAD'),
    post: withBody('POST'),
    put: withBody('PUT'),
    patch: withBody('PATCH'),
    del: withBody('DELETE'),
    options: withBody('OPTIONS'),
    expectedStatuses(...specs: (number | { min: number; max: number })[]): ExpectedStatuses {
      return { ranges: specs.map((s) => (typeof s === 'number' ? { min: s, max: s } : s)) };
    },
    setResponseCallback(callback: ExpectedStatuses | null): void {
      defaultCallback = callback;
    },
  };
}
