/**
 * The text encodings a track document may come in, told from its bytes as XML 1.0 (appendix F) tells them: a
 * byte-order mark, or for UTF-16 without one the zero byte beside every ASCII character. UTF-8 is what
 * exporters write; UTF-16 is what Windows writes when a file passes through PowerShell 5 (`Get-Content … >`,
 * `Out-File`) or is saved as "Unicode" in Notepad, so it is read too and written back as it came (same byte
 * order, same BOM): a file comes back in its own encoding, changed only in its heights.
 *
 * 8-bit text is read where its reader allows it (`eightBit`): a CSV that is not UTF-8 (Excel saves "CSV" in
 * Windows-1252 on Windows and macOS) and an XML document whose declaration names a single-byte encoding
 * (`encoding="ISO-8859-1"`, as older GPS tools write). Each byte becomes the Latin-1 character of its code
 * (`latin1`), so every byte comes back as it was; what the readers look for is ASCII (tags, numbers, delimiters)
 * besides a CSV header's ä, ö and ó, which Windows-1252, Latin-1 and Latin-9 have at the same codes as Latin-1.
 */
import { InvalidRequestError } from '../errors';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be' | 'latin1';

export interface DecodedText {
  encoding: TextEncodingName;
  /** '\uFEFF' when the bytes began with a byte-order mark, else ''. */
  bom: string;
  /** The text after the BOM. */
  text: string;
}

const BOM = '\uFEFF';

/**
 * Which encoding the bytes are in. XML and JSON text never holds a NUL character, so a zero byte in either of
 * the first two positions (with the other non-zero) is half of a UTF-16 code unit.
 *
 * @example
 * ```ts
 * assert.equal(sniffTextEncoding(new Uint8Array([0xff, 0xfe, 0x3c, 0x00])), 'utf-16le');
 * assert.equal(sniffTextEncoding(new Uint8Array([0x00, 0x3c, 0x00, 0x3f])), 'utf-16be');
 * assert.equal(sniffTextEncoding(new TextEncoder().encode('<gpx/>')), 'utf-8');
 * ```
 */
export function sniffTextEncoding(bytes: Uint8Array): TextEncodingName {
  const [first, second] = [bytes[0], bytes[1]];
  if (first === 0xff && second === 0xfe) return 'utf-16le';
  if (first === 0xfe && second === 0xff) return 'utf-16be';
  if (bytes.length >= 2 && first !== 0 && second === 0) return 'utf-16le';
  if (bytes.length >= 2 && first === 0 && second !== 0) return 'utf-16be';
  return 'utf-8';
}

/**
 * Bytes to text in the encoding they are in, refusing any byte sequence that encoding does not allow (a lossy
 * decode would change bytes elsewhere in the file when it is written back); bytes that are not UTF-8 are read as
 * 8-bit text (`latin1`) when `eightBit` is `'fallback'`, and refused otherwise with `advice` added to the
 * message; `'declared'` reads every byte as 8-bit text (an XML declaration said so), unless the bytes are UTF-16.
 *
 * @example
 * ```ts
 * const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<gpx/>', 'utf16le')]);
 * assert.deepEqual(decodeText(bytes, 'GPX file'), { encoding: 'utf-16le', bom: '\uFEFF', text: '<gpx/>' });
 * const windows1252 = Buffer.from('Breite;L\xe4nge\n', 'latin1');
 * assert.deepEqual(decodeText(windows1252, 'CSV file', { eightBit: 'fallback' }), { encoding: 'latin1', bom: '', text: 'Breite;Länge\n' });
 * assert.throws(() => decodeText(windows1252, 'GeoJSON file'), /^InvalidRequestError: The GeoJSON file is not valid UTF-8 text: save it as UTF-8\.$/);
 * ```
 */
export function decodeText(
  bytes: Uint8Array,
  what: string,
  { eightBit, advice = '' }: { eightBit?: 'fallback' | 'declared'; advice?: string } = {},
): DecodedText {
  const encoding = sniffTextEncoding(bytes);
  if (encoding === 'utf-8' && eightBit === 'declared') return latin1(bytes);
  let decoded: string;
  try {
    // UTF-16BE is decoded as its byte-swapped LE twin: node:util's decoder has BE only with full ICU.
    const units = encoding === 'utf-16be' ? Buffer.from(bytes).swap16() : bytes;
    decoded = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'utf-16le', {
      fatal: true,
      ignoreBOM: true,
    }).decode(units);
  } catch {
    if (encoding === 'utf-8' && eightBit === 'fallback') return latin1(bytes);
    throw new InvalidRequestError(
      encoding === 'utf-8'
        ? `The ${what} is not valid UTF-8 text: save it as UTF-8${advice}.`
        : `The ${what} is not valid ${encoding === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'} text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.`,
    );
  }
  const bom = decoded.startsWith(BOM) ? BOM : '';
  return { encoding, bom, text: decoded.slice(bom.length) };
}

/**
 * The text of the first bytes, leniently (a character cut at the end becomes U+FFFD; bytes that are not UTF-8 are
 * read as 8-bit text) and without a BOM: enough to tell what a document is.
 *
 * @example
 * ```ts
 * assert.equal(textHead(Buffer.from('\uFEFF<kml>', 'utf16le'), 4), '<');
 * ```
 */
export function textHead(bytes: Uint8Array, maxBytes: number): string {
  const encoding = sniffTextEncoding(bytes);
  const head = bytes.subarray(0, maxBytes);
  if (encoding === 'utf-8') {
    // 8-bit text (decodeText's `latin1`) byte for byte, so a Windows-1252 CSV's "Länge" names its column here too.
    return isUtf8Prefix(head) ? new TextDecoder().decode(head) : Buffer.from(head).toString('latin1');
  }
  const units = Buffer.from(head.subarray(0, head.length - (head.length % 2)));
  return new TextDecoder('utf-16le').decode(encoding === 'utf-16be' ? units.swap16() : units);
}

/**
 * Text to bytes in the given encoding (the inverse of decodeText for the same encoding).
 *
 * @example
 * ```ts
 * assert.deepEqual([...encodeText('\uFEFF<', 'utf-16be')], [0xfe, 0xff, 0x00, 0x3c]);
 * ```
 */
export function encodeText(text: string, encoding: TextEncodingName): Buffer {
  if (encoding === 'utf-8') return Buffer.from(text, 'utf8');
  if (encoding === 'latin1') return Buffer.from(text, 'latin1');
  const bytes = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? bytes : bytes.swap16();
}

function latin1(bytes: Uint8Array): DecodedText {
  return { encoding: 'latin1', bom: '', text: Buffer.from(bytes).toString('latin1') };
}

/** Single-byte encodings whose first 128 codes are ASCII: ISO 8859-1 … 16 (Latin-1 …), Windows-1250 … 1258. */
export const EIGHT_BIT_ENCODING = /^(iso[-_]?8859-\d{1,2}|latin-?\d{1,2}|l\d|windows-125\d|cp125\d)$/i;

/**
 * Whether an XML document's declaration names a single-byte encoding (EIGHT_BIT_ENCODING), as in
 * `<?xml version="1.0" encoding="ISO-8859-1"?>`: then decodeText reads it as 8-bit text (`'declared'`).
 *
 * @example
 * ```ts
 * assert.equal(declaresEightBit(Buffer.from('<?xml version="1.0" encoding="ISO-8859-1"?><gpx/>')), true);
 * assert.equal(declaresEightBit(Buffer.from('<?xml version="1.0" encoding="UTF-8"?><gpx/>')), false);
 * ```
 */
export function declaresEightBit(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 1024)).toString('latin1');
  const declaration = LEADING_XML_DECLARATION.exec(head)?.[2] ?? '';
  const name = /\bencoding[ \t\r\n]*=[ \t\r\n]*["']([\w.-]+)["']/.exec(declaration)?.[1];
  return name !== undefined && EIGHT_BIT_ENCODING.test(name);
}

/**
 * An XML declaration at the start of a text (group 2), after any whitespace (group 1): Strava's exports (its bulk
 * export's .tcx and .gpx too) start with spaces before it, which XML forbids ("an XML declaration must be at the
 * start of the document"), as GoldenCheetah, GPSBabel and GPXSee found; xml-scan.ts reads it as if it came first.
 */
export const LEADING_XML_DECLARATION = /^([ \t\r\n]*)(<\?xml[ \t\r\n][^>]*\?>)/;

/** Whether the bytes are UTF-8, but for a character their end may cut off (they are a file's first bytes). */
function isUtf8Prefix(bytes: Uint8Array): boolean {
  try {
    new TextDecoder('utf-8', { fatal: true }).decode(bytes, { stream: true });
    return true;
  } catch {
    return false;
  }
}
