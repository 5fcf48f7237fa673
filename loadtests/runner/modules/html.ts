/**
 * k6/html: `parseHTML(src)` and `res.html()` give a Selection, k6's jQuery-like API (goquery in k6), and
 * `Selection.get()` gives Elements with DOM-like methods (`nodeName()`, `textContent()`, and each tag's own:
 * html-tags.ts). Cheerio does the parsing and selecting: jQuery's API over parse5, an HTML5 tree builder as
 * Go's x/net/html is, so a fragment gets its implied html/head/body as in k6. This file gives cheerio's
 * results k6's shapes: methods instead of properties, `undefined` where k6 answers it, k6's rules for
 * `val()`, `data()`, `map()` and form serialisation, and markup written as Go writes it (html-go.ts).
 */
import { createRequire } from 'node:module';
import path from 'node:path';
import type { Cheerio, CheerioAPI, CheerioOptions } from 'cheerio';
import type { AnyNode, Element as DomElement } from 'domhandler';
import { formatFloatF, isElement, renderNodes } from './html-go.ts';
import { TAGS, WRAP, valueOrHtml, type TagElement } from './html-tags.ts';

type Load = (src: string, options?: CheerioOptions) => CheerioAPI;

/**
 * Cheerio is loaded on a VU's first parseHTML(), not bundled into the VU thread's code, as tough-cookie is
 * (modules/cookies.ts): most scripts never parse HTML. Its `load-parse.js` is loaded, not its main file: the
 * main file also loads undici for `fromURL()` (176 ms to require on this machine, against 65 ms).
 */
let cheerioPath: string | undefined;
let load: Load | undefined;
export function setCheerioPath(file: string): void {
  cheerioPath = file;
}
/** Where cheerio's parse5 loader is, for a VU thread (resolved from this file). */
export function resolveCheerio(): string {
  return path.join(path.dirname(createRequire(__filename).resolve('cheerio')), 'load-parse.js');
}
function cheerioLoad(): Load {
  if (!load) {
    const file = cheerioPath ?? resolveCheerio();
    load = (createRequire(file)(file) as { load: Load }).load;
  }
  return load;
}

/** The own text of an element (its text children, not its descendants'), as cascadia's `…Own` pseudos read it. */
const ownText = (el: DomElement) => el.children.map((c) => (c.type === 'text' ? c.data : '')).join('');
const unquoted = (value: string | null | undefined) => (value ?? '').replace(/^(["'])(.*)\1$/, '$2');
/** Cascadia's pseudo-classes (k6's selector engine) that css-select does not have. */
const PSEUDOS: CheerioOptions['pseudos'] = {
  containsown: (el, value) => ownText(el).includes(unquoted(value)),
  matchesown: (el, value) => new RegExp(unquoted(value)).test(ownText(el)),
};

const XHTML = 'http://www.w3.org/1999/xhtml';
const SUBMITTABLE = 'input,select,textarea,keygen';

/** k6's message for a value that is not a selector (goquery's Go type name there, the JS type here). */
function notASelector(value: unknown): Error {
  const type = value === null ? 'null' : Array.isArray(value) ? 'array' : typeof value;
  return new Error(`invalid argument, cannot use a '${type}' as a selector`);
}

/** A k6/html Selection: its methods are k6's (mimicking jQuery's), over a cheerio selection. */
export class Selection {
  constructor(
    /** @internal The document's cheerio. */
    readonly $: CheerioAPI,
    /** @internal The underlying cheerio selection. */
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
    throw notASelector(arg);
  }

  /** A function's answer for each element (index, Selection of it), as k6 calls filter/is/not functions. */
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
    const nodes = 'toArray' in target ? target.toArray() : [target];
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
      throw new Error('the argument to filter() must be a function, a selector or a selection');
    return this.make(this.sel.filter(this.matcher(arg as (i: number, s: Selection) => unknown)));
  }
  is(arg: unknown): boolean {
    if (typeof arg === 'string') return this.sel.is(arg);
    if (arg instanceof Selection) return this.sel.is(arg.sel);
    if (typeof arg !== 'function')
      throw new Error('the argument to is() must be a function, a selector or a selection');
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
    throw notASelector(arg);
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
  /** The first element's inner HTML as Go writes it; '' for an empty selection (goquery's answer). */
  html(): string {
    const node = this.sel[0];
    return node && 'children' in node ? renderNodes(node.children) : '';
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
        return valueOrHtml(node);
      case 'select': {
        const selected = this.$(node).find('option[selected]').toArray();
        if (attr('multiple') !== undefined) return selected.map((o) => valueOrHtml(o));
        return selected.length ? valueOrHtml(selected[0]) : '';
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
    if (typeof fn !== 'function') throw new Error('the argument to each() must be a function');
    this.sel.toArray().forEach((node, i) => {
      try {
        (fn as (i: number, e: Element | undefined) => unknown)(i, elementOf(this.$, node, this.url));
      } catch (err) {
        throw new Error(
          `the function passed to each() failed: ${err instanceof Error ? err.message : String(err)}`,
        );
      }
    });
    return this;
  }
  /** `fn(index, selection)`'s answer for each element, as k6 returns them (an element whose call throws: none). */
  map(fn: unknown): unknown[] {
    if (typeof fn !== 'function') throw new Error('the argument to map() must be a function');
    const out: unknown[] = [];
    this.sel.toArray().forEach((node, i) => {
      try {
        out.push((fn as (i: number, s: Selection) => unknown)(i, this.make(this.$(node))));
      } catch {
        // k6 leaves out an element whose function failed.
      }
    });
    return out;
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
  const $ = cheerioLoad()(String(src ?? ''), { pseudos: PSEUDOS });
  return new Selection($, $.root() as Cheerio<AnyNode>, url);
}

export function createHtmlModule() {
  return { parseHTML: (src: unknown) => parseHTML(src) };
}

/** An attribute of `Element.attributes()` / `getAttributeNode()`, with k6's fields and methods. */
class Attribute {
  constructor(
    readonly name: string,
    readonly value: string,
    readonly owner_element: Element,
  ) {}
  localName(): string {
    return this.name.includes(':') ? this.name.slice(this.name.indexOf(':') + 1) : this.name;
  }
  prefix(): string {
    return this.name.includes(':') ? this.name.slice(0, this.name.indexOf(':')) : '';
  }
  /** As k6 maps a prefix: svg's and MathML's namespaces, else XHTML's. */
  namespaceURI(): string {
    const prefix = this.prefix();
    return prefix === 'svg'
      ? 'http://www.w3.org/2000/svg'
      : prefix === 'math'
        ? 'http://www.w3.org/1998/Math/MathML'
        : XHTML;
  }
}

const NODE_TYPES: Record<string, number> = {
  tag: 1,
  script: 1,
  style: 1,
  text: 3,
  comment: 8,
  root: 9,
  directive: 10,
};

/** A node of a parsed document, with k6's Element methods; a tag's own methods are added by elementOf(). */
export class Element implements TagElement {
  constructor(
    /** @internal The document's cheerio. */
    readonly $: CheerioAPI,
    /** @internal The underlying node (an element for TagElement's methods; any node otherwise). */
    readonly node: DomElement,
    /** @internal The document's URL ('' for parseHTML()). */
    readonly url: string,
  ) {}

  [WRAP](node: AnyNode | null | undefined): Element | undefined {
    return elementOf(this.$, node, this.url);
  }

  /** The Selection of this element alone. */
  selection(): Selection {
    return new Selection(this.$, this.$(this.node), this.url);
  }
  nodeName(): string {
    const n = this.node as AnyNode;
    if (isElement(n)) return n.name;
    if (n.type === 'text') return '#text';
    if (n.type === 'comment') return '#comment';
    if (n.type === 'root') return '#document';
    return n.type === 'directive' ? 'html' : `#${n.type}`;
  }
  nodeType(): number | undefined {
    return NODE_TYPES[this.node.type];
  }
  nodeValue(): string | undefined {
    const n = this.node as AnyNode;
    return n.type === 'text' || n.type === 'comment' ? n.data : undefined;
  }
  id(): string | undefined {
    return this.getAttribute('id');
  }
  innerHTML(): string {
    return 'children' in this.node ? renderNodes(this.node.children) : '';
  }
  textContent(): string {
    const n = this.node as AnyNode;
    return n.type === 'comment' ? n.data : this.$(n).text();
  }
  ownerDocument(): Element | undefined {
    let n: AnyNode | null = this.node;
    while (n && n.type !== 'root') n = n.parent;
    return this[WRAP](n);
  }
  attributes(): Record<string, Attribute> {
    const attrs: Record<string, Attribute> = {};
    for (const name of Object.keys(this.node.attribs ?? {}))
      attrs[name] = new Attribute(name, this.node.attribs[name], this);
    return attrs;
  }
  getAttributeNode(name: string): Attribute | undefined {
    const value = this.getAttribute(name);
    return value === undefined ? undefined : new Attribute(name, value, this);
  }
  getAttribute(name: string): string | undefined {
    return isElement(this.node) ? this.node.attribs[name] : undefined;
  }
  hasAttribute(name: string): boolean {
    return this.getAttribute(name) !== undefined;
  }
  hasAttributes(): boolean {
    return isElement(this.node) && Object.keys(this.node.attribs).length > 0;
  }
  hasChildNodes(): boolean {
    return 'children' in this.node && this.node.children.length > 0;
  }
  firstChild(): Element | undefined {
    return 'children' in this.node ? this[WRAP](this.node.children[0]) : undefined;
  }
  lastChild(): Element | undefined {
    return 'children' in this.node ? this[WRAP](this.node.children.at(-1)) : undefined;
  }
  firstElementChild(): Element | undefined {
    return this[WRAP](this.$(this.node).children().first()[0]);
  }
  lastElementChild(): Element | undefined {
    return this[WRAP](this.$(this.node).children().last()[0]);
  }
  previousSibling(): Element | undefined {
    return this[WRAP](this.node.prev);
  }
  nextSibling(): Element | undefined {
    return this[WRAP](this.node.next);
  }
  previousElementSibling(): Element | undefined {
    return this[WRAP](this.$(this.node).prev()[0]);
  }
  nextElementSibling(): Element | undefined {
    return this[WRAP](this.$(this.node).next()[0]);
  }
  parentNode(): Element | undefined {
    return this[WRAP](this.node.parent);
  }
  parentElement(): Element | undefined {
    const parent = this.node.parent;
    return parent && isElement(parent) ? this[WRAP](parent) : undefined;
  }
  childNodes(): Element[] {
    return this.#wrapAll(this.$(this.node).contents());
  }
  children(): Element[] {
    return this.#wrapAll(this.$(this.node).children());
  }
  childElementCount(): number {
    return this.$(this.node).children().length;
  }
  classList(): string[] {
    return (this.getAttribute('class') ?? '').split(/\s+/).filter(Boolean);
  }
  className(): string | undefined {
    return this.getAttribute('class');
  }
  lang(): string | undefined {
    return this.getAttribute('lang');
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
  /** As k6 compares them: by their inner HTML. */
  isEqualNode(other: unknown): boolean {
    return other instanceof Element && other.innerHTML() === this.innerHTML();
  }
  contains(other: unknown): boolean {
    return (
      other instanceof Element &&
      other.node !== this.node &&
      'children' in this.node &&
      this.$.contains(this.node, other.node)
    );
  }
  matches(selector: string): boolean {
    return this.$(this.node).is(selector);
  }
  getElementsByClassName(name: string): Element[] {
    return this.querySelectorAll(`.${name}`);
  }
  getElementsByTagName(name: string): Element[] {
    return this.querySelectorAll(name);
  }
  querySelector(selector: string): Element | undefined {
    return this[WRAP](this.$(this.node).find(selector)[0]);
  }
  querySelectorAll(selector: string): Element[] {
    return this.#wrapAll(this.$(this.node).find(selector));
  }
  #wrapAll(nodes: Cheerio<AnyNode>): Element[] {
    return nodes.toArray().map((n) => this[WRAP](n) as Element);
  }
}

/** The Element for a node (with its tag's methods), or undefined for none. */
function elementOf($: CheerioAPI, node: AnyNode | null | undefined, url: string): Element | undefined {
  if (!node) return undefined;
  const element = new Element($, node as DomElement, url);
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

/**
 * A data- attribute's value as k6 converts it: JSON objects/arrays, booleans, numbers that Go writes back as
 * the same text (FormatFloat 'f': "0.0000001" and "-0" are numbers, "1E02" and "101.00" stay text).
 */
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
  const n = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(value) ? Number(value) : NaN;
  return Number.isFinite(n) && formatFloatF(n) === value ? n : value;
}

/** golint's initialisms, which snaker (k6's data() key naming) writes in capitals: data-test-id → testID. */
// prettier-ignore
const INITIALISMS = new Set([
  'ACL', 'API', 'ASCII', 'CPU', 'CSS', 'DNS', 'EOF', 'GUID', 'HTML', 'HTTP', 'HTTPS', 'ID', 'IP', 'JSON', 'LHS', 'QPS',
  'RAM', 'RHS', 'RPC', 'SLA', 'SMTP', 'SQL', 'SSH', 'TCP', 'TLS', 'TTL', 'UDP', 'UI', 'UID', 'UUID', 'URI', 'URL',
  'UTF8', 'VM', 'XML', 'XMPP', 'XSRF', 'XSS',
]);
/** `data-foo-bar` → `fooBar`, `data-test-id` → `testID`: the first word as written, then snaker's camel case. */
function attrToProperty(name: string): string {
  const [first, ...rest] = name.split('-');
  return (
    first +
    rest
      .filter(Boolean)
      .map((w) => (INITIALISMS.has(w.toUpperCase()) ? w.toUpperCase() : w[0].toUpperCase() + w.slice(1)))
      .join('')
  );
}
/** `fooBar` → `foo-bar`, `testID` → `test-id`, `myHTTPServer` → `my-http-server`. */
function propertyToAttr(name: string): string {
  return name
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1-$2')
    .replace(/([a-z0-9])([A-Z])/g, '$1-$2')
    .toLowerCase();
}
