/**
 * What k6/html answers through Go's standard library, done the same way here: HTML serialised as
 * golang.org/x/net/html's Render writes it (goquery's `Html()`: `<br/>`, `&#34;`), URLs parsed and resolved as
 * net/url does (an anchor's parts, `href` against the response's URL), numbers written as strconv's
 * `FormatFloat(f, 'f', -1, 64)` (which data- values count as numbers).
 */
import type { AnyNode, Element as DomElement } from 'domhandler';

/** x/net/html's void elements: written `<br/>`, never closed. */
const VOID = new Set([
  'area',
  'base',
  'br',
  'col',
  'embed',
  'hr',
  'img',
  'input',
  'keygen',
  'link',
  'meta',
  'param',
  'source',
  'track',
  'wbr',
]);
/** Elements whose text x/net/html writes unescaped. */
const RAW_TEXT = new Set([
  'iframe',
  'noembed',
  'noframes',
  'noscript',
  'plaintext',
  'script',
  'style',
  'xmp',
]);
const ESCAPES: Record<string, string> = {
  '&': '&amp;',
  "'": '&#39;',
  '<': '&lt;',
  '>': '&gt;',
  '"': '&#34;',
  '\r': '&#13;',
};

export const isElement = (node: AnyNode): node is DomElement =>
  node.type === 'tag' || node.type === 'script' || node.type === 'style';

/** x/net/html's escaping of text and attribute values. */
function escape(text: string): string {
  return text.replace(/[&'<>"\r]/g, (c) => ESCAPES[c]);
}

/** The nodes' markup as goquery's `Html()` writes a node's children. */
export function renderNodes(nodes: readonly AnyNode[]): string {
  const out: string[] = [];
  for (const node of nodes) render(node, out);
  return out.join('');
}

function render(node: AnyNode, out: string[]): void {
  switch (node.type) {
    case 'text':
      out.push(
        node.parent && isElement(node.parent) && RAW_TEXT.has(node.parent.name)
          ? node.data
          : escape(node.data),
      );
      return;
    case 'comment':
      out.push(`<!--${node.data}-->`);
      return;
    case 'directive': {
      const doctype = node as unknown as Record<string, string | undefined>;
      const pub = doctype['x-publicId'];
      const sys = doctype['x-systemId'];
      const ids = pub ? ` PUBLIC "${pub}"${sys ? ` "${sys}"` : ''}` : sys ? ` SYSTEM "${sys}"` : '';
      out.push(`<!DOCTYPE ${doctype['x-name'] ?? 'html'}${ids}>`);
      return;
    }
    case 'root':
      for (const child of node.children) render(child, out);
      return;
    default:
      if (isElement(node)) renderElement(node, out);
  }
}

function renderElement(el: DomElement, out: string[]): void {
  out.push(`<${el.name}`);
  for (const [key, value] of Object.entries(el.attribs)) out.push(` ${key}="${escape(value)}"`);
  if (VOID.has(el.name)) {
    out.push('/>');
    return;
  }
  out.push('>');
  const first = el.children[0];
  // As x/net/html: a leading newline of these is dropped when parsed, so one is written back.
  if (
    ['pre', 'listing', 'textarea'].includes(el.name) &&
    first?.type === 'text' &&
    first.data.startsWith('\n')
  )
    out.push('\n');
  for (const child of el.children) render(child, out);
  out.push(`</${el.name}>`);
}

/** A URL as Go's net/url holds it (the parts k6's anchor methods read). */
export interface GoUrl {
  scheme: string;
  /** What follows `scheme:` when it is not a path (`mailto:x@y`). */
  opaque: string;
  /** `user[:password]` as written, or undefined without an `@`. */
  userinfo: string | undefined;
  /** `host[:port]` as written (case and a default port kept). */
  host: string;
  /** The path as written (escaped). */
  path: string;
  rawQuery: string;
  forceQuery: boolean;
  fragment: string;
}

/** net/url's Parse, for the cases an HTML attribute holds; undefined where Go gives an error. */
export function parseGoUrl(text: string): GoUrl | undefined {
  const u: GoUrl = {
    scheme: '',
    opaque: '',
    userinfo: undefined,
    host: '',
    path: '',
    rawQuery: '',
    forceQuery: false,
    fragment: '',
  };
  let rest = text;
  const hash = rest.indexOf('#');
  if (hash >= 0) {
    u.fragment = rest.slice(hash + 1);
    rest = rest.slice(0, hash);
  }
  const scheme = /^([a-zA-Z][a-zA-Z0-9+.-]*):/.exec(rest);
  if (scheme) {
    u.scheme = scheme[1].toLowerCase();
    rest = rest.slice(scheme[0].length);
  }
  if (rest.endsWith('?') && rest.indexOf('?') === rest.length - 1) {
    u.forceQuery = true;
    rest = rest.slice(0, -1);
  } else {
    const q = rest.indexOf('?');
    if (q >= 0) {
      u.rawQuery = rest.slice(q + 1);
      rest = rest.slice(0, q);
    }
  }
  if (!rest.startsWith('/')) {
    if (u.scheme) {
      u.opaque = rest;
      return u;
    }
    // Go: "first path segment in URL cannot contain colon".
    if (rest.split('/')[0].includes(':')) return undefined;
  }
  if (rest.startsWith('//') && (u.scheme !== '' || !rest.startsWith('///'))) {
    const end = rest.indexOf('/', 2);
    const authority = end < 0 ? rest.slice(2) : rest.slice(2, end);
    rest = end < 0 ? '' : rest.slice(end);
    const at = authority.lastIndexOf('@');
    if (at >= 0) u.userinfo = authority.slice(0, at);
    u.host = at >= 0 ? authority.slice(at + 1) : authority;
  }
  u.path = rest;
  return u;
}

/** net/url's ResolveReference: `ref` against `base` (RFC 3986 section 5.2, dot segments removed). */
export function resolveGoUrl(base: GoUrl, ref: GoUrl): GoUrl {
  const url: GoUrl = { ...ref, scheme: ref.scheme || base.scheme };
  if (ref.scheme !== '' || ref.host !== '' || ref.userinfo !== undefined) {
    url.path = resolvePath(ref.path, '');
    return url;
  }
  if (ref.opaque !== '') return { ...url, userinfo: undefined, host: '', path: '' };
  if (ref.path === '' && !ref.forceQuery && ref.rawQuery === '') {
    url.rawQuery = base.rawQuery;
    if (ref.fragment === '') url.fragment = base.fragment;
  }
  if (ref.path === '' && base.opaque !== '')
    return { ...url, opaque: base.opaque, userinfo: undefined, host: '', path: '' };
  url.host = base.host;
  url.userinfo = base.userinfo;
  url.path = resolvePath(base.path, ref.path);
  return url;
}

/** The reference's path against the base's, without `.` and `..` segments (always absolute unless empty). */
function resolvePath(base: string, ref: string): string {
  const full = ref === '' ? base : ref.startsWith('/') ? ref : base.slice(0, base.lastIndexOf('/') + 1) + ref;
  if (full === '') return '';
  const segments = full.startsWith('/') ? full.split('/').slice(1) : full.split('/');
  const out: string[] = [];
  segments.forEach((segment, i) => {
    const last = i === segments.length - 1;
    if (segment === '.') {
      if (last) out.push('');
    } else if (segment === '..') {
      out.pop();
      if (last) out.push('');
    } else out.push(segment);
  });
  return `/${out.join('/')}`;
}

/** net/url's String(). */
export function formatGoUrl(u: GoUrl): string {
  let s = u.scheme ? `${u.scheme}:` : '';
  if (u.opaque) s += u.opaque;
  else {
    if (u.scheme || u.host || u.userinfo !== undefined) {
      if (u.host || u.path || u.userinfo !== undefined) s += '//';
      if (u.userinfo !== undefined) s += `${u.userinfo}@`;
      s += u.host;
    }
    if (u.path && !u.path.startsWith('/') && u.host) s += '/';
    s += u.path;
  }
  if (u.forceQuery || u.rawQuery) s += `?${u.rawQuery}`;
  if (u.fragment) s += `#${u.fragment}`;
  return s;
}

/**
 * `ref` resolved against `base` as k6 resolves an attribute's URL (without a base, parseHTML()'s case, as
 * written); undefined when either does not parse.
 */
export function resolveAgainst(base: string, ref: string): GoUrl | undefined {
  const r = parseGoUrl(ref);
  if (!r || base === '') return r;
  const b = parseGoUrl(base);
  return b ? resolveGoUrl(b, r) : undefined;
}

/** A URL's host and port as net.SplitHostPort splits `host:port` (brackets off); no port: the host whole. */
export function splitHostPort(host: string): { hostname: string; port: string } | undefined {
  const m = /^\[([^\]]*)\]:(\d*)$/.exec(host) ?? /^([^:]*):(\d*)$/.exec(host);
  return m ? { hostname: m[1], port: m[2] } : undefined;
}

/** strconv.FormatFloat(f, 'f', -1, 64): the shortest digits that read back, never with an exponent. */
export function formatFloatF(n: number): string {
  if (Object.is(n, -0)) return '-0';
  const [mantissa, exp] = n.toExponential().split('e');
  const negative = mantissa.startsWith('-');
  const digits = mantissa.replace(/^-/, '').replace('.', '');
  const point = Number(exp) + 1; // where the decimal point goes in `digits`
  let text: string;
  if (point <= 0) text = `0.${'0'.repeat(-point)}${digits}`;
  else if (point >= digits.length) text = digits + '0'.repeat(point - digits.length);
  else text = `${digits.slice(0, point)}.${digits.slice(point)}`;
  return (negative ? '-' : '') + text;
}
