/**
 * k6's cookies: every VU has a cookie jar (a fresh one for each iteration unless `noCookiesReset`) that
 * stores what responses set and sends it back with later requests to matching URLs; `http.cookieJar()`
 * and `new http.CookieJar()` give scripts k6's jar API; a request's `cookies` param adds request-scoped
 * cookies; `res.cookies` lists what a response set. The RFC 6265 rules (domain, path, expiry, secure)
 * are tough-cookie's.
 */
import { createRequire } from 'node:module';
import type * as ToughCookie from 'tough-cookie';

type Cookie = ToughCookie.Cookie;

/**
 * tough-cookie (with tldts' public suffix list: 262 KB) is loaded on a VU's first cookie, not bundled into the
 * VU thread's code: most load-test scripts never see a cookie, and every VU thread compiles its code at start
 * (bundled, it added ~11 ms per VU: 40 VUs started in 1.8 s instead of 1.3 s). A VU thread runs eval'd code, so
 * the engine tells it where the package is (setToughCookiePath); the engine's own thread resolves it here.
 */
let toughCookiePath: string | undefined;
let tough: typeof ToughCookie | undefined;
export function setToughCookiePath(path: string): void {
  toughCookiePath = path;
}
/** Where tough-cookie is, for a VU thread (resolved from this file, wherever the runner is started from). */
export function resolveToughCookie(): string {
  return createRequire(__filename).resolve('tough-cookie');
}
function toughCookie(): typeof ToughCookie {
  if (!tough) {
    const path = toughCookiePath ?? resolveToughCookie();
    tough = createRequire(path)(path) as typeof ToughCookie;
  }
  return tough;
}

/** One cookie a response set, as k6's `res.cookies[name]` lists it. */
export interface ResponseCookie {
  name: string;
  value: string;
  domain: string;
  path: string;
  http_only: boolean;
  secure: boolean;
  max_age: number;
  /** Milliseconds since the epoch; 0 when the cookie sets no Expires. */
  expires: number;
}

/** A request-scoped cookie: a value, or `{ value, replace }` (replace: the jar's cookie of that name is not sent). */
export type RequestCookie = string | { value: string; replace?: boolean };

/** k6's `jar.set()` options. */
interface SetOptions {
  domain?: string;
  path?: string;
  expires?: string;
  max_age?: number;
  secure?: boolean;
  http_only?: boolean;
}

/** k6's http.CookieJar. */
export class K6CookieJar {
  // looseMode: a cookie without '=' is read as a value, as Go's cookiejar does; public suffixes such as
  // 'localhost' stay allowed as domains for local targets.
  private made?: ToughCookie.CookieJar;
  /** Nothing was ever stored: requests skip the lookup (most load-test scripts never see a cookie). */
  private empty = true;

  private get jar(): ToughCookie.CookieJar {
    this.made ??= new (toughCookie().CookieJar)(undefined, { looseMode: true, rejectPublicSuffixes: false });
    return this.made;
  }

  /** The cookies the jar would send to `url`, by name (k6: `{ name: [value, …] }`). */
  cookiesForURL(url: string): Record<string, string[]> {
    const out: Record<string, string[]> = {};
    if (this.empty) return out;
    for (const c of this.jar.getCookiesSync(url)) (out[c.key] ??= []).push(c.value);
    return out;
  }

  /** Stores a cookie for `url` as if a response from it had set it. */
  set(url: string, name: string, value: string, options: SetOptions = {}): void {
    const cookie = new (toughCookie().Cookie)({
      key: String(name),
      value: String(value),
      ...(options.domain ? { domain: options.domain.replace(/^\./, '') } : {}),
      ...(options.path ? { path: options.path } : {}),
      ...(options.expires ? { expires: new Date(options.expires) } : {}),
      ...(options.max_age !== undefined ? { maxAge: options.max_age } : {}),
      secure: options.secure === true,
      httpOnly: options.http_only === true,
    });
    this.jar.setCookieSync(cookie, url);
    this.empty = false;
  }

  /** Removes every cookie the jar would send to `url`. */
  clear(url: string): void {
    if (this.empty) return;
    for (const c of this.jar.getCookiesSync(url)) this.remove(c);
  }

  /** Removes the cookie named `name` that the jar would send to `url`. */
  delete(url: string, name: string): void {
    if (this.empty) return;
    for (const c of this.jar.getCookiesSync(url)) if (c.key === name) this.remove(c);
  }

  /** The Cookie header for `url`: request-scoped cookies first, then the jar's (less those replaced). */
  header(url: string, scoped: Record<string, RequestCookie> | undefined): string {
    // The common case, on every request of most scripts: nothing to send.
    if (this.empty && scoped === undefined) return '';
    const parts: string[] = [];
    const replaced = new Set<string>();
    for (const [name, c] of Object.entries(scoped ?? {})) {
      const value = typeof c === 'object' && c !== null ? c.value : c;
      parts.push(`${name}=${String(value)}`);
      if (typeof c === 'object' && c !== null && c.replace) replaced.add(name);
    }
    if (!this.empty)
      for (const c of this.jar.getCookiesSync(url)) if (!replaced.has(c.key)) parts.push(c.cookieString());
    return parts.join('; ');
  }

  /** Stores what a response from `url` set, and returns it as k6's `res.cookies`. */
  store(url: string, setCookies: string[]): Record<string, ResponseCookie[]> {
    const out: Record<string, ResponseCookie[]> = {};
    for (const text of setCookies) {
      const c = toughCookie().Cookie.parse(text, { loose: true });
      if (!c) continue;
      (out[c.key] ??= []).push({
        name: c.key,
        value: c.value,
        domain: c.domain ?? '',
        path: c.path ?? '',
        http_only: c.httpOnly,
        secure: c.secure,
        max_age: typeof c.maxAge === 'number' ? c.maxAge : 0,
        expires: c.expires instanceof Date ? c.expires.getTime() : 0,
      });
      // A cookie the jar refuses (a domain the URL is not in, …) is left out, as a browser does.
      this.jar.setCookieSync(text, url, { ignoreError: true });
      this.empty = false;
    }
    return out;
  }

  private remove(c: Cookie): void {
    // MemoryCookieStore removes at once; the callback only reports.
    this.jar.store.removeCookie(c.domain ?? '', c.path ?? '/', c.key, () => undefined);
  }
}
