/** Track documents in UTF-8 or UTF-16: told from their bytes, decoded strictly, written back as they came. */
import fc from 'fast-check';
import {
  declaresEightBit,
  decodeText,
  encodeText,
  sniffTextEncoding,
  textHead,
  type TextEncodingName,
} from '../../../layers/elevation/track/text-encoding';
import { InvalidRequestError } from '../../../layers/elevation';

const le = (text: string) => Buffer.from(text, 'utf16le');
const be = (text: string) => Buffer.from(text, 'utf16le').swap16();
const bytes = (...values: number[]) => Uint8Array.from(values);

describe('sniffTextEncoding', () => {
  it.each([
    ['a UTF-16LE byte-order mark', bytes(0xff, 0xfe, 0x3c, 0x00), 'utf-16le'],
    ['a UTF-16BE byte-order mark', bytes(0xfe, 0xff, 0x00, 0x3c), 'utf-16be'],
    ['a UTF-16LE mark before a non-ASCII character', bytes(0xff, 0xfe, 0xe9, 0x00), 'utf-16le'],
    ['a UTF-8 byte-order mark', bytes(0xef, 0xbb, 0xbf, 0x3c), 'utf-8'],
    ['UTF-16LE without a mark ("<" then a zero byte)', le('<gpx/>'), 'utf-16le'],
    ['UTF-16BE without a mark (a zero byte then "<")', be('<gpx/>'), 'utf-16be'],
    ['UTF-16LE JSON without a mark', le('{"type":"Point"}'), 'utf-16le'],
    ['UTF-8 text', Buffer.from('<gpx/>'), 'utf-8'],
    ['0xFF without 0xFE after it (not a mark: not text)', bytes(0xff, 0x3c, 0x00), 'utf-8'],
    ['0xFE without 0xFF after it', bytes(0xfe, 0x3c, 0x00), 'utf-8'],
    ['0xFE 0xFE', bytes(0xfe, 0xfe), 'utf-8'],
    ['two zero bytes (no text at all)', bytes(0, 0, 0x3c), 'utf-8'],
    ['one byte', bytes(0x3c), 'utf-8'],
    ['a lone zero byte', bytes(0), 'utf-8'],
    ['nothing', bytes(), 'utf-8'],
  ])('tells %s', (_, input, encoding) => {
    expect(sniffTextEncoding(input)).toBe(encoding);
  });
});

describe('decodeText', () => {
  it.each<[string, Buffer, TextEncodingName, string]>([
    ['UTF-8', Buffer.from('<a>é 🏔</a>'), 'utf-8', ''],
    ['UTF-8 with a BOM', Buffer.from('\uFEFF<a>é 🏔</a>'), 'utf-8', '\uFEFF'],
    ['UTF-16LE with a BOM', le('\uFEFF<a>é 🏔</a>'), 'utf-16le', '\uFEFF'],
    ['UTF-16BE with a BOM', be('\uFEFF<a>é 🏔</a>'), 'utf-16be', '\uFEFF'],
    ['UTF-16LE without one', le('<a>é 🏔</a>'), 'utf-16le', ''],
    ['UTF-16BE without one', be('<a>é 🏔</a>'), 'utf-16be', ''],
  ])('reads %s, keeping the BOM apart from the text', (_, input, encoding, bom) => {
    expect(decodeText(input, 'GPX file')).toEqual({ encoding, bom, text: '<a>é 🏔</a>' });
  });

  it('keeps a second BOM as text: only the first is the mark', () => {
    expect(decodeText(le('\uFEFF\uFEFF<a/>'), 'KML file').text).toBe('\uFEFF<a/>');
  });

  it.each([
    [
      'UTF-8 with a byte that is not UTF-8',
      bytes(0x3c, 0xff, 0x3e),
      'The GPX file is not valid UTF-8 text: save it as UTF-8.',
    ],
    [
      'UTF-16LE of an odd length',
      Buffer.concat([le('<a/>'), bytes(0x0a)]),
      'The GPX file is not valid UTF-16LE text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.',
    ],
    [
      'UTF-16BE of an odd length',
      Buffer.concat([be('<a/>'), bytes(0x00)]),
      'The GPX file is not valid UTF-16BE text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.',
    ],
    [
      'UTF-16LE with a high surrogate and no low one',
      Buffer.concat([le('<a>'), bytes(0x3d, 0xd8), le('</a>')]),
      'The GPX file is not valid UTF-16LE text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.',
    ],
    [
      'UTF-16BE with a low surrogate alone',
      Buffer.concat([be('<a>'), bytes(0xdc, 0x00), be('</a>')]),
      'The GPX file is not valid UTF-16BE text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.',
    ],
  ])('refuses %s, naming the file', (_, input, message) => {
    expect(() => decodeText(input, 'GPX file')).toThrow(new InvalidRequestError(message));
  });

  it('leaves the bytes it was given as they were', () => {
    const input = be('\uFEFF<a/>');
    const copy = Buffer.from(input);
    decodeText(input, 'file');
    expect(input).toEqual(copy);
  });
});

describe('decodeText: 8-bit text', () => {
  const windows1252 = Buffer.from('Name;Breite;L\xe4nge;H\xf6he\r\nM\xfcnchen \x80;48,1;11,5;\r\n', 'latin1');

  it("reads what is not UTF-8 as 8-bit text where the reader allows it ('fallback': CSV)", () => {
    expect(decodeText(windows1252, 'CSV file', { eightBit: 'fallback' })).toEqual({
      encoding: 'latin1',
      bom: '',
      text: 'Name;Breite;Länge;Höhe\r\nMünchen \u0080;48,1;11,5;\r\n',
    });
    expect(() => decodeText(windows1252, 'CSV file')).toThrow(/^The CSV file is not valid UTF-8 text/);
  });

  it("reads UTF-8 as UTF-8 and UTF-16 as UTF-16 all the same ('fallback')", () => {
    expect(decodeText(Buffer.from('Länge'), 'CSV file', { eightBit: 'fallback' }).encoding).toBe('utf-8');
    expect(decodeText(le('\uFEFFLänge'), 'CSV file', { eightBit: 'fallback' }).encoding).toBe('utf-16le');
    // A UTF-16 file cut short is refused as UTF-16, not read as 8-bit text.
    expect(() => decodeText(le('\uFEFFa').subarray(0, 3), 'CSV file', { eightBit: 'fallback' })).toThrow(
      /not valid UTF-16LE text/,
    );
  });

  it("reads every byte as 8-bit text where the XML declaration names such an encoding ('declared')", () => {
    const utf8Looking = Buffer.from('<a>\xc3\xa9</a>', 'latin1'); // "Ã©" in Latin-1, "é" if it were UTF-8
    expect(decodeText(utf8Looking, 'GPX file', { eightBit: 'declared' }).text).toBe('<a>\u00c3\u00a9</a>');
    expect(decodeText(le('<a/>'), 'GPX file', { eightBit: 'declared' }).encoding).toBe('utf-16le');
  });

  it('adds the advice to the refusal', () => {
    expect(() => decodeText(windows1252, 'GPX file', { advice: ', or else' })).toThrow(
      new InvalidRequestError('The GPX file is not valid UTF-8 text: save it as UTF-8, or else.'),
    );
  });

  it('writes any bytes read as 8-bit text back as they were', () => {
    fc.assert(
      fc.property(fc.uint8Array({ maxLength: 64 }), (input) => {
        fc.pre(sniffTextEncoding(input) === 'utf-8'); // not two bytes that tell UTF-16
        const { encoding, bom, text } = decodeText(input, 'file', { eightBit: 'declared' });
        expect(encoding).toBe('latin1');
        expect(encodeText(bom + text, encoding).equals(Buffer.from(input))).toBe(true);
      }),
    );
  });
});

describe('declaresEightBit', () => {
  it.each([
    ['<?xml version="1.0" encoding="ISO-8859-1"?><gpx/>', true],
    ["<?xml version='1.0' encoding='windows-1252' standalone='yes'?><kml/>", true],
    ['<?xml version="1.0" encoding = "latin1"?>', true],
    ['<?xml version="1.0" encoding="UTF-8"?><gpx/>', false],
    ['<?xml version="1.0"?><gpx/>', false],
    ['<?xml version="1.0" encoding="Shift_JIS"?>', false],
    ['  \r\n<?xml version="1.0" encoding="ISO-8859-1"?>', true], // spaces first, as Strava writes: read all the same
    ['x<?xml version="1.0" encoding="ISO-8859-1"?>', false], // not a declaration: it must come first
    ['<gpx encoding="ISO-8859-1"/>', false],
    ['<?xml version="1.0"?><gpx encoding="ISO-8859-1"/>', false], // only the declaration's own counts
    ['\uFEFF<?xml version="1.0" encoding="ISO-8859-1"?>', false], // UTF-8's BOM says otherwise
  ])('%j: %s', (text, declared) => {
    expect(declaresEightBit(Buffer.from(text))).toBe(declared);
  });
});

describe('encodeText', () => {
  it.each<[TextEncodingName, number[]]>([
    ['utf-8', [0xef, 0xbb, 0xbf, 0x3c, 0xc3, 0xa9]],
    ['utf-16le', [0xff, 0xfe, 0x3c, 0x00, 0xe9, 0x00]],
    ['utf-16be', [0xfe, 0xff, 0x00, 0x3c, 0x00, 0xe9]],
  ])('writes %s', (encoding, expected) => {
    expect([...encodeText('\uFEFF<é', encoding)]).toEqual(expected);
  });

  it('is undone by decodeText for any text, with or without a BOM, in each encoding', () => {
    fc.assert(
      fc.property(
        fc.string({ unit: 'grapheme' }),
        fc.constantFrom<TextEncodingName>('utf-8', 'utf-16le', 'utf-16be'),
        fc.constantFrom('\uFEFF', ''),
        (tail, encoding, bom) => {
          // A document starts with '<' or '{' (or a BOM) and holds no NUL (XML and JSON forbid it): that is
          // what tells the encoding without a mark.
          const text = `<${tail.replace(/\0/g, '')}`;
          expect(decodeText(encodeText(bom + text, encoding), 'file')).toEqual({ encoding, bom, text });
        },
      ),
    );
  });
});

describe('textHead', () => {
  it.each([
    ['UTF-8, dropping the BOM', Buffer.from('\uFEFF<kml>'), 7, '<kml'],
    ['UTF-8, a limit cutting a character in two', Buffer.from('<é>'), 2, '<\uFFFD'],
    ['UTF-16LE, dropping the BOM', le('\uFEFF<kml>'), 10, '<kml'],
    ['UTF-16BE, dropping the BOM', be('\uFEFF<kml>'), 10, '<kml'],
    ['UTF-16LE, an odd limit cutting no character in two', le('<kml>'), 5, '<k'],
    ['UTF-16BE without a BOM', be('<kml>'), 100, '<kml>'],
  ])('reads the first bytes of %s', (_, input, maxBytes, head) => {
    expect(textHead(input, maxBytes)).toBe(head);
  });

  it('reads bytes that are not UTF-8 as 8-bit text, byte for byte', () => {
    expect(textHead(bytes(0x3c, 0xff, 0x3e), 10)).toBe('<\u00ff>');
    expect(textHead(Buffer.from('Breite;L\xe4nge\n', 'latin1'), 100)).toBe('Breite;Länge\n');
  });
});
