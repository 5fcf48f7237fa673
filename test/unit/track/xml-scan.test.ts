import { applyEdits } from '../../../layers/elevation/track/text-edits';
import {
  MAX_XML_DEPTH,
  XmlSyntaxError,
  lineAt,
  scanXml,
  type XmlContent,
  type XmlElement,
} from '../../../layers/elevation/track/xml-scan';

function spans(text: string) {
  const found: { name: string; start: number; end: number; content: XmlContent | null }[] = [];
  scanXml(text, {
    wantsText: () => true,
    close: (e: XmlElement, end, content) => found.push({ name: e.name, start: e.start, end, content }),
  });
  return found;
}

describe('scanXml positions', () => {
  it('gives exact element and content spans in compact XML, where tags touch', () => {
    const text = '<a><a>x</a><b/><c >y</c ><a>z</a></a>';
    const found = spans(text);
    for (const { name, start, end } of found) {
      expect(text.slice(start, end)).toMatch(new RegExp(`^<${name}[\\s\\S]*(</${name}\\s*>|/>)$`));
    }
    const leaves = found.slice(0, 4);
    for (const { content } of leaves) expect(text.slice(content!.start, content!.end)).toBe(content!.text);
    expect(found.map((f) => f.content?.text)).toEqual(['x', '', 'y', 'z', '']);
    expect(found.map((f) => f.name)).toEqual(['a', 'b', 'c', 'a', 'a']);
  });

  it('counts offsets in UTF-16 code units, so astral characters and CRLF keep spans exact', () => {
    const text = '<r>\r\n<n>😀é</n><v>1</v></r>';
    const v = spans(text).find((f) => f.name === 'v')!;
    expect(text.slice(v.content!.start, v.content!.end)).toBe('1');
  });

  it("reads Strava's exports, with spaces before the XML declaration, at the document's own offsets", () => {
    const text = '          <?xml version="1.0" encoding="UTF-8"?>\n<r><v>1</v></r>';
    const v = spans(text).find((f) => f.name === 'v')!;
    expect(text.slice(v.start, v.end)).toBe('<v>1</v>');
    expect(text.slice(v.content!.start, v.content!.end)).toBe('1');
    // Only whitespace before it: anything else before the declaration stays an error.
    expect(() => spans('x<?xml version="1.0"?><r/>')).toThrow(/not well-formed XML/);
    expect(() => spans('<!-- c --><?xml version="1.0"?><r/>')).toThrow(/not well-formed XML/);
  });

  it('decodes entities and CDATA in content text while the raw span keeps them', () => {
    const text = '<r><v>a&amp;<![CDATA[<b>]]></v></r>';
    const v = spans(text).find((f) => f.name === 'v')!;
    expect(v.content!.text).toBe('a&<b>');
    expect(text.slice(v.content!.start, v.content!.end)).toBe('a&amp;<![CDATA[<b>]]>');
  });

  it.each([
    ['<!DOCTYPE r><r/>', /DOCTYPE/],
    ['<r>&nope;</r>', /undefined entity/],
    ['<r><s></r>', /not well-formed XML: 1:\d+/],
  ])('refuses %j with a 400', (text, message) => {
    expect(() => spans(text)).toThrow(message);
  });
});

describe('applyEdits', () => {
  it('replaces and inserts by span, leaving every other character', () => {
    expect(
      applyEdits('a,b,0 c,d', [
        { start: 9, end: 9, replacement: ',7' },
        { start: 4, end: 5, replacement: '12.5' },
      ]),
    ).toBe('a,b,12.5 c,d,7');
  });

  it('refuses overlapping edits instead of corrupting the text', () => {
    expect(() =>
      applyEdits('abcdef', [
        { start: 1, end: 4, replacement: 'x' },
        { start: 3, end: 5, replacement: 'y' },
      ]),
    ).toThrow(RangeError);
  });
});

describe('scanXml limits and refusals', () => {
  const nested = (depth: number) => `${'<n>'.repeat(depth)}${'</n>'.repeat(depth)}`;

  it('reads elements nested exactly 100 levels deep, and refuses 101, naming the line', () => {
    let deepest = 0;
    scanXml(nested(MAX_XML_DEPTH), { open: () => deepest++ });
    expect(deepest).toBe(100);
    expect(() => scanXml(`\n\n${nested(MAX_XML_DEPTH + 1)}`, {})).toThrow(
      new XmlSyntaxError('The file nests elements deeper than 100 levels (line 3).'),
    );
  });

  it('takes a visitor that has only some of its callbacks', () => {
    const closed: string[] = [];
    expect(() => scanXml('<a><b>x</b></a>', {})).not.toThrow();
    scanXml('<a><b>x</b></a>', { close: (e) => closed.push(e.name) });
    expect(closed).toEqual(['b', 'a']);
  });

  it('gives the start of an element directly followed by one of the same name', () => {
    const starts: number[] = [];
    scanXml('<a><a/><a></a></a>', { open: (e) => starts.push(e.start) });
    expect(starts).toEqual([0, 3, 7]);
  });

  // The text is decoded already (text-encoding.ts tells UTF-8 from UTF-16 by the bytes): any label of those two
  // is taken, even on text decoded from the other (.NET labels UTF-8 output UTF-16; PowerShell re-saves as UTF-16).
  // A single-byte encoding was read as 8-bit text, byte for byte (text-encoding.ts: decodeText's 'declared').
  it.each([
    ...['UTF-8', 'utf8', 'US-ASCII', 'UTF-16', 'utf-16', 'UTF16', 'UTF-16LE', 'utf-16be'],
    ...['ISO-8859-1', 'iso8859-15', 'ISO_8859-2', 'latin1', 'Latin-9', 'L1', 'windows-1252', 'CP1250'],
  ])('takes a declared encoding of %s', (encoding) => {
    expect(() => scanXml(`<?xml version="1.0" encoding="${encoding}"?><a/>`, {})).not.toThrow();
  });

  it.each([
    'xutf-8',
    'utf-8-x',
    'us-ascii7',
    'windows-1252x',
    'iso-8859-1x',
    'Shift_JIS',
    'UTF-32',
    'utf-16-le',
    'utf-16x',
    'ISO-10646-UCS-2',
  ])('refuses a declared encoding of %s', (encoding) => {
    expect(() => scanXml(`<?xml version="1.0" encoding="${encoding}"?><a/>`, {})).toThrow(
      new XmlSyntaxError(
        `The file declares encoding '${encoding}': only UTF-8, UTF-16 and single-byte encodings (ISO-8859-1, Windows-1252 …) are accepted. Save it as UTF-8 (Google Earth and GPS apps do by default).`,
      ),
    );
  });

  it('refuses a DOCTYPE with its own message, not as malformed XML', () => {
    expect(() => scanXml('<?xml version="1.0"?>\n<!DOCTYPE kml [<!ENTITY x "y">]>\n<kml/>', {})).toThrow(
      new XmlSyntaxError(
        'The file has a DOCTYPE declaration at line 2: DTDs are not accepted (they enable external entities and entity-expansion attacks, and KML, GPX and TCX never need one). Remove the <!DOCTYPE …> line.',
      ),
    );
  });
});

describe('lineAt', () => {
  it('counts a newline as the end of its line, for an offset on it and past it', () => {
    const text = 'ab\ncd\n\nef';
    expect([0, 1, 2, 3, 5, 6, 7, 8, 9].map((offset) => lineAt(text, offset))).toEqual([
      1, 1, 1, 2, 2, 3, 4, 4, 4,
    ]);
    expect(lineAt('no newline', 5)).toBe(1);
  });
});
