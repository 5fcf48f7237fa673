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
 * The common case (one Float32 band), about 4x faster than the general loop: a running byte sum per row taken a
 * word at a time, then each sample assembled from its four planes with one 32-bit store.
 */
function undoFloat32Rows(bytes: Uint8Array, width: number): Uint8Array {
  const rowBytes = width * 4;
  const rows = Math.floor(bytes.byteLength / rowBytes);
  const out = new Int32Array(rows * width); // Int32: a Uint32 store of `x >>> 0` goes through a double
  const words = new Uint32Array(bytes.buffer, bytes.byteOffset, bytes.byteLength >> 2);
  for (let row = 0; row < rows; row++) {
    const base = row * rowBytes;
    runningByteSum(words, base >> 2, rowBytes >> 2);
    const p1 = base + width;
    const p2 = p1 + width;
    const p3 = p2 + width;
    const o = row * width;
    for (let i = 0; i < width; i++) {
      out[o + i] = (bytes[base + i] << 24) | (bytes[p1 + i] << 16) | (bytes[p2 + i] << 8) | bytes[p3 + i];
    }
  }
  return new Uint8Array(out.buffer);
}

const LOW7 = 0x7f7f7f7f;
const HIGH1 = 0x80808080;

/** Byte-wise addition of two 32-bit words, each byte modulo 256 (no carry between bytes). */
function addBytes(a: number, b: number): number {
  return ((a & LOW7) + (b & LOW7)) ^ ((a ^ b) & HIGH1);
}

/**
 * Running sum modulo 256 over the bytes of `count` little-endian words (a row), four bytes per step: the prefix
 * within a word by two shifted byte-wise adds, then the previous word's last byte added to all four.
 * ~1.6x faster than the byte loop (its add-and-store chain is serial).
 */
function runningByteSum(words: Uint32Array, start: number, count: number): void {
  let carry = 0;
  for (let k = start; k < start + count; k++) {
    let x = words[k];
    x = addBytes(x, x << 8);
    x = addBytes(x, x << 16);
    x = addBytes(x, carry * 0x01010101);
    words[k] = x;
    carry = x >>> 24;
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
