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
  const rowSamples = width * samplesPerPixel;
  const rowBytes = rowSamples * bytesPerSample;
  const out = new Uint8Array(bytes.byteLength);
  for (let base = 0; base + rowBytes <= bytes.byteLength; base += rowBytes) {
    for (let i = base + samplesPerPixel; i < base + rowBytes; i++)
      bytes[i] = (bytes[i] + bytes[i - samplesPerPixel]) & 0xff;
    if (bytesPerSample === 4) {
      const p0 = base;
      const p1 = base + rowSamples;
      const p2 = base + 2 * rowSamples;
      const p3 = base + 3 * rowSamples;
      for (let i = 0, o = base; i < rowSamples; i++, o += 4) {
        out[o] = bytes[p3 + i];
        out[o + 1] = bytes[p2 + i];
        out[o + 2] = bytes[p1 + i];
        out[o + 3] = bytes[p0 + i];
      }
    } else {
      for (let i = 0; i < rowSamples; i++) {
        for (let b = 0; b < bytesPerSample; b++) {
          out[base + i * bytesPerSample + (bytesPerSample - 1 - b)] = bytes[base + b * rowSamples + i];
        }
      }
    }
  }
  return out;
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
