/** Facts about a request body's bytes, told without decoding or parsing it. */

const ZIP_MAGIC = Buffer.from('PK\u0003\u0004', 'latin1');
/** U+FFFD in UTF-8: what a byte that is not UTF-8 becomes when binary is decoded as text. */
const REPLACEMENT = Buffer.from('\uFFFD', 'utf8');

/**
 * A binary body that was decoded as UTF-8 text on the way in (and back), so its bytes that were not UTF-8 are
 * lost: a zip (a KMZ), a gzip file, a FIT file, UTF-16 text, whose zero bytes no UTF-8 document has (XML and
 * JSON never hold NUL), or 8-bit text (a spreadsheet's Windows-1252 CSV), whose letters beyond ASCII became U+FFFD.
 * Names what it was, for the message; null for a body that arrived whole. A UTF-8 file that holds U+FFFD itself is
 * taken for the last kind: sent as binary, it is read whole.
 */
export function textDamage(
  bytes: Uint8Array,
):
  | 'KMZ'
  | 'gzip file'
  | 'FIT file'
  | 'UTF-16 file'
  | 'file in an 8-bit encoding (Windows-1252, Latin-1)'
  | null {
  const buffer = Buffer.from(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (!buffer.includes(REPLACEMENT)) return null;
  if (buffer.subarray(0, ZIP_MAGIC.length).equals(ZIP_MAGIC)) return 'KMZ';
  // gzip's second byte (0x8b) is not UTF-8, so it is the first to be replaced.
  if (buffer[0] === 0x1f && buffer.subarray(1, 1 + REPLACEMENT.length).equals(REPLACEMENT))
    return 'gzip file';
  // A FIT header's `.FIT` (bytes 8-11) moves back by a replaced byte's two extra bytes, at most eight of them.
  if (buffer.subarray(0, 12 + 8 * 2).includes('.FIT')) return 'FIT file';
  return buffer.includes(0) ? 'UTF-16 file' : 'file in an 8-bit encoding (Windows-1252, Latin-1)';
}

/** The bytes base64 text decodes to (whitespace-free, as API Gateway sends it), without decoding it. */
export function base64DecodedBytes(text: string): number {
  const padding = text.endsWith('==') ? 2 : text.endsWith('=') ? 1 : 0;
  return Math.floor((text.length * 3) / 4) - padding;
}
