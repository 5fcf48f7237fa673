/**
 * TIFF LZW (compression 5) decoded on demand into a caller's buffer, resumable between codes: the state is the
 * bit position, code width, dictionary and previous code, so `fill(n)` stops once n bytes are out and a later
 * call goes on from there. Same reading of the format as geotiff.js's decoder (MSB-first codes of 9 to 12 bits,
 * TIFF's early width change, ClearCode 256, EndOfInformation 257; running off the input ends the stream like
 * EOI), but strings are written straight into the output instead of through arrays: several times faster.
 * Pure JS on the event loop, like geotiff's: LZW blocks are rare in DEM data (GDAL's default is DEFLATE).
 */
import type { ResumableDecoder } from './block-rows';

const CLEAR_CODE = 256;
const EOI_CODE = 257;
const FIRST_FREE = 258;
const MIN_BITS = 9;
const MAX_BITS = 12;
const TABLE_SIZE = 1 << MAX_BITS;
/** The dictionary: 4096 entries of prefix, suffix, first byte (1 B) and length (2 B each): ~24 KiB. */
const STATE_BYTES = TABLE_SIZE * 6;

export class ResumableLzw implements ResumableDecoder {
  produced = 0;
  finished = false;
  private bitPos = 0;
  private bits = MIN_BITS;
  private size = FIRST_FREE;
  private previous = -1;
  private readonly prefix = new Uint16Array(TABLE_SIZE);
  private readonly suffix = new Uint8Array(TABLE_SIZE);
  private readonly first = new Uint8Array(TABLE_SIZE);
  private readonly length = new Uint16Array(TABLE_SIZE);

  /** The block's bytes: the first `produced` are decoded. */
  readonly output: Uint8Array;

  constructor(
    private readonly input: Uint8Array,
    size: number,
  ) {
    this.output = new Uint8Array(size);
    for (let i = 0; i < 256; i++) {
      this.suffix[i] = i;
      this.first[i] = i;
      this.length[i] = 1;
    }
  }

  get heldBytes(): number {
    return this.finished ? 0 : this.input.byteLength + STATE_BYTES;
  }

  /** LZW has no checksum: `toEnd` decodes until EOI (or the input's end) and the output is full. */
  fill(bytes: number, toEnd: boolean): Promise<void> {
    const target = toEnd ? this.output.byteLength : Math.min(bytes, this.output.byteLength);
    try {
      this.decodeUntil(target);
    } catch (error) {
      this.finished = true;
      return Promise.reject(error instanceof Error ? error : new Error(String(error)));
    }
    return Promise.resolve();
  }

  close(): void {
    // Nothing outside the JS heap; the dictionary goes with this object.
  }

  private decodeUntil(target: number): void {
    const { first } = this;
    while (!this.finished && this.produced < target) {
      const code = this.readCode();
      if (code === EOI_CODE) {
        this.finished = true;
        break;
      }
      if (code === CLEAR_CODE) {
        this.size = FIRST_FREE;
        this.bits = MIN_BITS;
        this.previous = -1;
        continue;
      }
      const previous = this.previous;
      if (previous === -1) {
        if (code >= this.size) throw new Error(`Invalid LZW code ${code} with no previous code`);
        this.write(code);
      } else if (code < this.size) {
        this.write(code);
        this.add(previous, first[code]);
      } else if (code === this.size) {
        this.add(previous, first[previous]); // KwKwK: the new string is previous + its own first byte
        this.write(code);
      } else {
        throw new Error(`Invalid LZW code ${code}: the dictionary holds ${this.size} entries`);
      }
      this.previous = code;
      if (this.size + 1 >= 1 << this.bits) {
        if (this.bits === MAX_BITS)
          this.previous = -1; // table full: no more entries until the next clear
        else this.bits++;
      }
    }
    if (this.produced >= this.output.byteLength) this.finished = true;
  }

  private add(prefixCode: number, byte: number): void {
    const n = this.size;
    if (n >= TABLE_SIZE) return;
    this.prefix[n] = prefixCode;
    this.suffix[n] = byte;
    this.first[n] = this.first[prefixCode];
    this.length[n] = this.length[prefixCode] + 1;
    this.size = n + 1;
  }

  /** Writes the string of `code` (backwards along its prefix chain); bytes beyond the output are dropped. */
  private write(code: number): void {
    const { output: out, prefix, suffix } = this;
    const len = this.length[code];
    const start = this.produced;
    const room = out.byteLength - start;
    let c = code;
    for (let i = len - 1; i >= 0; i--) {
      if (i < room) out[start + i] = suffix[c];
      c = prefix[c];
    }
    this.produced = start + Math.min(len, room);
  }

  /** The next `bits`-bit code, MSB first; past the input's end, EOI. */
  private readCode(): number {
    const { input, bits } = this;
    const pos = this.bitPos;
    const byte = pos >>> 3;
    if (pos + bits > input.byteLength * 8) return EOI_CODE;
    const word =
      (input[byte] << 16) |
      ((byte + 1 < input.byteLength ? input[byte + 1] : 0) << 8) |
      (byte + 2 < input.byteLength ? input[byte + 2] : 0);
    this.bitPos = pos + bits;
    return (word >>> (24 - (pos & 7) - bits)) & ((1 << bits) - 1);
  }
}
