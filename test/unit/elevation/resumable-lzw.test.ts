/**
 * The resumable TIFF LZW decoder on streams written here by a small encoder that follows libtiff's (MSB-first
 * codes of 9 to 12 bits, the early width change, a ClearCode when the table reaches 4094, EndOfInformation after
 * the last code). The GDAL-written LZW fixtures are decoded in partial-decode.test.ts; here the edges: resuming
 * anywhere, every width, a table refilled after a clear, early and missing ends, invalid codes.
 */
import { ResumableLzw } from '../../../layers/elevation/raster/resumable-lzw';

const CLEAR = 256;
const EOI = 257;

/** Writes codes MSB-first, each at the width given. */
class BitWriter {
  private bytes: number[] = [];
  private acc = 0;
  private accBits = 0;

  put(code: number, bits: number): void {
    for (let b = bits - 1; b >= 0; b--) {
      this.acc = (this.acc << 1) | ((code >> b) & 1);
      if (++this.accBits === 8) {
        this.bytes.push(this.acc);
        this.acc = 0;
        this.accBits = 0;
      }
    }
  }

  done(): Uint8Array {
    if (this.accBits > 0) this.bytes.push(this.acc << (8 - this.accBits));
    return Uint8Array.from(this.bytes);
  }
}

/** TIFF LZW as libtiff writes it; `raw` codes are written as given instead (for broken streams). */
function lzwEncode(data: Uint8Array, { eoi = true } = {}): Uint8Array {
  const out = new BitWriter();
  let bits = 9;
  let next = 258;
  let table = new Map<number, number>();
  out.put(CLEAR, bits);
  // After each code: one new entry, a clear when the table is full, or a wider code when the next needs it.
  const grow = () => {
    next++;
    if (next === 4094) {
      out.put(CLEAR, bits);
      table = new Map();
      next = 258;
      bits = 9;
    } else if (next > (1 << bits) - 1) bits++;
  };
  let w = -1;
  for (const byte of data) {
    if (w === -1) {
      w = byte;
      continue;
    }
    const key = w * 256 + byte;
    const known = table.get(key);
    if (known !== undefined) {
      w = known;
      continue;
    }
    out.put(w, bits);
    table.set(key, next);
    grow();
    w = byte;
  }
  if (w !== -1) {
    out.put(w, bits);
    grow();
  }
  if (eoi) out.put(EOI, bits);
  return out.done();
}

/** Codes as written, at 9 bits: a stream that is broken on purpose. */
function rawCodes(...codes: number[]): Uint8Array {
  const out = new BitWriter();
  for (const code of codes) out.put(code, 9);
  return out.done();
}

/** Bytes with long runs and repeats (KwKwK strings), enough for the table to fill and clear several times. */
function terrainLikeBytes(length: number): Uint8Array {
  let seed = 7;
  const random = () => (seed = (seed * 1103515245 + 12345) & 0x7fffffff) / 0x7fffffff;
  const bytes = new Uint8Array(length);
  for (let i = 0; i < length;) {
    const run = 1 + Math.floor(random() * 40);
    const value = Math.floor(random() * 24);
    for (let k = 0; k < run && i < length; k++)
      bytes[i++] = random() < 0.8 ? value : Math.floor(random() * 256);
  }
  return bytes;
}

describe('ResumableLzw', () => {
  const data = terrainLikeBytes(200_000);
  const encoded = lzwEncode(data);

  it('decodes a stream that passes every code width and refills its table after clears, bit for bit', async () => {
    const lzw = new ResumableLzw(encoded, data.byteLength);
    expect(lzw.heldBytes).toBe(encoded.byteLength + 4096 * 6);
    await lzw.fill(data.byteLength, true);
    expect(lzw.produced).toBe(data.byteLength);
    expect(lzw.finished).toBe(true);
    expect(lzw.heldBytes).toBe(0);
    expect(Buffer.compare(lzw.output, data)).toBe(0);
  });

  it('stops once the bytes asked for are out and goes on from there', async () => {
    const lzw = new ResumableLzw(encoded, data.byteLength);
    for (const wanted of [1, 1000, 1001, 65_536, 150_000]) {
      await lzw.fill(wanted, false);
      // At least what was asked, at most one string (its longest entry is a few hundred bytes) beyond.
      expect(lzw.produced).toBeGreaterThanOrEqual(wanted);
      expect(lzw.produced).toBeLessThan(wanted + 4096);
      expect(lzw.finished).toBe(false);
      expect(Buffer.compare(lzw.output.subarray(0, lzw.produced), data.subarray(0, lzw.produced))).toBe(0);
    }
    await lzw.fill(data.byteLength, false);
    expect(lzw.produced).toBe(data.byteLength);
    expect(lzw.finished).toBe(true);
    expect(Buffer.compare(lzw.output, data)).toBe(0);
  });

  it('keeps the first bytes of a stream longer than its block and drops the rest', async () => {
    const lzw = new ResumableLzw(encoded, 12_345);
    await lzw.fill(12_345, true);
    expect(lzw.produced).toBe(12_345);
    expect(lzw.finished).toBe(true);
    expect(Buffer.compare(lzw.output, data.subarray(0, 12_345))).toBe(0);
  });

  it('ends at EndOfInformation, or where the input ends, with what was decoded so far', async () => {
    const short = Uint8Array.from([5, 5, 5, 5, 9, 5, 5, 9]);
    const withEoi = new ResumableLzw(lzwEncode(short), 100);
    await withEoi.fill(100, true);
    expect(withEoi.produced).toBe(short.byteLength);
    expect(withEoi.finished).toBe(true);
    expect([...withEoi.output.subarray(0, 8)]).toEqual([...short]);

    const cut = encoded.subarray(0, Math.floor(encoded.byteLength / 2));
    const noEnd = new ResumableLzw(cut, data.byteLength);
    await noEnd.fill(data.byteLength, true);
    expect(noEnd.finished).toBe(true);
    expect(noEnd.produced).toBeGreaterThan(0);
    expect(noEnd.produced).toBeLessThan(data.byteLength);
    expect(Buffer.compare(noEnd.output.subarray(0, noEnd.produced), data.subarray(0, noEnd.produced))).toBe(
      0,
    );

    const noEoi = new ResumableLzw(lzwEncode(short, { eoi: false }), 100);
    await noEoi.fill(100, true);
    expect(noEoi.produced).toBe(short.byteLength);
    expect(noEoi.finished).toBe(true);
  });

  it('reads a last code that ends on the input’s last bit, and nothing after EndOfInformation', async () => {
    // Eight 9-bit codes are exactly 9 bytes: the last one, 'G', fills the final byte.
    const exact = new ResumableLzw(rawCodes(CLEAR, 65, 66, 67, 68, 69, 70, 71), 10);
    await exact.fill(10, true);
    expect(Buffer.from(exact.output.subarray(0, exact.produced)).toString('latin1')).toBe('ABCDEFG');
    const trailing = new ResumableLzw(rawCodes(CLEAR, 65, EOI, 66, 67), 10);
    await trailing.fill(10, true);
    expect(trailing.finished).toBe(true);
    expect(Buffer.from(trailing.output.subarray(0, trailing.produced)).toString('latin1')).toBe('A');
  });

  it('reads a ClearCode anywhere: the table and the code width start over', async () => {
    // 'A' 'B', clear, then 258 would be invalid (the table is empty again) but 'B' 'A' is fine.
    const lzw = new ResumableLzw(rawCodes(CLEAR, 65, 66, 258, CLEAR, 66, 65, EOI), 10);
    await lzw.fill(10, true);
    expect(Buffer.from(lzw.output.subarray(0, lzw.produced)).toString('latin1')).toBe('ABABBA');
    const stale = new ResumableLzw(rawCodes(CLEAR, 65, 66, CLEAR, 258, EOI), 10);
    await expect(stale.fill(10, true)).rejects.toThrow(
      'Invalid LZW code 258: the dictionary holds 258 entries',
    );
  });

  it('refuses a code beyond the dictionary, and one equal to its size with no previous string', async () => {
    const beyond = new ResumableLzw(rawCodes(CLEAR, 65, 300, EOI), 10);
    await expect(beyond.fill(10, true)).rejects.toThrow(
      'Invalid LZW code 300: the dictionary holds 258 entries',
    );
    expect(beyond.finished).toBe(true);
    expect(beyond.heldBytes).toBe(0);
    // KwKwK (a code equal to the next entry) is valid after a string: 'A' then 258 = 'AA'.
    const kwkwk = new ResumableLzw(rawCodes(CLEAR, 65, 258, EOI), 10);
    await kwkwk.fill(10, true);
    expect(Buffer.from(kwkwk.output.subarray(0, kwkwk.produced)).toString('latin1')).toBe('AAA');
    const first = new ResumableLzw(rawCodes(CLEAR, 258, EOI), 10);
    await expect(first.fill(10, true)).rejects.toThrow('Invalid LZW code 258');
  });
});
