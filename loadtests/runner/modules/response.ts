/** The Response object k6 scripts read: status, body, headers, timings, json(). */
import { headersObject } from './http-transport.ts';

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

  constructor(
    readonly url: string,
    readonly method: string,
    readonly status: number,
    readonly body: string,
    private readonly rawHeaders: Buffer[],
    readonly timings: Timings,
    readonly error: string,
    readonly error_code: number,
  ) {}

  private headerMap?: Record<string, string>;

  /** Built on first access: most scripts never read headers. */
  get headers(): Record<string, string> {
    this.headerMap ??= headersObject(this.rawHeaders);
    return this.headerMap;
  }

  get request() {
    return { method: this.method, url: this.url };
  }

  /** JSON body; with a selector, a dotted path (`results.0.elevation`), a subset of k6's gjson paths. */
  json(selector?: string): unknown {
    if (!this.parsedOnce) {
      this.parsed = JSON.parse(this.body) as unknown;
      this.parsedOnce = true;
    }
    if (!selector) return this.parsed;
    return selector.split('.').reduce<unknown>((value, part) => {
      if (value === null || typeof value !== 'object') return undefined;
      return (value as Record<string, unknown>)[part];
    }, this.parsed);
  }
}
