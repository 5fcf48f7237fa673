/**
 * TIFF predictors undone in place on decoded block bytes. geotiff.js has these too, but allocates a row copy per
 * row; on a 1024x1024 Float32 block these versions are several times faster (see `npm run bench`).
 */

/** PREDICTOR=2 (horizontal differencing) on native-endian samples, `spp` interleaved samples per pixel. */
export function undoHorizontalPredictor(
  bytes: Uint8Array,
  width: number,
  bytesPerSample: number,
  samplesPerPixel: number,
): void {
  if (bytesPerSample === 8) return undoHorizontalPredictor64(bytes, width, samplesPerPixel);
  const count = bytes.byteLength / bytesPerSample;
  const view =
    bytesPerSample === 1
      ? bytes
      : bytesPerSample === 2
        ? new Uint16Array(bytes.buffer, bytes.byteOffset, count)
        : bytesPerSample === 4
          ? new Uint32Array(bytes.buffer, bytes.byteOffset, count)
          : null;
  if (!view) throw new Error(`Predictor 2 does not support ${bytesPerSample * 8}-bit samples`);
  const rowLength = width * samplesPerPixel;
  for (let rowStart = 0; rowStart < count; rowStart += rowLength) {
    const rowEnd = Math.min(rowStart + rowLength, count);
    for (let i = rowStart + samplesPerPixel; i < rowEnd; i++) view[i] += view[i - samplesPerPixel];
  }
}

/** The word-wise fast path reads bytes through Uint32 views, which follow the host's byte order. */
const LITTLE_ENDIAN_HOST = new Uint8Array(new Uint32Array([1]).buffer)[0] === 1;

/**
 * PREDICTOR=2 on 64-bit samples (GDAL writes it for Float64 bands: libtiff differences their bit patterns as 64-bit
 * integers), added modulo 2^64 as two 32-bit halves with a carry; no BigInt on the way.
 */
function undoHorizontalPredictor64(bytes: Uint8Array, width: number, samplesPerPixel: number): void {
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength / 4);
  const [low, high] = LITTLE_ENDIAN_HOST ? [0, 1] : [1, 0];
  const rowWords = width * samplesPerPixel * 2;
  const stride = samplesPerPixel * 2;
  for (let rowStart = 0; rowStart < words.length; rowStart += rowWords) {
    const rowEnd = Math.min(rowStart + rowWords, words.length);
    for (let i = rowStart + stride; i < rowEnd; i += 2) {
      const sum = words[i + low] + words[i - stride + low];
      words[i + low] = sum; // modulo 2^32
      words[i + high] = words[i + high] + words[i - stride + high] + (sum > 0xffffffff ? 1 : 0);
    }
  }
}

/**
 * PREDICTOR=3 (floating point): per row, bytes were differenced with stride `spp`, then stored as byte planes
 * (most significant plane first). Output is little-endian samples whatever the file's byte order (libtiff's rule).
 */
export function undoFloatingPointPredictor(
  bytes: Uint8Array,
  width: number,
  bytesPerSample: number,
  samplesPerPixel: number,
): Uint8Array {
  if (bytesPerSample === 4 && samplesPerPixel === 1 && bytes.byteOffset % 4 === 0 && LITTLE_ENDIAN_HOST) {
    return undoFloat32Rows(bytes, width);
  }
  const rowSamples = width * samplesPerPixel;
  const rowBytes = rowSamples * bytesPerSample;
  const out = new Uint8Array(bytes.byteLength);
  for (let base = 0; base + rowBytes <= bytes.byteLength; base += rowBytes) {
    for (let i = base + samplesPerPixel; i < base + rowBytes; i++)
      bytes[i] = (bytes[i] + bytes[i - samplesPerPixel]) & 0xff;
    for (let i = 0; i < rowSamples; i++) {
      for (let b = 0; b < bytesPerSample; b++) {
        out[base + i * bytesPerSample + (bytesPerSample - 1 - b)] = bytes[base + b * rowSamples + i];
      }
    }
  }
  return out;
}

/**
 * The common case (one Float32 band), several times faster than the general loop: a running byte sum per row taken
 * a word at a time, then the four byte planes transposed into samples four at a time (one word of each plane in,
 * four samples out) instead of four byte loads per sample.
 */
function undoFloat32Rows(bytes: Uint8Array, width: number): Uint8Array {
  const rows = Math.floor(bytes.byteLength / (width * 4));
  // Int32 views: a Uint32 load above 2^31 would leave the small-integer fast path.
  const words = new Int32Array(bytes.buffer, bytes.byteOffset, rows * width);
  const quarter = width >> 2;
  if ((width & 3) !== 0) return undoFloat32RowsBytewise(bytes, words, width, rows);
  // In place, through one row of scratch: no second block-sized buffer to allocate, zero and collect.
  const planes = new Int32Array(width);
  for (let row = 0; row < rows; row++) {
    const start = row * width;
    runningByteSum(words, start, width);
    planes.set(words.subarray(start, start + width));
    let o = start;
    for (let k = 0; k < quarter; k++) {
      o = transposeFour(
        planes[k],
        planes[k + quarter],
        planes[k + 2 * quarter],
        planes[k + 3 * quarter],
        words,
        o,
      );
    }
  }
  return bytes;
}

/** Rows whose length is not a multiple of four samples: one byte load per plane and sample. */
function undoFloat32RowsBytewise(
  bytes: Uint8Array,
  words: Int32Array,
  width: number,
  rows: number,
): Uint8Array {
  const out = new Int32Array(rows * width);
  for (let row = 0; row < rows; row++) {
    const start = row * width;
    runningByteSum(words, start, width);
    const base = start * 4;
    for (let i = 0; i < width; i++) {
      out[start + i] =
        (bytes[base + i] << 24) |
        (bytes[base + width + i] << 16) |
        (bytes[base + 2 * width + i] << 8) |
        bytes[base + 3 * width + i];
    }
  }
  return new Uint8Array(out.buffer);
}

/**
 * Four samples from one word of each byte plane (a: most significant bytes ... d: least), little-endian words:
 * sample j = a_j << 24 | b_j << 16 | c_j << 8 | d_j. Pairs (d,c) and (b,a) are interleaved bytewise, then halves.
 */
function transposeFour(a: number, b: number, c: number, d: number, out: Int32Array, o: number): number {
  const dc02 = (d & 0x00ff00ff) | ((c & 0x00ff00ff) << 8);
  const dc13 = ((d >>> 8) & 0x00ff00ff) | (c & 0xff00ff00);
  const ba02 = (b & 0x00ff00ff) | ((a & 0x00ff00ff) << 8);
  const ba13 = ((b >>> 8) & 0x00ff00ff) | (a & 0xff00ff00);
  out[o] = (dc02 & 0xffff) | (ba02 << 16);
  out[o + 1] = (dc13 & 0xffff) | (ba13 << 16);
  out[o + 2] = (dc02 >>> 16) | (ba02 & 0xffff0000);
  out[o + 3] = (dc13 >>> 16) | (ba13 & 0xffff0000);
  return o + 4;
}

const LOW7 = 0x7f7f7f7f;
const HIGH1 = 0x80808080 | 0;

/** Byte-wise addition of two 32-bit words, each byte modulo 256 (no carry between bytes). */
function addBytes(a: number, b: number): number {
  return ((a & LOW7) + (b & LOW7)) ^ ((a ^ b) & HIGH1);
}

/**
 * Running sum modulo 256 over the bytes of `count` little-endian words (a row), four bytes per step: the prefix
 * within a word by two shifted byte-wise adds, then the previous word's last byte added to all four.
 * ~1.6x faster than the byte loop (its add-and-store chain is serial).
 */
function runningByteSum(words: Int32Array, start: number, count: number): void {
  let carry = 0;
  for (let k = start; k < start + count; k++) {
    let x = words[k];
    x = addBytes(x, x << 8);
    x = addBytes(x, x << 16);
    x = addBytes(x, carry);
    words[k] = x;
    carry = ((x >>> 24) * 0x01010101) | 0;
  }
}

/** Reverses the byte order of every sample in place (big-endian TIFF on a little-endian machine). */
export function swapBytes(bytes: Uint8Array, bytesPerSample: number): void {
  if (bytesPerSample === 1) return;
  for (let i = 0; i + bytesPerSample <= bytes.byteLength; i += bytesPerSample) {
    for (let a = i, b = i + bytesPerSample - 1; a < b; a++, b--) {
      const t = bytes[a];
      bytes[a] = bytes[b];
      bytes[b] = t;
    }
  }
}
