import { applyEdits } from '../../../layers/elevation/track/text-edits';
import { scanXml, type XmlContent, type XmlElement } from '../../../layers/elevation/track/xml-scan';

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
