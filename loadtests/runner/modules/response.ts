/** The Response object k6 scripts read: status, body, headers, cookies, timings, json(), html(). */
import type { ResponseCookie } from './cookies.ts';
import { formatGoUrl, resolveAgainst, type GoUrl } from './html-go.ts';
import { formEncode, parseHTML, type Selection } from './html.ts';
import { selectJsonPath } from './json-path.ts';

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
  /** Sends a request as http.request() does: submitForm() and clickLink() follow up with it. */
  send?: (method: string, url: string, body: unknown, params: unknown) => K6Response;
}

/** submitForm()'s options (k6's names). */
interface SubmitFormOptions {
  formSelector?: string;
  submitSelector?: string;
  fields?: Record<string, unknown>;
  params?: unknown;
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

  /** The body as a k6/html Selection (URLs in it resolve against this response's); with a selector, its find(). */
  html(selector?: string): Selection {
    if (this.body === null)
      // k6's message; here also when the body was discarded (discardResponseBodies, responseType 'none').
      throw new Error(
        "the body is null so we can't transform it to HTML - this likely was because of a request error getting the response",
      );
    const text = this.body instanceof ArrayBuffer ? Buffer.from(this.body).toString() : this.body;
    const doc = parseHTML(text, this.url);
    return selector === undefined ? doc : doc.find(selector);
  }

  /** `ref` resolved against this response's URL, as k6 resolves it (Go's net/url). */
  private resolve(ref: string): GoUrl {
    const resolved = resolveAgainst(this.url, ref);
    if (!resolved) throw new Error(`cannot parse URL "${ref}"`);
    return resolved;
  }

  /**
   * Submits the page's form as a browser would, as k6's res.submitForm(): the form's method (GET by default)
   * to its action resolved against this URL, with its successful controls, the submit button's name and
   * value, and `fields` over them; GET sends them as the query string.
   */
  submitForm(options: SubmitFormOptions = {}): K6Response {
    const formSelector = String(options.formSelector ?? 'form');
    const form = this.html(formSelector);
    if (form.size() === 0)
      throw new Error(`no form found for selector '${formSelector}' in response '${this.url}'`);
    const method = String(form.attr('method') ?? 'GET').toUpperCase();
    const action = form.attr('action');
    const target = action === undefined ? this.resolve('') : this.resolve(String(action));
    const values = form.serializeObject();
    const submit = form.find(String(options.submitSelector ?? '[type="submit"]'));
    const submitName = submit.attr('name');
    const submitValue = submit.val();
    if (submitName !== undefined && submitValue !== undefined) values[String(submitName)] = submitValue;
    Object.assign(values, options.fields ?? {});
    const send = this.sender();
    if (method === 'GET') {
      // Go's url.Values.Encode: names sorted, the query replaced.
      const names = Object.keys(values).sort();
      target.rawQuery = names.map((n) => `${formEncode(n)}=${formEncode(String(values[n]))}`).join('&');
      target.forceQuery = false;
      return send('GET', formatGoUrl(target), null, options.params ?? null);
    }
    return send(method, formatGoUrl(target), values, options.params ?? null);
  }

  /** Follows the first link `selector` (default `a[href]`) finds, as k6's res.clickLink(). */
  clickLink(options: { selector?: string; params?: unknown } = {}): K6Response {
    const selector = String(options.selector ?? 'a[href]');
    const link = this.html(selector);
    if (link.size() === 0)
      throw new Error(`no element found for selector '${selector}' in response '${this.url}'`);
    const href = link.attr('href');
    if (href === undefined)
      throw new Error(
        `no valid href attribute value found on element '${selector}' in response '${this.url}'`,
      );
    return this.sender()('GET', formatGoUrl(this.resolve(String(href))), undefined, options.params ?? null);
  }

  private sender(): NonNullable<ResponseDetails['send']> {
    const send = this.details?.send;
    if (!send) throw new Error('this response cannot send a follow-up request');
    return send;
  }

  /**
   * JSON body; with a selector, the value at that GJSON path (json-path.ts: the common subset, the rest refused),
   * undefined where it does not exist or, as in k6, when the body is not JSON.
   */
  json(selector?: string): unknown {
    if (!this.parsedOnce) {
      const body = this.body;
      const text = body instanceof ArrayBuffer ? Buffer.from(body).toString() : (body ?? '');
      try {
        this.parsed = JSON.parse(text) as unknown;
      } catch (err) {
        if (selector) return undefined;
        throw err;
      }
      this.parsedOnce = true;
    }
    return selector ? selectJsonPath(this.parsed, selector) : this.parsed;
  }
}
