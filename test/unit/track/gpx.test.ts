/** The GPX reader: wpt/trkpt/rtept are slots; a height is written into <ele>, or a new <ele> first, indented as the file. */
import { InvalidRequestError } from '../../../layers/elevation';
import { readGpx } from '../../../layers/elevation/track/gpx';
import { applyEdits } from '../../../layers/elevation/track/text-edits';

const options = { maxCoordinates: 100, absoluteAltitude: false };
const filled = (text: string) => {
  const { slots } = readGpx(text, options);
  return applyEdits(
    text,
    slots.map((s) => s.write('123.4')),
  );
};

describe('readGpx', () => {
  it('removes a placeholder <ele>0</ele> with its line where there is no data, and keeps a real height', () => {
    const text =
      '<gpx><trk><trkseg>\n  <trkpt lat="50" lon="10">\n    <ele>0.0</ele>\n    <time>t</time>\n  </trkpt>\n' +
      '  <trkpt lat="51" lon="11"><ele>0</ele></trkpt>\n  <trkpt lat="52" lon="12"><ele>412.5</ele></trkpt>\n' +
      '  <trkpt lat="53" lon="13"/>\n</trkseg></trk></gpx>';
    const slots = readGpx(text, options).slots;
    expect(slots.map((s) => s.height)).toEqual([0, 0, 412.5, null]);
    const cleared = slots.flatMap((s) => s.clear() ?? []);
    expect(applyEdits(text, cleared)).toBe(
      '<gpx><trk><trkseg>\n  <trkpt lat="50" lon="10">\n    <time>t</time>\n  </trkpt>\n' +
        '  <trkpt lat="51" lon="11"></trkpt>\n  <trkpt lat="52" lon="12"><ele>412.5</ele></trkpt>\n' +
        '  <trkpt lat="53" lon="13"/>\n</trkseg></trk></gpx>',
    );
  });

  it('reads every waypoint, track point and route point with its existing height', () => {
    const text =
      '<gpx version="1.1"><wpt lat="50" lon="10"><ele>7</ele></wpt><rte><rtept lat="51" lon="11"/></rte>' +
      '<trk><trkseg><trkpt lat="52" lon="12"><ele> </ele></trkpt></trkseg></trk></gpx>';
    expect(readGpx(text, options).slots.map((s) => [s.location.lat, s.location.lon, s.height])).toEqual([
      [50, 10, 7],
      [51, 11, null],
      [52, 12, null],
    ]);
  });

  it('reads an <ele> not written in decimal as no height (xsd:decimal; Number() reads 0x30 as 48)', () => {
    const text =
      '<gpx><wpt lat="50" lon="10"><ele>0x30</ele></wpt><wpt lat="50" lon="10"><ele>4.8e1</ele></wpt></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([null, 48]);
  });

  it('still reads an empty, NaN, Infinity or other non-numeric <ele> as no height', () => {
    const text =
      '<gpx><wpt lat="50" lon="10"><ele></ele></wpt><wpt lat="50" lon="10"><ele>NaN</ele></wpt>' +
      '<wpt lat="50" lon="10"><ele>abc</ele></wpt><wpt lat="50" lon="10"><ele>Infinity</ele></wpt></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([null, null, null, null]);
  });

  it.each([
    ['1e400', '\n  <ele>1e400</ele>', '1e400', 3],
    ['-1e999', '<ele> -1e999 </ele>', '-1e999', 2],
    ['1e400 in a CDATA section', '<ele><![CDATA[1e400]]></ele>', '1e400', 2],
  ])(
    'refuses an <ele> of %s (beyond the double range: OGR and GPSBabel read it as inf), naming it and its line',
    (_what, ele, value, line) => {
      const text = `<gpx>\n<wpt lat="50" lon="10">${ele}</wpt></gpx>`;
      expect(() => readGpx(text, options)).toThrow(InvalidRequestError);
      expect(() => readGpx(text, options)).toThrow(
        `The <ele> at line ${line} of <wpt> at line 2 holds ${value}, a number beyond any height readers can hold (OGR and GPSBabel read it as infinity): write the height it should have, or leave it out.`,
      );
    },
  );

  it('writes into <ele>, opens a self-closed point, or inserts <ele> first with the file’s indentation', () => {
    expect(filled('<gpx><wpt lat="50" lon="10"><ele>0</ele></wpt></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele></wpt></gpx>',
    );
    expect(filled('<gpx><wpt lat="50" lon="10" /></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele></wpt></gpx>',
    );
    expect(filled('<gpx><wpt lat="50" lon="10">\n    <name>A</name>\n</wpt></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10">\n    <ele>123.4</ele>\n    <name>A</name>\n</wpt></gpx>',
    );
    expect(
      filled('<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:wpt lat="50" lon="10"></g:wpt></g:gpx>'),
    ).toBe(
      '<g:gpx xmlns:g="http://www.topografix.com/GPX/1/1"><g:wpt lat="50" lon="10"><g:ele>123.4</g:ele></g:wpt></g:gpx>',
    );
  });

  it('writes into a self-closed <ele/> by writing the element whole (it has no room between tags)', () => {
    const text =
      '<gpx><wpt lat="50" lon="10"><ele/></wpt><wpt lat="51" lon="11"><name>A</name><ele  /></wpt>' +
      '<g:wpt xmlns:g="http://www.topografix.com/GPX/1/1" lat="52" lon="12"><g:ele/></g:wpt></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([null, null, null]);
    expect(filled(text)).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele></wpt><wpt lat="51" lon="11"><name>A</name><ele>123.4</ele></wpt>' +
        '<g:wpt xmlns:g="http://www.topografix.com/GPX/1/1" lat="52" lon="12"><g:ele>123.4</g:ele></g:wpt></gpx>',
    );
  });

  it.each([
    ['a root that is not <gpx>', '<kml/>', /its root element is <kml>, not <gpx>/],
    ['a point without lon', '<gpx><wpt lat="50"/></gpx>', /<wpt> at line 1 has no 'lon' attribute/],
    [
      'a point with a bad lat',
      '<gpx>\n<wpt lat="north" lon="10"/></gpx>',
      /<wpt> at line 2 has an invalid 'lat' attribute 'north'/,
    ],
    [
      'a hexadecimal lat',
      '<gpx><wpt lat="0x30" lon="10"/></gpx>',
      /<wpt> at line 1 has an invalid 'lat' attribute '0x30'/,
    ],
    [
      'markup in <ele>',
      '<gpx><wpt lat="50" lon="10"><ele>1<!--x--></ele></wpt></gpx>',
      /^The <ele> of <wpt> at line 1 contains markup: write the height as plain text\.$/,
    ],
    [
      'a 4 MB lat, quoted cut to 60 characters',
      `<gpx><wpt lat="${'9'.repeat(4_000_000)}x" lon="10"/></gpx>`,
      new RegExp(`an invalid 'lat' attribute '${'9'.repeat(60)}…': every GPX point`),
    ],
  ])('refuses %s with a 400 saying what', (_what, text, message) => {
    expect(() => readGpx(text, options)).toThrow(InvalidRequestError);
    expect(() => readGpx(text, options)).toThrow(message);
  });

  it('takes only a point’s own <ele>, not one nested in its extensions, and keeps each height with its point', () => {
    const text =
      '<gpx><wpt lat="50" lon="10"><extensions><ele>5</ele></extensions></wpt>' +
      '<wpt lat="51" lon="11"><ele>6</ele></wpt><wpt lat="52" lon="12"/></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([null, 6, null]);
    expect(filled(text)).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele><extensions><ele>5</ele></extensions></wpt>' +
        '<wpt lat="51" lon="11"><ele>123.4</ele></wpt><wpt lat="52" lon="12"><ele>123.4</ele></wpt></gpx>',
    );
  });

  it('opens a self-closed point with spaces before its slash', () => {
    expect(filled('<gpx><wpt lat="50" lon="10"   /></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele></wpt></gpx>',
    );
    expect(filled('<gpx><wpt lat="50" lon="10"\n\t/></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele></wpt></gpx>',
    );
    // In one pass: a regex over the tag backtracked n² steps over a long run of spaces (3 s at 100,000).
    const spaces = ' '.repeat(1_000_000);
    expect(filled(`<gpx><wpt lat="50"${spaces}lon="10"/></gpx>`)).toBe(
      `<gpx><wpt lat="50"${spaces}lon="10"><ele>123.4</ele></wpt></gpx>`,
    );
  });

  it.each([
    [
      'an empty lat',
      '<gpx><wpt lat="" lon="10"/></gpx>',
      "<wpt> at line 1 has an invalid 'lat' attribute ''",
    ],
    [
      'a blank lon',
      '<gpx><wpt lat="50" lon=" "/></gpx>',
      "<wpt> at line 1 has an invalid 'lon' attribute ' '",
    ],
  ])('refuses %s instead of reading it as 0', (_what, text, message) => {
    expect(() => readGpx(text, options)).toThrow(message);
  });

  it('takes <ele> wherever it is among the point’s children, and writes only there', () => {
    const text =
      '<gpx><trk><trkseg><trkpt lat="50" lon="10"><ele>100</ele><time>2020-01-01T00:00:00Z</time></trkpt>' +
      '<trkpt lat="51" lon="11"><time>2020</time><ele>200</ele><name>B</name></trkpt></trkseg></trk></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([100, 200]);
    expect(filled(text)).toBe(
      '<gpx><trk><trkseg><trkpt lat="50" lon="10"><ele>123.4</ele><time>2020-01-01T00:00:00Z</time></trkpt>' +
        '<trkpt lat="51" lon="11"><time>2020</time><ele>123.4</ele><name>B</name></trkpt></trkseg></trk></gpx>',
    );
  });

  it('refuses a point with two <ele> (the schema allows one; readers take the first, which filling the second left)', () => {
    const text =
      '<gpx version="1.1">\n<trk><trkseg><trkpt lat="49.9" lon="10.1"><ele>0</ele><ele>12</ele></trkpt></trkseg></trk></gpx>';
    expect(() => readGpx(text, options)).toThrow(
      new InvalidRequestError('<trkpt> at line 2 has more than one <ele>.'),
    );
  });

  it('takes no <ele> of another namespace for the point’s own', () => {
    const text = '<gpx><wpt lat="50" lon="10"><x:ele xmlns:x="urn:other">5</x:ele></wpt></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([null]);
    expect(filled(text)).toBe(
      '<gpx><wpt lat="50" lon="10"><ele>123.4</ele><x:ele xmlns:x="urn:other">5</x:ele></wpt></gpx>',
    );
  });

  it.each([
    ['with a trailing slash, as some apps write it', 'http://www.topografix.com/GPX/1/1/'],
    ['over https', 'https://www.topografix.com/GPX/1/1'],
    ['of another vendor', 'urn:some-app:gpx'],
  ])(
    'reads the points of a <gpx> whose default namespace is one %s, as OGR and GPSBabel do',
    (_what, namespace) => {
      const text =
        `<gpx version="1.1" xmlns="${namespace}"><trk><trkseg><trkpt lat="50" lon="10"><ele>300</ele></trkpt>` +
        '<trkpt lat="51" lon="11"/></trkseg></trk></gpx>';
      expect(readGpx(text, options).slots.map((s) => [s.location.lat, s.height])).toEqual([
        [50, 300],
        [51, null],
      ]);
      expect(filled(text)).toContain('<trkpt lat="51" lon="11"><ele>123.4</ele></trkpt>');
    },
  );

  it('still takes no point or <ele> of an extension namespace, under a <gpx> of an unusual one', () => {
    const text =
      '<gpx xmlns="http://www.topografix.com/GPX/1/1/" xmlns:x="urn:other"><wpt lat="50" lon="10">' +
      '<x:ele>5</x:ele><extensions><x:wpt lat="1" lon="1"/></extensions></wpt></gpx>';
    const { slots } = readGpx(text, options);
    expect(slots.map((s) => [s.location.lat, s.height])).toEqual([[50, null]]);
  });

  it('reads an <ele> written as one CDATA section, and writes the new height inside it, as OGR and GPSBabel read it', () => {
    const text =
      '<gpx><wpt lat="50" lon="10"><ele><![CDATA[300]]></ele></wpt>' +
      '<wpt lat="51" lon="11"><ele>\n  <![CDATA[ 0 ]]>\n</ele></wpt></gpx>';
    expect(readGpx(text, options).slots.map((s) => s.height)).toEqual([300, 0]);
    expect(filled(text)).toBe(
      '<gpx><wpt lat="50" lon="10"><ele><![CDATA[123.4]]></ele></wpt>' +
        '<wpt lat="51" lon="11"><ele>\n  <![CDATA[123.4]]>\n</ele></wpt></gpx>',
    );
  });

  it.each([
    ['text beside a CDATA section', '<ele>1<![CDATA[2]]></ele>'],
    ['two CDATA sections', '<ele><![CDATA[1]]><![CDATA[2]]></ele>'],
    ['a comment after a CDATA section', '<ele><![CDATA[1]]><!--x--></ele>'],
    ['an entity reference before one', '<ele>&#32;<![CDATA[1]]></ele>'],
  ])('still refuses an <ele> of %s (its text is rewritten whole)', (_what, ele) => {
    expect(() => readGpx(`<gpx><wpt lat="50" lon="10">${ele}</wpt></gpx>`, options)).toThrow(
      'The <ele> of <wpt> at line 1 contains markup: write the height as plain text.',
    );
  });

  it('opens a self-closed point whose attribute holds "/>", changing only its end', () => {
    expect(filled('<gpx><wpt lat="50" lon="10" name="a/>b"/></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10" name="a/>b"><ele>123.4</ele></wpt></gpx>',
    );
  });

  it('indents a new <ele> as the first child, past text and comments before it', () => {
    expect(filled('<gpx><wpt lat="50" lon="10">\n\t<!-- c -->\n\t<name>A</name></wpt></gpx>')).toBe(
      '<gpx><wpt lat="50" lon="10">\n\t<ele>123.4</ele>\n\t<!-- c -->\n\t<name>A</name></wpt></gpx>',
    );
  });
});
