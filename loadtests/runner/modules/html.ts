/**
 * k6/html: `parseHTML(src)` and `res.html()` give a Selection, k6's jQuery-like API (goquery in k6), and
 * `Selection.get()` gives Elements with DOM-like methods (`nodeName()`, `textContent()`, a form's `action()`,
 * an input's `value()`…). Cheerio does the parsing and selecting: jQuery's API over parse5, an HTML5
 * tree builder as Go's x/net/html is, so a fragment gets its implied html/head/body as in k6. This file
 * gives cheerio's results k6's shapes: methods instead of properties, `undefined` where k6 answers it,
 * k6's rules for `val()`, `data()` and form serialisation, and URLs resolved against the response's.
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element as DomElement } from 'domhandler';

/**
 * Cheerio is loaded on a VU's first parseHTML(), not bundled into the VU thread's code, as tough-cookie is
 * (modules/cookies.ts): most scripts never parse HTML. Its `load-parse.js` is loaded, not its main file: the
 * main file also loads undici for `fromURL()` (176 ms to require on this machine, against 65 ms).
 */
let cheerioPath: string | undefined;
let load: ((src: string) => CheerioAPI) | undefined;
export function setCheerioPath(file: string): void {
  cheerioPath = file;
}
/** Where cheerio's parse5 loader is, for a VU thread (resolved from this file). */
export function resolveCheerio(): string {
  return path.join(path.dirname(createRequire(__filename).resolve('cheerio')), 'load-parse.js');
}
function cheerioLoad(): (src: string) => CheerioAPI {
  if (!load) {
    const file = cheerioPath ?? resolveCheerio();
    load = (createRequire(file)(file) as { load: (src: string) => CheerioAPI }).load;
  }
  return load;
}

const XHTML = 'http://www.w3.org/1999/xhtml';
const SUBMITTABLE = 'input,select,textarea,keygen';
const FORM_FIELDS = 'input,select,button,textarea,fieldset';

const isElement = (node: AnyNode): node is DomElement =>
  node.type === 'tag' || node.type === 'script' || node.type === 'style';

/** A k6/html Selection: its methods are k6's (mimicking jQuery's), over a cheerio selection. */
export class Selection {
  constructor(
    private readonly $: CheerioAPI,
    /** The underlying cheerio selection. */
    readonly sel: Cheerio<AnyNode>,
    /** The response's URL for res.html() (relative links resolve against it); '' for parseHTML(). */
    readonly url: string,
  ) {}

  private make(sel: Cheerio<AnyNode>): Selection {
    return new Selection(this.$, sel, this.url);
  }

  /** A selector string, a Selection or an Element, as k6 takes one; anything else is k6's error. */
  private selector(arg: unknown): string | Cheerio<AnyNode> | AnyNode {
    if (typeof arg === 'string') return arg;
    if (arg instanceof Selection) return arg.sel;
    if (arg instanceof Element) return arg.node;
    throw new Error(`Invalid argument: Cannot use a ${describeType(arg)} as a selector`);
  }

  /** A function's answer for each element (index, Selection of it), as k6 calls filter/is/not/map functions. */
  private matcher(fn: (index: number, sel: Selection) => unknown) {
    return (index: number, node: AnyNode) => Boolean(fn(index, this.make(this.$(node))));
  }

  add(arg: unknown): Selection {
    return this.make(this.sel.add(this.selector(arg) as string));
  }
  find(arg: unknown): Selection {
    return this.make(this.sel.find(this.selector(arg) as string));
  }
  closest(arg: unknown): Selection {
    return this.make(this.sel.closest(this.selector(arg) as string));
  }
  has(arg: unknown): Selection {
    const target = this.selector(arg);
    if (typeof target === 'string') return this.make(this.sel.has(target));
    const nodes =
      target instanceof Element || !('toArray' in target) ? [target as AnyNode] : target.toArray();
    return this.make(
      this.sel.filter((_, el) => nodes.some((n) => n !== el && this.$.contains(el as DomElement, n))),
    );
  }
  not(arg: unknown): Selection {
    if (typeof arg === 'function')
      return this.make(this.sel.not(this.matcher(arg as (i: number, s: Selection) => unknown)));
    return this.make(this.sel.not(this.selector(arg) as string));
  }
  filter(arg: unknown): Selection {
    if (typeof arg === 'string') return this.make(this.sel.filter(arg));
    if (arg instanceof Selection) return this.make(this.sel.filter(arg.sel));
    if (typeof arg !== 'function')
      throw new Error('Argument to filter() must be a function, a selector or a selection');
    return this.make(this.sel.filter(this.matcher(arg as (i: number, s: Selection) => unknown)));
  }
  is(arg: unknown): boolean {
    if (typeof arg === 'string') return this.sel.is(arg);
    if (arg instanceof Selection) return this.sel.is(arg.sel);
    if (typeof arg !== 'function')
      throw new Error('Argument to is() must be a function, a selector or a selection');
    return this.sel.is(this.matcher(arg as (i: number, s: Selection) => unknown));
  }

  next(filter?: string): Selection {
    return this.make(this.sel.next(filter));
  }
  nextAll(filter?: string): Selection {
    return this.make(this.sel.nextAll(filter));
  }
  prev(filter?: string): Selection {
    return this.make(this.sel.prev(filter));
  }
  prevAll(filter?: string): Selection {
    return this.make(this.sel.prevAll(filter));
  }
  parent(filter?: string): Selection {
    return this.make(this.sel.parent(filter));
  }
  parents(filter?: string): Selection {
    return this.make(this.sel.parents(filter));
  }
  siblings(filter?: string): Selection {
    return this.make(this.sel.siblings(filter));
  }
  children(filter?: string): Selection {
    return this.make(this.sel.children(filter));
  }
  contents(): Selection {
    return this.make(this.sel.contents());
  }
  nextUntil(until?: unknown, filter?: string): Selection {
    return this.make(this.sel.nextUntil(this.until(until), filter));
  }
  prevUntil(until?: unknown, filter?: string): Selection {
    return this.make(this.sel.prevUntil(this.until(until), filter));
  }
  parentsUntil(until?: unknown, filter?: string): Selection {
    return this.make(this.sel.parentsUntil(this.until(until), filter));
  }
  private until(arg: unknown): string | Cheerio<DomElement> | null {
    if (arg === undefined || arg === null || arg === '') return null;
    if (typeof arg === 'string') return arg;
    if (arg instanceof Selection) return arg.sel as Cheerio<DomElement>;
    throw new Error(`Invalid argument: Cannot use a ${describeType(arg)} as a selector`);
  }

  size(): number {
    return this.sel.length;
  }
  end(): Selection {
    return this.make(this.sel.end());
  }
  eq(index: number): Selection {
    return this.make(this.sel.eq(index));
  }
  first(): Selection {
    return this.make(this.sel.first());
  }
  last(): Selection {
    return this.make(this.sel.last());
  }
  slice(start: number, end?: number): Selection {
    return this.make(this.sel.slice(start, end));
  }

  /** The combined text of every element, their descendants' included. */
  text(): string {
    return this.sel.text();
  }
  /** The first element's inner HTML; '' for an empty selection (goquery's answer). */
  html(): string {
    return this.sel.html() ?? '';
  }
  /** The first element's attribute, or `fallback` (undefined without one) when it has none. */
  attr(name: string, fallback?: unknown): unknown {
    return this.sel.attr(name) ?? fallback;
  }

  /** A form control's value, as k6 reads it (a select's selected option(s), an option's value or HTML). */
  val(): unknown {
    const node = this.sel[0];
    if (!node || !isElement(node)) return undefined;
    const attr = (name: string) => node.attribs[name];
    switch (node.name) {
      case 'input':
        return attr('value') ?? (attr('type') === 'radio' || attr('type') === 'checkbox' ? 'on' : '');
      case 'button':
        return attr('value') ?? '';
      case 'textarea':
        return this.html();
      case 'option':
        return valueOrHtml(this.$, node);
      case 'select': {
        const selected = this.$(node).find('option[selected]').toArray();
        if (attr('multiple') !== undefined) return selected.map((o) => valueOrHtml(this.$, o));
        return selected.length ? valueOrHtml(this.$, selected[0]) : '';
      }
      default:
        return undefined;
    }
  }

  /** The first element's data- attributes (converted as k6 does), or the one `key` names (camelCase). */
  data(key?: string): unknown {
    const node = this.sel[0];
    if (!node || !isElement(node) || Object.keys(node.attribs).length === 0) return undefined;
    if (key !== undefined) {
      const value = node.attribs[`data-${propertyToAttr(key)}`];
      return value === undefined ? undefined : dataValue(value);
    }
    const data: Record<string, unknown> = {};
    for (const [name, value] of Object.entries(node.attribs))
      if (name.startsWith('data-') && name.length > 5) data[attrToProperty(name.slice(5))] = dataValue(value);
    return data;
  }

  /** Calls `fn(index, element)` for each element; the selection itself is returned. */
  each(fn: unknown): Selection {
    if (typeof fn !== 'function') throw new Error('Argument to each() must be a function.');
    this.sel.toArray().forEach((node, i) => {
      try {
        (fn as (i: number, e: Element | undefined) => unknown)(i, elementOf(this.$, node, this.url));
      } catch (err) {
        throw new Error(
          `Function passed to each() failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    });
    return this;
  }
  /** `fn(index, selection)` for each element, its answers as strings (k6's map returns a string array). */
  map(fn: unknown): string[] {
    if (typeof fn !== 'function') throw new Error('Argument to map() must be a function');
    return this.sel.toArray().map((node, i) => {
      try {
        return String((fn as (i: number, s: Selection) => unknown)(i, this.make(this.$(node))));
      } catch {
        return '';
      }
    });
  }
  /** Every element (no index), the one at `index` (negative from the end), or undefined. */
  get(): Element[];
  get(index: number): Element | undefined;
  get(index?: number): Element[] | Element | undefined {
    const nodes = this.sel.toArray();
    if (index === undefined) return nodes.map((n) => elementOf(this.$, n, this.url) as Element);
    if (index >= nodes.length || index <= -nodes.length) return undefined;
    return elementOf(this.$, nodes[index < 0 ? nodes.length + index : index], this.url);
  }
  /** One single-element Selection per element. */
  toArray(): Selection[] {
    return this.sel.toArray().map((node) => this.make(this.$(node)));
  }
  /** The position of the first element among its siblings, in the selector's matches, or of `arg` in this. */
  index(arg?: unknown): number {
    if (arg === undefined) return this.sel.index();
    if (typeof arg === 'string' || arg instanceof Selection)
      return this.sel.index(this.selector(arg) as string);
    if (arg instanceof Element) return this.sel.index(arg.node);
    return -1;
  }

  /** A form's (or the selected controls') successful controls as `{ name, value }`, as jQuery's serializeArray. */
  serializeArray(): { name: string; value: unknown }[] {
    const controls = this.sel.is('form') ? this.sel.find(SUBMITTABLE) : this.sel.filter(SUBMITTABLE);
    return controls
      .toArray()
      .filter((node): node is DomElement => isElement(node) && isSuccessful(node))
      .map((node) => ({ name: node.attribs.name, value: this.make(this.$(node)).val() }));
  }
  /** serializeArray() as an object: a name's last value. */
  serializeObject(): Record<string, unknown> {
    return Object.fromEntries(this.serializeArray().map((f) => [f.name, f.value]));
  }
  /** serializeArray() URL-encoded, names sorted as Go's url.Values encodes them. */
  serialize(): string {
    const values = new Map<string, string[]>();
    for (const { name, value } of this.serializeArray()) {
      if (typeof value === 'string') values.set(name, [value]);
      else if (Array.isArray(value)) values.set(name, value as string[]);
    }
    return [...values.keys()]
      .sort()
      .flatMap((name) => (values.get(name) ?? []).map((v) => `${formEncode(name)}=${formEncode(v)}`))
      .join('&');
  }
}

/** k6's parseHTML: the whole document as a Selection. */
export function parseHTML(src: unknown, url = ''): Selection {
  const $ = cheerioLoad()(String(src ?? ''));
  return new Selection($, $.root() as Cheerio<AnyNode>, url);
}

export function createHtmlModule() {
  return { parseHTML: (src: unknown) => parseHTML(src) };
}

/** An attribute of `Element.attributes()` / `getAttributeNode()` (k6's field names). */
interface Attribute {
  name: string;
  namespace_uri: string;
  local_name: string;
  prefix: string;
  owner_element: Element;
  value: string;
}

/** A node of a parsed document, with k6's Element methods; a tag's own methods are added by elementOf(). */
export class Element {
  constructor(
    /** @internal The document's cheerio. */
    readonly $: CheerioAPI,
    /** @internal The underlying node. */
    readonly node: AnyNode,
    /** @internal The document's URL ('' for parseHTML()). */
    readonly url: string,
  ) {}

  private get sel(): Cheerio<AnyNode> {
    return this.$(this.node);
  }
  private wrap(node: AnyNode | null | undefined): Element | undefined {
    return elementOf(this.$, node, this.url);
  }
  private list(nodes: AnyNode[]): Element[] {
    return nodes.map((n) => this.wrap(n) as Element);
  }
  private attrOf(name: string): string | undefined {
    return attrOf(this, name);
  }

  /** The Selection of this element alone. */
  selection(): Selection {
    return new Selection(this.$, this.sel, this.url);
  }
  nodeName(): string {
    const n = this.node;
    if (isElement(n)) return n.name;
    if (n.type === 'text') return '#text';
    if (n.type === 'comment') return '#comment';
    if (n.type === 'root') return '#document';
    return n.type === 'directive' ? 'html' : `#${n.type}`;
  }
  nodeType(): number | undefined {
    const types: Record<string, number> = {
      tag: 1,
      script: 1,
      style: 1,
      text: 3,
      comment: 8,
      root: 9,
      directive: 10,
    };
    return types[this.node.type];
  }
  nodeValue(): string | undefined {
    return this.node.type === 'text' || this.node.type === 'comment' ? this.node.data : undefined;
  }
  id(): string | undefined {
    return this.attrOf('id');
  }
  innerHTML(): string {
    return this.sel.html() ?? '';
  }
  textContent(): string {
    return this.node.type === 'comment' ? this.node.data : this.sel.text();
  }
  ownerDocument(): Element | undefined {
    let n: AnyNode | null = this.node;
    while (n && n.type !== 'root') n = n.parent;
    return this.wrap(n);
  }
  attributes(): Record<string, Attribute> {
    const attrs: Record<string, Attribute> = {};
    if (isElement(this.node))
      for (const name of Object.keys(this.node.attribs)) attrs[name] = this.attribute(name);
    return attrs;
  }
  getAttributeNode(name: string): Attribute | undefined {
    return this.attrOf(name) === undefined ? undefined : this.attribute(name);
  }
  private attribute(name: string): Attribute {
    const el = this.node as DomElement;
    return {
      name,
      namespace_uri: el['x-attribsNamespace']?.[name] ?? '',
      local_name: name,
      prefix: el['x-attribsPrefix']?.[name] ?? '',
      owner_element: this,
      value: el.attribs[name],
    };
  }
  getAttribute(name: string): string | undefined {
    return this.attrOf(name);
  }
  hasAttribute(name: string): boolean {
    return this.attrOf(name) !== undefined;
  }
  hasAttributes(): boolean {
    return isElement(this.node) && Object.keys(this.node.attribs).length > 0;
  }
  hasChildNodes(): boolean {
    return 'children' in this.node && this.node.children.length > 0;
  }
  firstChild(): Element | undefined {
    return 'children' in this.node ? this.wrap(this.node.children[0]) : undefined;
  }
  lastChild(): Element | undefined {
    return 'children' in this.node ? this.wrap(this.node.children.at(-1)) : undefined;
  }
  firstElementChild(): Element | undefined {
    return this.wrap(this.sel.children().first()[0]);
  }
  lastElementChild(): Element | undefined {
    return this.wrap(this.sel.children().last()[0]);
  }
  previousSibling(): Element | undefined {
    return this.wrap(this.node.prev);
  }
  nextSibling(): Element | undefined {
    return this.wrap(this.node.next);
  }
  previousElementSibling(): Element | undefined {
    return this.wrap(this.sel.prev()[0]);
  }
  nextElementSibling(): Element | undefined {
    return this.wrap(this.sel.next()[0]);
  }
  parentNode(): Element | undefined {
    return this.wrap(this.node.parent);
  }
  parentElement(): Element | undefined {
    const parent = this.node.parent;
    return parent && isElement(parent) ? this.wrap(parent) : undefined;
  }
  childNodes(): Element[] {
    return this.list(this.sel.contents().toArray());
  }
  children(): Element[] {
    return this.list(this.sel.children().toArray());
  }
  childElementCount(): number {
    return this.sel.children().length;
  }
  classList(): string[] {
    return (this.attrOf('class') ?? '').split(/\s+/).filter(Boolean);
  }
  className(): string | undefined {
    return this.attrOf('class');
  }
  lang(): string | undefined {
    return this.attrOf('lang');
  }
  namespaceURI(): string {
    return (isElement(this.node) && this.node.namespace) || XHTML;
  }
  isDefaultNamespace(): boolean {
    return this.namespaceURI() === XHTML;
  }
  toString(): string {
    return isElement(this.node) ? '[object html.Node]' : `[object ${this.nodeName()}]`;
  }
  isSameNode(other: unknown): boolean {
    return other instanceof Element && other.node === this.node;
  }
  isEqualNode(other: unknown): boolean {
    return other instanceof Element && this.$.html(other.node) === this.$.html(this.node);
  }
  contains(other: unknown): boolean {
    return (
      other instanceof Element &&
      other.node !== this.node &&
      'children' in this.node &&
      this.$.contains(this.node as DomElement, other.node)
    );
  }
  matches(selector: string): boolean {
    return this.sel.is(selector);
  }
  getElementsByClassName(name: string): Element[] {
    return this.list(this.sel.find(`.${name}`).toArray());
  }
  getElementsByTagName(name: string): Element[] {
    return this.list(this.sel.find(name).toArray());
  }
  querySelector(selector: string): Element | undefined {
    return this.wrap(this.sel.find(selector)[0]);
  }
  querySelectorAll(selector: string): Element[] {
    return this.list(this.sel.find(selector).toArray());
  }
}

/** The element's attribute, or undefined (also for a node that is not an element). */
function attrOf(e: Element, name: string): string | undefined {
  return isElement(e.node) ? e.node.attribs[name] : undefined;
}
const attrString = (e: Element, name: string) => attrOf(e, name) ?? '';
function attrInt(e: Element, name: string, fallback: number): number {
  const n = Number.parseInt(attrOf(e, name) ?? '', 10);
  return Number.isNaN(n) ? fallback : n;
}
/** The attribute's value if it is one of `allowed` (any case), else the first of them. */
function attrEnum(e: Element, name: string, allowed: readonly string[]): string {
  const value = (attrOf(e, name) ?? '').toLowerCase();
  return allowed.find((a) => a.toLowerCase() === value) ?? allowed[0];
}
/** The attribute as a URL resolved against the document's (the response's), or '' / the document's URL. */
function attrUrl(e: Element, name: string, fallback: 'empty' | 'current'): string {
  const value = attrOf(e, name);
  if (value === undefined) return fallback === 'current' ? e.url : '';
  return resolveUrl(e.url, value);
}
const within = (e: Element, selector: string) => e.$(e.node).find(selector);
const around = (e: Element, selector: string) => e.$(e.node).parents(selector);
const inDocument = (e: Element, selector: string) => e.$.root().find(selector);
const elementFor = (e: Element, node: AnyNode | undefined) => elementOf(e.$, node, e.url);
const elementsFor = (e: Element, nodes: Cheerio<AnyNode>) =>
  nodes.toArray().map((n) => elementOf(e.$, n, e.url) as Element);
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

type TagMethods = Record<string, (e: Element) => unknown>;

const str = (attr: string) => (e: Element) => attrString(e, attr);
const bool = (attr: string) => (e: Element) => attrOf(e, attr) !== undefined;
const int = (attr: string, fallback: number) => (e: Element) => attrInt(e, attr, fallback);
const enumOf = (attr: string, allowed: readonly string[]) => (e: Element) => attrEnum(e, attr, allowed);
const url =
  (attr: string, fallback: 'empty' | 'current' = 'empty') =>
  (e: Element) =>
    attrUrl(e, attr, fallback);
const words = (attr: string) => (e: Element) => attrString(e, attr).split(/\s+/).filter(Boolean);

const REFERRER = [
  '',
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'unsafe-url',
];
const ENCTYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const INPUT_TYPES = [
  'text',
  'button',
  'checkbox',
  'color',
  'date',
  'datetime-local',
  'email',
  'file',
  'hidden',
  'image',
  'month',
  'number',
  'password',
  'radio',
  'range',
  'reset',
  'search',
  'submit',
  'tel',
  'time',
  'url',
  'week',
];

/** The parts of an `href`, as the DOM's HTMLHyperlinkElementUtils gives them. */
function hrefParts(e: Element): URL | undefined {
  const href = attrUrl(e, 'href', 'empty');
  try {
    return href ? new URL(href) : undefined;
  } catch {
    return undefined;
  }
}
const HREF: TagMethods = {
  href: url('href'),
  toString: url('href'),
  download: str('download'),
  referrerPolicy: enumOf('referrerpolicy', REFERRER),
  rel: str('rel'),
  relList: words('rel'),
  target: str('target'),
  type: str('type'),
  accessKey: str('accesskey'),
  hrefLang: str('hreflang'),
  text: (e) => e.textContent(),
  hash: (e) => hrefParts(e)?.hash ?? '',
  host: (e) => hrefParts(e)?.host ?? '',
  hostname: (e) => hrefParts(e)?.hostname ?? '',
  port: (e) => hrefParts(e)?.port ?? '',
  pathname: (e) => hrefParts(e)?.pathname ?? '',
  protocol: (e) => hrefParts(e)?.protocol.replace(/:$/, '') ?? ':',
  search: (e) => hrefParts(e)?.search ?? '',
  username: (e) => decodeURIComponent(hrefParts(e)?.username ?? ''),
  password: (e) => decodeURIComponent(hrefParts(e)?.password ?? ''),
  origin: (e) => {
    const u = hrefParts(e);
    return !u ? '' : u.protocol === 'file:' ? u.href : `${u.protocol}//${u.host}`;
  },
};

/** The form a control belongs to: its `form` attribute's, else the form around it. */
function ownerForm(e: Element): Element | undefined {
  const id = e.getAttribute('form');
  const form = id !== undefined ? inDocument(e, `form[id=${quoted(id)}]`) : around(e, 'form');
  return elementFor(e, form[0]);
}
/** A control's `formaction`-style override, else its form's attribute. */
function formAttr(e: Element, name: string): string | undefined {
  return e.getAttribute(`form${name}`) ?? ownerForm(e)?.getAttribute(name);
}
function labels(e: Element): Element[] {
  const id = e.id();
  const byFor = id ? inDocument(e, `label[for=${quoted(id)}]`).toArray() : [];
  const wrapping = around(e, 'label').toArray();
  return elementsFor(
    e,
    inDocument(e, 'label').filter((_, n) => byFor.includes(n) || wrapping.includes(n)),
  );
}
const FORM_FIELD: TagMethods = {
  form: ownerForm,
  name: str('name'),
  labels,
  formAction: (e) => {
    const action = formAttr(e, 'action');
    if (!e.url) return action ?? '';
    return action ? resolveUrl(e.url, action) : e.url;
  },
  formEnctype: (e) => {
    const enctype = formAttr(e, 'enctype') ?? '';
    return ENCTYPES.includes(enctype) ? enctype : ENCTYPES[0];
  },
  formMethod: (e) => ((formAttr(e, 'method') ?? '').toLowerCase() === 'post' ? 'post' : 'get'),
  formNoValidate: (e) => formAttr(e, 'novalidate') !== undefined,
  formTarget: (e) => formAttr(e, 'target') ?? '',
};
const MEDIA: TagMethods = {
  autoplay: bool('autoplay'),
  controls: bool('controls'),
  loop: bool('loop'),
  muted: bool('muted'),
  defaultMuted: bool('muted'),
  preload: enumOf('preload', ['auto', 'metadata', 'none']),
  src: url('src'),
  currentSrc: str('src'),
  crossOrigin: (e) => e.getAttribute('crossorigin'),
  mediaGroup: str('mediagroup'),
};
const CELL: TagMethods = {
  colSpan: int('colspan', 1),
  rowSpan: int('rowspan', 1),
  headers: str('headers'),
  cellIndex: (e) => {
    const row = around(e, 'tr').first();
    return row.length ? row.find('th,td').index(e.node) : -1;
  },
};
const ROWS: TagMethods = { rows: (e) => elementsFor(e, within(e, 'tr')) };

/** Each tag's own methods (the DOM's HTML*Element interfaces, as k6 implements them). */
const TAGS: Record<string, TagMethods> = {
  a: HREF,
  area: HREF,
  audio: MEDIA,
  video: MEDIA,
  base: { href: url('href', 'current'), target: str('target') },
  button: {
    ...FORM_FIELD,
    accessKey: str('accesskey'),
    autofocus: bool('autofocus'),
    disabled: bool('disabled'),
    tabIndex: int('tabindex', 0),
    type: enumOf('type', ['submit', 'button', 'menu', 'reset']),
    value: (e) => valueOrHtml(e.$, e.node),
  },
  canvas: { width: int('width', 150), height: int('height', 150) },
  data: { value: str('value') },
  datalist: { options: (e) => elementsFor(e, within(e, 'option')) },
  del: { cite: str('cite'), datetime: str('datetime') },
  ins: { cite: str('cite'), datetime: str('datetime') },
  embed: { height: str('height'), width: str('width'), src: str('src'), type: str('type') },
  fieldset: {
    disabled: bool('disabled'),
    name: str('name'),
    form: ownerForm,
    type: () => 'fieldset',
    elements: (e) => elementsFor(e, within(e, 'input,select,button,textarea')),
    validity: () => undefined,
  },
  form: {
    action: url('action'),
    name: str('name'),
    target: str('target'),
    enctype: enumOf('enctype', ENCTYPES),
    encoding: enumOf('enctype', ENCTYPES),
    acceptCharset: str('accept-charset'),
    autocomplete: enumOf('autocomplete', ['on', 'off']),
    noValidate: bool('novalidate'),
    method: (e) => (e.getAttribute('method') === 'post' ? 'post' : 'get'),
    elements: (e) => elementsFor(e, within(e, FORM_FIELDS)),
    length: (e) => within(e, FORM_FIELDS).length,
  },
  iframe: {
    allowfullscreen: bool('allowfullscreen'),
    referrerPolicy: enumOf('referrerpolicy', REFERRER),
    height: str('height'),
    width: str('width'),
    name: str('name'),
    src: url('src'),
  },
  img: {
    currentSrc: url('src'),
    sizes: str('sizes'),
    srcset: str('srcset'),
    alt: str('alt'),
    crossOrigin: (e) => e.getAttribute('crossorigin'),
    height: int('height', 0),
    width: int('width', 0),
    isMap: bool('ismap'),
    name: str('name'),
    src: url('src'),
    useMap: str('usemap'),
    referrerPolicy: enumOf('referrerpolicy', REFERRER),
  },
  input: {
    ...FORM_FIELD,
    tabIndex: int('tabindex', 0),
    type: enumOf('type', INPUT_TYPES),
    disabled: bool('disabled'),
    autofocus: bool('autofocus'),
    required: bool('required'),
    value: str('value'),
    defaultValue: str('value'),
    checked: bool('checked'),
    defaultChecked: bool('checked'),
    alt: str('alt'),
    src: url('src'),
    height: str('height'),
    width: str('width'),
    accept: str('accept'),
    autocomplete: enumOf('autocomplete', ['on', 'off']),
    maxLength: int('maxlength', -1),
    size: int('size', 0),
    pattern: str('pattern'),
    placeholder: str('placeholder'),
    readonly: bool('readonly'),
    min: str('min'),
    max: str('max'),
    dirName: str('dirname'),
    accessKey: str('accesskey'),
    multiple: bool('multiple'),
    step: str('step'),
  },
  label: {
    htmlFor: str('for'),
    form: ownerForm,
    control: (e) => {
      const id = e.getAttribute('for');
      return id === undefined ? undefined : elementFor(e, inDocument(e, `[id=${quoted(id)}]`)[0]);
    },
  },
  legend: { accessKey: str('accesskey'), form: ownerForm },
  li: {
    value: int('value', 0),
    type: enumOf('type', ['', '1', 'a', 'A', 'i', 'I', 'disc', 'square', 'circle']),
  },
  link: {
    crossOrigin: (e) => e.getAttribute('crossorigin'),
    referrerPolicy: enumOf('referrerpolicy', REFERRER),
    href: url('href'),
    hreflang: str('hreflang'),
    media: str('media'),
    rel: str('rel'),
    relList: words('rel'),
    target: str('target'),
    type: str('type'),
  },
  map: { name: str('name'), areas: (e) => elementsFor(e, within(e, 'area')) },
  meta: {
    content: str('content'),
    name: str('name'),
    httpEquiv: enumOf('http-equiv', ['content-type', 'default-style', 'refresh']),
  },
  meter: {
    min: int('min', 0),
    max: int('max', 0),
    high: int('high', 0),
    low: int('low', 0),
    optimum: int('optimum', 0),
  },
  ol: { reversed: bool('reversed'), start: int('start', 0), type: enumOf('type', ['1', 'a', 'A', 'i', 'I']) },
  optgroup: { disabled: bool('disabled'), label: str('label') },
  option: {
    defaultSelected: bool('selected'),
    selected: bool('selected'),
    disabled: (e) => e.hasAttribute('disabled') || around(e, 'optgroup').is('[disabled]'),
    form: (e) => {
      const select = around(e, 'select').first();
      return select.length
        ? ownerForm(elementFor(e, select[0]) as Element)
        : elementFor(e, around(e, 'form')[0]);
    },
    index: (e) => {
      const holder = around(e, 'select,datalist').first();
      return holder.length ? holder.find('option').index(e.node) : 0;
    },
    label: (e) => e.getAttribute('label') ?? e.textContent(),
    text: (e) => e.textContent(),
    value: (e) => valueOrHtml(e.$, e.node),
  },
  output: {
    htmlFor: str('for'),
    name: str('name'),
    type: () => 'output',
    form: ownerForm,
    labels,
    value: (e) => e.textContent(),
    defaultValue: (e) => e.textContent(),
  },
  param: { name: str('name'), value: str('value') },
  pre: { name: str('name'), value: str('value') },
  progress: {
    max: (e) => progressMax(e),
    value: (e) => progress(e, 0),
    position: (e) => progress(e, -1),
    labels,
  },
  q: { cite: str('cite') },
  blockquote: { cite: str('cite') },
  script: {
    crossOrigin: str('crossorigin'),
    type: str('type'),
    src: url('src'),
    charset: str('charset'),
    async: bool('async'),
    defer: bool('defer'),
    noModule: bool('nomodule'),
    text: (e) => e.textContent(),
  },
  select: {
    autofocus: bool('autofocus'),
    disabled: bool('disabled'),
    multiple: bool('multiple'),
    name: str('name'),
    required: bool('required'),
    tabIndex: int('tabindex', 0),
    form: ownerForm,
    labels,
    length: (e) => within(e, 'option').length,
    options: (e) => elementsFor(e, within(e, 'option')),
    selectedIndex: (e) => {
      const selected = within(e, 'option[selected]');
      return selected.length ? within(e, 'option').index(selected[0]) : -1;
    },
    selectedOptions: (e) => elementsFor(e, within(e, 'option[selected]')),
    size: (e) => (e.hasAttribute('multiple') ? 4 : 1),
    type: (e) => (e.hasAttribute('multiple') ? 'select-multiple' : 'select'),
    value: (e) => {
      const selected = within(e, 'option[selected]')[0];
      return selected ? valueOrHtml(e.$, selected) : '';
    },
  },
  source: {
    keySystem: str('keysystem'),
    media: str('media'),
    sizes: str('sizes'),
    src: url('src'),
    srcset: str('srcset'),
    type: str('type'),
  },
  style: { media: str('media'), type: (e) => e.getAttribute('type') || 'text/css' },
  table: {
    ...ROWS,
    sortable: bool('sortable'),
    caption: (e) => elementFor(e, e.$(e.node).children('caption')[0]),
    tHead: (e) => elementFor(e, e.$(e.node).children('thead')[0]),
    tFoot: (e) => elementFor(e, e.$(e.node).children('tfoot')[0]),
    tBodies: (e) => elementsFor(e, within(e, 'tbody')),
  },
  thead: ROWS,
  tbody: ROWS,
  tfoot: ROWS,
  tr: {
    cells: (e) => elementsFor(e, within(e, 'th,td')),
    rowIndex: (e) => {
      const table = around(e, 'table').first();
      return table.length ? table.find('tr').index(e.node) : -1;
    },
  },
  td: CELL,
  th: {
    ...CELL,
    abbr: str('abbr'),
    scope: enumOf('scope', ['', 'row', 'col', 'colgroup', 'rowgroup']),
    sorted: bool('sorted'),
  },
  textarea: {
    ...FORM_FIELD,
    type: () => 'textarea',
    value: (e) => e.innerHTML(),
    defaultValue: (e) => e.innerHTML(),
    placeholder: str('placeholder'),
    rows: int('rows', 0),
    cols: int('cols', 0),
    maxLength: int('maxlength', 0),
    tabIndex: int('tabindex', 0),
    accessKey: str('accesskey'),
    readOnly: bool('readonly'),
    required: bool('required'),
    autocomplete: enumOf('autocomplete', ['on', 'off']),
    wrap: enumOf('wrap', ['soft', 'hard', 'off']),
  },
  time: { datetime: str('datetime') },
  title: { text: (e) => e.textContent() },
  track: {
    kind: enumOf('kind', ['subtitle', 'captions', 'descriptions', 'chapters', 'metadata']),
    src: url('src'),
    srclang: str('srclang'),
    label: str('label'),
    default: bool('default'),
  },
  ul: { type: str('type') },
};

function progressMax(e: Element): number {
  const max = Number.parseFloat(e.getAttribute('max') ?? '');
  return Number.isNaN(max) || max < 0 ? 1 : max;
}
function progress(e: Element, fallback: number): number {
  const value = Number.parseFloat(e.getAttribute('value') ?? '');
  return Number.isNaN(value) || value < 0 ? fallback : value / progressMax(e);
}

/** The Element for a node (with its tag's methods), or undefined for none. */
function elementOf($: CheerioAPI, node: AnyNode | null | undefined, url: string): Element | undefined {
  if (!node) return undefined;
  const element = new Element($, node, url);
  const methods = isElement(node) ? TAGS[node.name] : undefined;
  if (methods)
    for (const [name, fn] of Object.entries(methods))
      Object.defineProperty(element, name, {
        value: () => fn(element),
        enumerable: false,
        configurable: true,
      });
  return element;
}

function valueOrHtml($: CheerioAPI, node: AnyNode): string {
  if (isElement(node) && node.attribs.value !== undefined) return node.attribs.value;
  return $(node).html() ?? '';
}

/** jQuery's successful controls: named, enabled, not a button or file, checked if a checkbox or radio. */
function isSuccessful(node: DomElement): boolean {
  const { name, type = '', disabled, checked } = node.attribs;
  if (!name || disabled === 'disabled') return false;
  if (['submit', 'button', 'reset', 'image', 'file'].includes(type)) return false;
  return checked === 'checked' || (type !== 'checkbox' && type !== 'radio');
}

/** Go's url.QueryEscape (so k6's serialize()): spaces as '+', the rest percent-encoded. */
export function formEncode(s: string): string {
  return encodeURIComponent(s)
    .replace(/%20/g, '+')
    .replace(/[!'()*]/g, (c) => `%${c.charCodeAt(0).toString(16).toUpperCase()}`);
}

function resolveUrl(base: string, ref: string): string {
  if (!base) return ref;
  try {
    return new URL(ref, base).href;
  } catch {
    return ref;
  }
}

/** A data- attribute's value as k6 converts it: JSON objects/arrays, booleans, exact numbers; else the text. */
function dataValue(value: string): unknown {
  if (value === '' || value === 'null' || value === 'undefined') return undefined;
  if (value === 'true') return true;
  if (value === 'false') return false;
  if (value[0] === '{' || value[0] === '[') {
    try {
      return JSON.parse(value) as unknown;
    } catch {
      return value;
    }
  }
  const n = Number(value);
  // Only where the number writes back as the same text: "1E02" and "101.00" stay strings.
  return value.trim() !== '' && Number.isFinite(n) && String(n) === value ? n : value;
}
/** `data-foo-bar` → `fooBar`. */
function attrToProperty(name: string): string {
  return name.replace(/-([a-z0-9])/g, (_, c: string) => c.toUpperCase());
}
/** `fooBar` → `foo-bar`. */
function propertyToAttr(name: string): string {
  return name.replace(/([a-z0-9])([A-Z])/g, '$1-$2').toLowerCase();
}

function describeType(value: unknown): string {
  if (value === null) return 'null';
  if (Array.isArray(value)) return 'array';
  return typeof value;
}
