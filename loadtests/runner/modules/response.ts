/** The Response object k6 scripts read: status, body, headers, timings, json(). */
export interface Timings {
  duration: number;
  blocked: number;
  connecting: number;
  tls_handshaking: number;
  sending: number;
  waiting: number;
  receiving: number;
}

export class K6Response {
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
  ) {}

  /** Built on first access: most scripts never read headers. Names canonicalised as k6 (Go) does. */
  get headers(): Record<string, string> {
    if (!this.headerMap) {
      const headers: Record<string, string> = {};
      const raw = this.rawHeaders;
      for (let i = 0; i + 1 < raw.length; i += 2) {
        const name = raw[i]
          .toLowerCase()
          .replace(/(^|-)([a-z])/g, (_, dash: string, c: string) => dash + c.toUpperCase());
        headers[name] = name in headers ? `${headers[name]}, ${raw[i + 1]}` : raw[i + 1];
      }
      this.headerMap = headers;
    }
    return this.headerMap;
  }

  get request() {
    return { method: this.method, url: this.url };
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
