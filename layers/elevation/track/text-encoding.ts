/**
 * The text encodings a track document may come in, told from its bytes as XML 1.0 (appendix F) tells them: a
 * byte-order mark, or for UTF-16 without one the zero byte beside every ASCII character. UTF-8 is what
 * exporters write; UTF-16 is what Windows writes when a file passes through PowerShell 5 (`Get-Content … >`,
 * `Out-File`) or is saved as "Unicode" in Notepad, so it is read too and written back as it came (same byte
 * order, same BOM): a file comes back in its own encoding, changed only in its heights.
 */
import { InvalidRequestError } from '../errors';

export type TextEncodingName = 'utf-8' | 'utf-16le' | 'utf-16be';

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
 * decode would change bytes elsewhere in the file when it is written back).
 *
 * @example
 * ```ts
 * const bytes = Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('<gpx/>', 'utf16le')]);
 * assert.deepEqual(decodeText(bytes, 'GPX file'), { encoding: 'utf-16le', bom: '\uFEFF', text: '<gpx/>' });
 * ```
 */
export function decodeText(bytes: Uint8Array, what: string): DecodedText {
  const encoding = sniffTextEncoding(bytes);
  let decoded: string;
  try {
    // UTF-16BE is decoded as its byte-swapped LE twin: node:util's decoder has BE only with full ICU.
    const units = encoding === 'utf-16be' ? Buffer.from(bytes).swap16() : bytes;
    decoded = new TextDecoder(encoding === 'utf-8' ? 'utf-8' : 'utf-16le', {
      fatal: true,
      ignoreBOM: true,
    }).decode(units);
  } catch {
    throw new InvalidRequestError(
      encoding === 'utf-8'
        ? `The ${what} is not valid UTF-8 text.`
        : `The ${what} is not valid ${encoding === 'utf-16le' ? 'UTF-16LE' : 'UTF-16BE'} text (an odd number of bytes, or a broken surrogate pair): save it as UTF-8.`,
    );
  }
  const bom = decoded.startsWith(BOM) ? BOM : '';
  return { encoding, bom, text: decoded.slice(bom.length) };
}

/**
 * The text of the first bytes, leniently (a character cut at the end, or a byte that is not text, becomes
 * U+FFFD) and without a BOM: enough to tell what a document is.
 *
 * @example
 * ```ts
 * assert.equal(textHead(Buffer.from('\uFEFF<kml>', 'utf16le'), 4), '<');
 * ```
 */
export function textHead(bytes: Uint8Array, maxBytes: number): string {
  const encoding = sniffTextEncoding(bytes);
  const head = bytes.subarray(0, maxBytes);
  if (encoding === 'utf-8') return new TextDecoder().decode(head);
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
  const bytes = Buffer.from(text, 'utf16le');
  return encoding === 'utf-16le' ? bytes : bytes.swap16();
}
