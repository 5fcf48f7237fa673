/**
 * The methods k6/html gives an Element of a given tag, besides every Element's (the DOM's HTML*Element
 * interfaces as k6 implements them): attribute getters with k6's types and defaults (an enumerated attribute
 * matched exactly, an integer as Go's Atoi reads it, a URL resolved as net/url resolves it against the
 * document's URL), and the computed ones (an anchor's URL parts, a form's controls, a select's options, a
 * control's owner form and labels, a row's index).
 */
import type { Cheerio, CheerioAPI } from 'cheerio';
import type { AnyNode, Element as DomElement } from 'domhandler';
import {
  formatGoUrl,
  isElement,
  parseGoUrl,
  renderNodes,
  resolveAgainst,
  splitHostPort,
  type GoUrl,
} from './html-go.ts';

/** Makes the Element of a node: a symbol, so no tag method's name can shadow it. */
export const WRAP = Symbol('k6/html element of a node');

/** What a tag method sees of its Element. */
export interface TagElement {
  readonly $: CheerioAPI;
  readonly node: DomElement;
  /** The document's URL ('' for parseHTML()). */
  readonly url: string;
  [WRAP](node: AnyNode | undefined): unknown;
}

type TagMethods = Record<string, (e: TagElement) => unknown>;

const attr = (e: TagElement, name: string): string | undefined => e.node.attribs[name];
const text = (e: TagElement) => e.$(e.node).text();
const within = (e: TagElement, selector: string) => e.$(e.node).find(selector);
const closest = (e: TagElement, selector: string) => e.$(e.node).closest(selector);
const nearestAncestor = (e: TagElement, selector: string) => e.$(e.node).parents(selector).first();
const inDocument = (e: TagElement, selector: string) => e.$.root().find(selector);
const one = (e: TagElement, nodes: Cheerio<AnyNode>) => e[WRAP](nodes[0]);
const all = (e: TagElement, nodes: Cheerio<AnyNode>) => nodes.toArray().map((n) => e[WRAP](n));
const quoted = (value: string) => `"${value.replace(/["\\]/g, '\\$&')}"`;

/** A value attribute, else the element's markup (k6's valueOrHTML). */
export function valueOrHtml(node: AnyNode): string {
  if (isElement(node) && node.attribs.value !== undefined) return node.attribs.value;
  return 'children' in node ? renderNodes(node.children) : '';
}

const str = (name: string) => (e: TagElement) => attr(e, name) ?? '';
const bool = (name: string) => (e: TagElement) => attr(e, name) !== undefined;
/** An integer as Go's strconv.Atoi reads one ("100px" and "1.5" are the default). */
const int = (name: string, fallback: number) => (e: TagElement) => {
  const value = attr(e, name);
  return value !== undefined && /^[+-]?\d+$/.test(value) ? Number(value) : fallback;
};
/** One of `options` exactly as written, else the first of them (the default). */
const oneOf =
  (name: string, options: readonly string[]) =>
  (e: TagElement): string => {
    const value = attr(e, name) ?? '';
    return options.includes(value) ? value : options[0];
  };
/** One of `options` exactly as written, else undefined. */
const oneOfOrUndefined = (name: string, options: readonly string[]) => (e: TagElement) => {
  const value = attr(e, name);
  return value !== undefined && options.includes(value) ? value : undefined;
};
/** The attribute resolved against the document's URL; without it '' (or the document's URL). */
function attrUrl(e: TagElement, name: string, fallback: 'empty' | 'current' = 'empty'): GoUrl | undefined {
  const value = attr(e, name);
  if (value === undefined) return fallback === 'current' ? parseGoUrl(e.url) : undefined;
  return resolveAgainst(e.url, value);
}
const url =
  (name: string, fallback: 'empty' | 'current' = 'empty') =>
  (e: TagElement): string => {
    const resolved = attrUrl(e, name, fallback);
    return resolved ? formatGoUrl(resolved) : fallback === 'current' ? e.url : '';
  };
/** Split on single spaces, as k6 splits `rel` (Go's strings.Split). */
const spaced = (name: string) => (e: TagElement) => {
  const value = attr(e, name);
  return value ? value.split(' ') : [];
};

const REFERRER = [
  '',
  'no-referrer',
  'no-referrer-when-downgrade',
  'origin',
  'origin-when-cross-origin',
  'unsafe-url',
];
const CROSS_ORIGIN = ['anonymous', 'use-credentials'];
const ENCTYPES = ['application/x-www-form-urlencoded', 'multipart/form-data', 'text/plain'];
const ON_OFF = ['on', 'off'];
// prettier-ignore
const INPUT_TYPES = [
  'text', 'button', 'checkbox', 'color', 'date', 'datetime-local', 'email', 'file', 'hidden', 'image', 'month',
  'number', 'password', 'radio', 'range', 'reset', 'search', 'submit', 'tel', 'time', 'url', 'week',
];
const DEFAULT_PORTS: Record<string, string> = { http: '80', https: '443', ftp: '21' };

/** The href's parts, as k6 reads them from net/url (an empty URL without a valid href). */
function href(e: TagElement): GoUrl {
  return attrUrl(e, 'href') ?? (parseGoUrl('') as GoUrl);
}
function decoded(text: string): string {
  try {
    return decodeURIComponent(text);
  } catch {
    return text;
  }
}
const HREF: TagMethods = {
  href: url('href'),
  toString: url('href'),
  download: str('download'),
  referrerPolicy: oneOf('referrerpolicy', REFERRER),
  rel: str('rel'),
  relList: spaced('rel'),
  target: str('target'),
  type: str('type'),
  accessKey: str('accesskey'),
  hrefLang: str('hreflang'),
  text,
  hash: (e) => (href(e).fragment ? `#${href(e).fragment}` : ''),
  search: (e) => (href(e).rawQuery ? `?${href(e).rawQuery}` : ''),
  pathname: (e) => decoded(href(e).path),
  protocol: (e) => href(e).scheme || ':',
  host: (e) => {
    const u = href(e);
    const split = splitHostPort(u.host);
    return split && DEFAULT_PORTS[u.scheme] === split.port ? split.hostname : u.host;
  },
  hostname: (e) => splitHostPort(href(e).host)?.hostname ?? href(e).host,
  port: (e) => splitHostPort(href(e).host)?.port ?? '',
  username: (e) => decoded((href(e).userinfo ?? '').split(':')[0]),
  password: (e) => {
    const userinfo = href(e).userinfo ?? '';
    return userinfo.includes(':') ? decoded(userinfo.slice(userinfo.indexOf(':') + 1)) : '';
  },
  origin: (e) => {
    const u = href(e);
    if (!u.scheme) return '';
    return u.scheme === 'file' ? formatGoUrl(u) : `${u.scheme}://${u.host}`;
  },
};

/** The form a control belongs to: the one around it, else the element its `form` attribute names. */
function ownerForm(e: TagElement): Cheerio<AnyNode> | undefined {
  const around = closest(e, 'form');
  if (around.length) return around;
  const id = attr(e, 'form');
  const named = id ? inDocument(e, `[id=${quoted(id)}]`).first() : undefined;
  return named?.length ? named : undefined;
}
const form = (e: TagElement) => {
  const owner = ownerForm(e);
  return owner ? one(e, owner) : undefined;
};
/** The control's `form<name>` attribute, else its form's `<name>`. */
function formAttr(e: TagElement, name: string): string | undefined {
  return attr(e, `form${name}`) ?? ownerForm(e)?.attr(name);
}
/** The label around the control first, then those naming its id. */
function labels(e: TagElement): unknown[] {
  const wrapping = closest(e, 'label').toArray();
  const id = attr(e, 'id');
  const named = id ? inDocument(e, `label[for=${quoted(id)}]`).toArray() : [];
  return [...new Set([...wrapping, ...named])].map((n) => e[WRAP](n));
}
const FORM_FIELD: TagMethods = {
  form,
  labels,
  name: str('name'),
  formAction: (e) => {
    const action = formAttr(e, 'action');
    if (!e.url) return action ?? '';
    if (!action) return e.url;
    const resolved = resolveAgainst(e.url, action);
    return resolved ? formatGoUrl(resolved) : action;
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
  preload: oneOf('preload', ['auto', 'metadata', 'none']),
  src: url('src'),
  currentSrc: str('src'),
  crossOrigin: oneOfOrUndefined('crossorigin', CROSS_ORIGIN),
  mediaGroup: str('mediagroup'),
  textTracks: (e) => all(e, within(e, 'track')),
};
const CELL: TagMethods = {
  colSpan: int('colspan', 1),
  rowSpan: int('rowspan', 1),
  headers: str('headers'),
  cellIndex: (e) => indexIn(e, nearestAncestor(e, 'tr'), 'th,td'),
};
const ROWS: TagMethods = { rows: (e) => all(e, within(e, 'tr')) };
const CITED: TagMethods = { cite: str('cite'), datetime: str('datetime') };

/** The element's position among `selector`'s matches inside `holder`; -1 without a holder. */
function indexIn(e: TagElement, holder: Cheerio<AnyNode>, selector: string, none = -1): number {
  return holder.length ? holder.find(selector).index(e.node) : none;
}
/** A number as Go's strconv.ParseFloat reads one; NaN for what it refuses ("", "1px"). */
function goFloat(text: string | undefined): number {
  return text !== undefined && /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/.test(text) ? Number(text) : NaN;
}
function progressMax(e: TagElement): number {
  const max = goFloat(attr(e, 'max'));
  return Number.isNaN(max) || max < 0 ? 1 : max;
}
function progress(e: TagElement, fallback: number): number {
  const value = goFloat(attr(e, 'value'));
  return Number.isNaN(value) || value < 0 ? fallback : value / progressMax(e);
}
const childOf = (selector: string) => (e: TagElement) => one(e, e.$(e.node).children(selector));

/** Each tag's own methods, by tag name (k6's element types). */
export const TAGS: Record<string, TagMethods> = {
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
    type: oneOf('type', ['submit', 'button', 'menu', 'reset']),
    value: (e) => valueOrHtml(e.node),
  },
  canvas: { width: int('width', 150), height: int('height', 150) },
  col: { span: (e) => Math.max(1, int('span', 1)(e)) },
  data: { value: str('value') },
  datalist: { options: (e) => all(e, within(e, 'option')) },
  del: CITED,
  ins: CITED,
  embed: { height: str('height'), width: str('width'), src: str('src'), type: str('type') },
  fieldset: {
    disabled: bool('disabled'),
    name: str('name'),
    form,
    type: () => 'fieldset',
    elements: (e) => all(e, within(e, 'input,select,button,textarea')),
    validity: () => undefined,
  },
  form: {
    action: url('action'),
    name: str('name'),
    target: str('target'),
    enctype: oneOf('enctype', ENCTYPES),
    encoding: oneOf('enctype', ENCTYPES),
    acceptCharset: str('accept-charset'),
    autocomplete: oneOf('autocomplete', ON_OFF),
    noValidate: bool('novalidate'),
    method: (e) => (attr(e, 'method') === 'post' ? 'post' : 'get'),
    elements: (e) => all(e, within(e, 'input,select,button,textarea,fieldset')),
    length: (e) => within(e, 'input,select,button,textarea,fieldset').length,
  },
  iframe: {
    allowfullscreen: bool('allowfullscreen'),
    referrerPolicy: oneOf('referrerpolicy', REFERRER),
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
    crossOrigin: oneOfOrUndefined('crossorigin', CROSS_ORIGIN),
    height: int('height', 0),
    width: int('width', 0),
    isMap: bool('ismap'),
    name: str('name'),
    src: url('src'),
    useMap: str('usemap'),
    referrerPolicy: oneOf('referrerpolicy', REFERRER),
  },
  input: {
    ...FORM_FIELD,
    tabIndex: int('tabindex', 0),
    type: oneOf('type', INPUT_TYPES),
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
    autocomplete: oneOf('autocomplete', ON_OFF),
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
    list: (e) => {
      const id = attr(e, 'list');
      if (!id || ['hidden', 'checkbox', 'radio', 'file', 'button'].includes(attr(e, 'type') ?? ''))
        return undefined;
      return one(e, inDocument(e, `datalist[id=${quoted(id)}]`));
    },
  },
  keygen: {
    autofocus: bool('autofocus'),
    challenge: str('challenge'),
    disabled: bool('disabled'),
    keytype: oneOf('keytype', ['RSA', 'DSA', 'EC']),
    name: str('name'),
    type: () => 'keygen',
    form,
    labels,
  },
  label: {
    htmlFor: str('for'),
    form,
    control: (e) => {
      const id = attr(e, 'for');
      return id === undefined ? undefined : one(e, inDocument(e, `[id=${quoted(id)}]`));
    },
  },
  legend: { accessKey: str('accesskey'), form },
  li: {
    value: int('value', 0),
    type: oneOf('type', ['', '1', 'a', 'A', 'i', 'I', 'disc', 'square', 'circle']),
  },
  link: {
    crossOrigin: oneOfOrUndefined('crossorigin', CROSS_ORIGIN),
    referrerPolicy: oneOf('referrerpolicy', REFERRER),
    href: url('href'),
    hreflang: str('hreflang'),
    media: str('media'),
    rel: str('rel'),
    relList: spaced('rel'),
    target: str('target'),
    type: str('type'),
  },
  map: {
    name: str('name'),
    areas: (e) => all(e, within(e, 'area')),
    images: (e) => {
      const name = attr(e, 'id') || attr(e, 'name');
      if (!name) return [];
      const usemap = quoted(`#${name}`);
      return all(e, inDocument(e, `img[usemap=${usemap}],object[usemap=${usemap}]`));
    },
  },
  meta: {
    content: str('content'),
    name: str('name'),
    httpEquiv: oneOf('http-equiv', ['content-type', 'default-style', 'refresh']),
  },
  meter: {
    min: int('min', 0),
    max: int('max', 0),
    high: int('high', 0),
    low: int('low', 0),
    optimum: int('optimum', 0),
    labels,
  },
  object: {
    data: url('data'),
    height: str('height'),
    name: str('name'),
    type: str('type'),
    tabIndex: int('tabindex', 0),
    typeMustMatch: bool('typemustmatch'),
    useMap: str('usemap'),
    width: str('width'),
    form,
  },
  ol: { reversed: bool('reversed'), start: int('start', 0), type: oneOf('type', ['1', 'a', 'A', 'i', 'I']) },
  optgroup: { disabled: bool('disabled'), label: str('label') },
  option: {
    defaultSelected: bool('selected'),
    selected: bool('selected'),
    disabled: (e) => attr(e, 'disabled') !== undefined || e.$(e.node).parents('optgroup').is('[disabled]'),
    form: (e) => {
      const around = closest(e, 'form');
      if (around.length) return one(e, around);
      const id = e.$(e.node).parents('select').attr('form');
      return id ? one(e, inDocument(e, `form[id=${quoted(id)}]`)) : undefined;
    },
    index: (e) => indexIn(e, nearestAncestor(e, 'select,datalist'), 'option', 0),
    label: (e) => attr(e, 'label') ?? text(e),
    text,
    value: (e) => valueOrHtml(e.node),
  },
  output: {
    htmlFor: str('for'),
    name: str('name'),
    type: () => 'output',
    form,
    labels,
    value: text,
    defaultValue: text,
  },
  param: { name: str('name'), value: str('value') },
  pre: { name: str('name'), value: str('value') },
  progress: {
    max: progressMax,
    value: (e) => progress(e, 0),
    position: (e) => progress(e, -1),
    labels,
  },
  quote: { cite: str('cite') },
  script: {
    crossOrigin: str('crossorigin'),
    type: str('type'),
    src: url('src'),
    charset: str('charset'),
    async: bool('async'),
    defer: bool('defer'),
    noModule: bool('nomodule'),
    text,
  },
  select: {
    autofocus: bool('autofocus'),
    disabled: bool('disabled'),
    multiple: bool('multiple'),
    name: str('name'),
    required: bool('required'),
    tabIndex: int('tabindex', 0),
    form,
    labels,
    length: (e) => within(e, 'option').length,
    options: (e) => all(e, within(e, 'option')),
    selectedIndex: (e) => {
      const selected = within(e, 'option[selected]');
      return selected.length ? within(e, 'option').index(selected[0]) : -1;
    },
    selectedOptions: (e) => all(e, within(e, 'option[selected]')),
    size: (e) => (attr(e, 'multiple') !== undefined ? 4 : 1),
    type: (e) => (attr(e, 'multiple') !== undefined ? 'select-multiple' : 'select'),
    value: (e) => {
      const selected = within(e, 'option[selected]')[0];
      return selected ? valueOrHtml(selected) : '';
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
  style: { media: str('media'), type: (e) => attr(e, 'type') || 'text/css' },
  table: {
    ...ROWS,
    sortable: bool('sortable'),
    caption: childOf('caption'),
    tHead: childOf('thead'),
    tFoot: childOf('tfoot'),
    tBodies: (e) => all(e, within(e, 'tbody')),
  },
  thead: ROWS,
  tbody: ROWS,
  tfoot: ROWS,
  tr: {
    cells: (e) => all(e, within(e, 'th,td')),
    rowIndex: (e) => indexIn(e, nearestAncestor(e, 'table'), 'tr'),
    sectionRowIndex: (e) => indexIn(e, nearestAncestor(e, 'thead,tbody,tfoot'), 'tr'),
  },
  td: CELL,
  th: {
    ...CELL,
    abbr: str('abbr'),
    scope: oneOf('scope', ['', 'row', 'col', 'colgroup', 'rowgroup']),
    sorted: bool('sorted'),
  },
  textarea: {
    type: () => 'textarea',
    value: str('value'),
    defaultValue: str('value'),
    length: (e) => Buffer.byteLength(attr(e, 'value') ?? ''),
    placeholder: str('placeholder'),
    rows: int('rows', 0),
    cols: int('cols', 0),
    maxLength: int('maxlength', 0),
    tabIndex: int('tabindex', 0),
    accessKey: str('accesskey'),
    readOnly: bool('readonly'),
    required: bool('required'),
    autocomplete: oneOf('autocomplete', ON_OFF),
    autocapitalize: oneOf('autocapitalize', ['sentences', 'none', 'off', 'characters', 'words']),
    wrap: oneOf('wrap', ['soft', 'hard', 'off']),
    form,
    labels,
  },
  time: { datetime: str('datetime') },
  title: { text },
  track: {
    kind: oneOf('kind', ['subtitle', 'captions', 'descriptions', 'chapters', 'metadata']),
    src: url('src'),
    srclang: str('srclang'),
    label: str('label'),
    default: bool('default'),
  },
  ul: { type: str('type') },
};
