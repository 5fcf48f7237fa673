/**
 * Safe, position-reporting XML reading on top of saxes (a strict, non-validating XML 1.0 parser). Safe means:
 * no DOCTYPE at all (so no external entities and no entity-expansion bombs: saxes only knows the five
 * predefined entities, and KML/GPX never need a DTD), a bounded element depth, UTF-8 or UTF-16 only, and every
 * well-formedness error reported as a 400 with its line and column. Positions are UTF-16 offsets into the
 * decoded text, so callers can rewrite exactly the spans they care about.
 */
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { InvalidRequestError } from '../errors';
import { decimalNumber } from '../request/decimal';
import { HeightOverflowError } from './height-slot';
import type { TextEdit } from './text-edits';
import { EIGHT_BIT_ENCODING, LEADING_XML_DECLARATION } from './text-encoding';

/** Deeper than any real KML/GPX (folders in folders); bounds the parser's stack and ours. */
export const MAX_XML_DEPTH = 100;

export interface XmlElement {
  readonly name: string;
  readonly prefix: string;
  readonly local: string;
  readonly uri: string;
  readonly attributes: Readonly<Record<string, string>>;
  /** Offset of '<' of the start tag, and just past its '>' (or '/>'). */
  readonly start: number;
  readonly openEnd: number;
  readonly selfClosing: boolean;
  readonly parent: XmlElement | null;
}

/** The element's content between its tags: raw span and the text it decodes to (entities, CDATA resolved). */
export interface XmlContent {
  readonly start: number;
  readonly end: number;
  readonly text: string;
}

export interface XmlVisitor {
  open?(element: XmlElement): void;
  /** `end` is the offset just past the end tag; `content` is given for elements `wantsText` answered true for. */
  close?(element: XmlElement, end: number, content: XmlContent | null): void;
  wantsText?(element: XmlElement): boolean;
}

export class XmlSyntaxError extends InvalidRequestError {}

export function scanXml(document: string, visitor: XmlVisitor): void {
  const text = declarationFirst(document);
  const parser = new SaxesParser({ xmlns: true, position: true });
  const stack: { element: XmlElement; text: string[] | null }[] = [];
  let tagStart = 0;
  // What the visitor throws is its own answer (a VRT's refusal, a 413), passed on as it is, never called bad XML.
  let visitorError: unknown = undefined;
  const visit = (call: () => void) => {
    try {
      call();
    } catch (error) {
      visitorError = error;
      throw error;
    }
  };
  parser.on('xmldecl', (decl) => checkEncoding(decl.encoding));
  parser.on('doctype', () => {
    throw new XmlSyntaxError(
      `The file has a DOCTYPE declaration at line ${parser.line}: DTDs are not accepted (they enable external entities and entity-expansion attacks, and KML, GPX and TCX never need one). Remove the <!DOCTYPE …> line.`,
    );
  });
  parser.on('opentagstart', (tag) => {
    // position is one past the character after the name, so a match starting there would be the next tag.
    tagStart = text.lastIndexOf(`<${tag.name}`, parser.position - 1);
    if (stack.length >= MAX_XML_DEPTH) {
      throw new XmlSyntaxError(
        `The file nests elements deeper than ${MAX_XML_DEPTH} levels (line ${parser.line}).`,
      );
    }
  });
  parser.on('opentag', (tag: SaxesTagNS) => {
    const element: XmlElement = {
      name: tag.name,
      prefix: tag.prefix,
      local: tag.local,
      uri: tag.uri,
      attributes: Object.fromEntries(Object.values(tag.attributes).map((a) => [a.name, a.value])),
      start: tagStart,
      openEnd: parser.position,
      selfClosing: tag.isSelfClosing,
      parent: stack.length === 0 ? null : stack[stack.length - 1].element,
    };
    stack.push({ element, text: visitor.wantsText?.(element) ? [] : null });
    visit(() => visitor.open?.(element));
  });
  const collect = (chunk: string) => stack[stack.length - 1]?.text?.push(chunk);
  parser.on('text', collect);
  parser.on('cdata', collect);
  parser.on('closetag', () => {
    const frame = stack.pop();
    if (!frame) return;
    const { element } = frame;
    const closeStart = element.selfClosing ? element.openEnd : text.lastIndexOf('</', parser.position - 1);
    const content = frame.text
      ? { start: element.openEnd, end: closeStart, text: frame.text.join('') }
      : null;
    visit(() => visitor.close?.(element, parser.position, content));
  });
  try {
    parser.write(text).close();
  } catch (error) {
    if (error === visitorError || error instanceof InvalidRequestError) throw error;
    throw new XmlSyntaxError(`The file is not well-formed XML: ${(error as Error).message}`);
  }
}

/**
 * Whitespace before the XML declaration (Strava's exports, LEADING_XML_DECLARATION): the declaration is read as if
 * it came first. Whitespace after it is allowed, and the text is as long as before, so every element's offsets are
 * the document's own (the answer keeps the spaces: the file comes back as it came).
 */
function declarationFirst(text: string): string {
  const match = LEADING_XML_DECLARATION.exec(text);
  return match ? match[2] + match[1] + text.slice(match[0].length) : text;
}

/**
 * The declaration must name an encoding the text can have been decoded from (text-encoding.ts tells UTF-8 from
 * UTF-16 by the bytes, and reads a single-byte encoding a declaration names as 8-bit text). A UTF-16 label on
 * UTF-8 bytes (what .NET writes through a StringWriter, which libxml2 refuses as "Document labelled UTF-16 but has
 * UTF-8 content") or a UTF-8 label on UTF-16 bytes (a file re-saved by PowerShell) is read as the bytes are: they
 * can be read no other way, and the label is left as it is. Any other encoding (Shift_JIS, GB18030: several bytes
 * a character) would need a decoder for it.
 */
function checkEncoding(encoding: string | undefined): void {
  if (encoding === undefined || /^(utf-?8|us-ascii|utf-?16(le|be)?)$/i.test(encoding)) return;
  if (EIGHT_BIT_ENCODING.test(encoding)) return;
  throw new XmlSyntaxError(
    `The file declares encoding '${encoding}': only UTF-8, UTF-16 and single-byte encodings (ISO-8859-1, Windows-1252 …) are accepted. Save it as UTF-8 (Google Earth and GPS apps do by default).`,
  );
}

/**
 * A child given twice where its schema allows one (a GPX point's <ele>, a TCX point's <AltitudeMeters>): readers
 * take the first, so filling another would leave them the old value; and two would share one edit.
 */
export function moreThanOne(text: string, parent: XmlElement, child: XmlElement): InvalidRequestError {
  return new InvalidRequestError(
    `<${parent.name}> at line ${lineAt(text, parent.start)} has more than one <${child.name}>.`,
  );
}

/** 1-based line of an offset, for messages only (a linear scan, run once per error). */
export function lineAt(text: string, offset: number): number {
  let line = 1;
  for (let i = text.indexOf('\n'); i !== -1 && i < offset; i = text.indexOf('\n', i + 1)) line++;
  return line;
}

/**
 * The edit that makes an element's content `text`: its content replaced, or a self-closed element (`<ele/>`,
 * whose empty content has no room between tags) written whole, its name and prefix kept.
 */
export function setContent(element: XmlElement, content: XmlContent, text: string): TextEdit {
  if (!element.selfClosing) return { start: content.start, end: content.end, replacement: text };
  return {
    start: element.start,
    end: element.openEnd,
    replacement: `<${element.name}>${text}</${element.name}>`,
  };
}

/**
 * The edit that removes an element (`end`: just past its end tag) with the whitespace before it, so the line it
 * stood on goes with it and its neighbours keep their indentation.
 */
export function removeElement(text: string, element: XmlElement, end: number): TextEdit {
  let start = element.start;
  while (start > 0 && /\s/.test(text[start - 1])) start--;
  return { start, end, replacement: '' };
}

/**
 * Whether an element is the format's own, not an extension's: in one of its `known` namespaces, or in the one its
 * root carries. Apps write near-misses (`…/GPX/1/1/`, `…/kml/2.2/` with a trailing slash) that OGR and GPSBabel
 * read, and a file whose elements were all of a namespace not listed was answered "no coordinates". Extensions'
 * namespaces differ from the root's, so their elements stay out; one in `extensions` stays out even as the root's.
 */
export function formatNamespaces(
  known: readonly string[],
  root: XmlElement,
  extensions: readonly string[] = [],
): (e: XmlElement) => boolean {
  const namespaces = new Set([...known, ...(extensions.includes(root.uri) ? [] : [root.uri])]);
  return (e) => namespaces.has(e.uri);
}

/**
 * An element's characters as a span of the text an edit can rewrite: its content when that is plain text, or the
 * inside of its one CDATA section (XML whitespace around it allowed), as some exporters wrap coordinates and
 * heights and OGR and GPSBabel read them. Numbers written inside a CDATA section keep the file valid (they never
 * hold `]]>`). Null for any other markup: a comment, an entity reference, several sections or text beside one,
 * whose characters are not one span.
 */
export function characterSpan(text: string, content: XmlContent): XmlContent | null {
  const raw = text.slice(content.start, content.end);
  if (!/[<&]/.test(raw)) return content;
  const open = raw.indexOf('<![CDATA[');
  const inside = open + '<![CDATA['.length;
  const close = raw.indexOf(']]>', inside);
  const xmlSpace = /^[ \t\r\n]*$/;
  if (
    open === -1 ||
    close === -1 ||
    !xmlSpace.test(raw.slice(0, open)) ||
    !xmlSpace.test(raw.slice(close + 3))
  ) {
    return null;
  }
  return { start: content.start + inside, end: content.start + close, text: raw.slice(inside, close) };
}

/**
 * The span of the height an element's text holds (GPX `<ele>`, TCX `<AltitudeMeters>`; characterSpan), where a
 * new height is written. Other markup inside is a 400 (`what` names the element for the message).
 */
export function heightSpan(text: string, content: XmlContent | null, what: () => string): XmlContent | null {
  if (content === null) return null;
  const span = characterSpan(text, content);
  if (span === null) {
    throw new InvalidRequestError(`The ${what()} contains markup: write the height as plain text.`);
  }
  return span;
}

/**
 * The height a span holds (heightSpan): a number, or null when empty or not a number. Decimal text beyond the
 * double range (`1e400`) is a 400 naming `what()` (the element and its line): no placeholder but a damaged number
 * OGR and GPSBabel read as infinity; read as no height, a point without data kept it in a file answered as filled.
 */
export function textHeight(span: XmlContent | null, what: () => string): number | null {
  if (span === null) return null;
  const value = decimalNumber(span.text);
  if (value === Infinity || value === -Infinity) {
    throw new HeightOverflowError(`The ${what()} holds ${span.text.trim()}`);
  }
  return Number.isNaN(value) ? null : value;
}
