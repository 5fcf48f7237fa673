/** The Response object k6 scripts read: status, body, headers, cookies, timings, json(). */
import type { ResponseCookie } from './cookies.ts';

export interface Timings {
  duration: number;
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
}

/** What k6's Response carries besides the basics: the status line, cookies, the request as sent. */
export interface ResponseDetails {
  statusText: string;
  cookies: Record<string, ResponseCookie[]>;
  requestHeaders: Record<string, string>;
  requestBody: string | Uint8Array | undefined;
}

const canonical = (name: string) =>
  name.toLowerCase().replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());

export class K6Response {
  /** HTTP/1.1 only (see loadtests/README.md). */
  readonly proto = 'HTTP/1.1';
  private parsed: unknown;
  private parsedOnce = false;
  private headerMap?: Record<string, string>;

  constructor(
    readonly url: string,
    readonly method: string,
    readonly status: number,
    /** Text, or an ArrayBuffer for `responseType: 'binary'`, or null when discarded. */
    readonly body: string | ArrayBuffer | null,
    private readonly rawHeaders: string[],
    readonly timings: Timings,
    readonly error: string,
    readonly error_code: number,
    private readonly details?: ResponseDetails,
  ) {}

  /** The status line after the version, as Go (so k6) gives it: "200 OK"; empty without a response. */
  get status_text(): string {
    return this.status === 0 ? '' : `${this.status} ${this.details?.statusText ?? ''}`.trimEnd();
  }

  /** The cookies the response set, by name. */
  get cookies(): Record<string, ResponseCookie[]> {
    return this.details?.cookies ?? {};
  }

  /** Built on first access: most scripts never read headers. Names canonicalised as k6 (Go) does. */
  get headers(): Record<string, string> {
    if (!this.headerMap) {
      const headers: Record<string, string> = {};
      const raw = this.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = canonical(raw[i]);
        headers[name] = name in headers ? `${headers[name]}, ${raw[i + 1]}` : raw[i + 1];
      }
      this.headerMap = headers;
    }
    return this.headerMap;
  }

  /** The request as sent: method, URL, headers (canonical names → values) and body. */
  get request() {
    const sent = this.details?.requestHeaders ?? {};
    const body = this.details?.requestBody;
    return {
      method: this.method,
      url: this.url,
      headers: Object.fromEntries(Object.entries(sent).map(([k, v]) => [canonical(k), [v]])),
      body: body === undefined ? '' : typeof body === 'string' ? body : Buffer.from(body).toString(),
    };
  }

  /** JSON body; with a selector, a dotted path (`results.0.elevation`), a subset of k6's gjson paths. */
  json(selector?: string): unknown {
    if (!this.parsedOnce) {
      const body = this.body;
      const text = body instanceof ArrayBuffer ? Buffer.from(body).toString() : (body ?? '');
      this.parsed = JSON.parse(text) as unknown;
      this.parsedOnce = true;
    }
    if (!selector) return this.parsed;
    return selector.split('.').reduce<unknown>((value, part) => {
      if (value === null || typeof value !== 'object') return undefined;
      return (value as Record<string, unknown>)[part];
    }, this.parsed);
  }
}
