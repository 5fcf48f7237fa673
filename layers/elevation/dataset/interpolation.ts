/**
 * Interpolation kernels over a window of pixel values, NaN marking nodata (or a pixel outside every raster).
 * `fx`, `fy` in [0, 1) are the point's offsets from the window's top-left inner pixel centre.
 *
 * Nodata policy (GDAL's warper): the point is nodata when the pixel containing it is nodata, so no height is
 * invented inside a void. Otherwise bilinear renormalises its weights over the valid pixels of its window (so a
 * point next to a void or a missing tile still gets a value); cubic needs all 16 pixels valid and otherwise
 * falls back to bilinear on the inner 2x2. At the outer edge of the data (whole rows or columns of the window
 * outside every raster, not nodata), cubic renormalises its weights per axis over the pixels inside, as GDAL's
 * RasterIO and OpenTopoData read there (`cubicInside`).
 */

export function bilinear(v00: number, v10: number, v01: number, v11: number, fx: number, fy: number): number {
  const w00 = (1 - fx) * (1 - fy);
  const w10 = fx * (1 - fy);
  const w01 = (1 - fx) * fy;
  const w11 = fx * fy;
  // All valid (NaN fails every comparison): the common case, no branches per pixel.
  if (v00 === v00 && v10 === v10 && v01 === v01 && v11 === v11)
    return v00 * w00 + v10 * w10 + v01 * w01 + v11 * w11;
  // The pixel containing the point (GDAL's floor(corner coordinate)): nodata there means nodata here.
  const containing = fy < 0.5 ? (fx < 0.5 ? v00 : v10) : fx < 0.5 ? v01 : v11;
  if (containing !== containing) return NaN;
  let sum = 0;
  let weight = 0;
  if (v00 === v00) {
    sum += v00 * w00;
    weight += w00;
  }
  if (v10 === v10) {
    sum += v10 * w10;
    weight += w10;
  }
  if (v01 === v01) {
    sum += v01 * w01;
    weight += w01;
  }
  if (v11 === v11) {
    sum += v11 * w11;
    weight += w11;
  }
  // The containing pixel is valid and is the nearest of the four: its weight alone is at least 0.25.
  return sum / weight;
}

/** Keys cubic convolution kernel with a = -0.5 (GDAL's and rasterio's "cubic"). */
function keys(t: number): number {
  const x = Math.abs(t);
  if (x <= 1) return (1.5 * x - 2.5) * x * x + 1;
  if (x < 2) return ((-0.5 * x + 2.5) * x - 4) * x + 2;
  return 0;
}

/** `w` is a 4x4 row-major window; its inner 2x2 starts at index 5. */
export function cubic(w: ArrayLike<number>, fx: number, fy: number): number {
  const kx0 = keys(1 + fx);
  const kx1 = keys(fx);
  const kx2 = keys(1 - fx);
  const kx3 = keys(2 - fx);
  let result = 0;
  for (let r = 0; r < 4; r++) {
    const i = r * 4;
    const row = w[i] * kx0 + w[i + 1] * kx1 + w[i + 2] * kx2 + w[i + 3] * kx3;
    result += row * keys(r - 1 - fy);
  }
  return result === result ? result : bilinear(w[5], w[6], w[9], w[10], fx, fy);
}

/**
 * Cubic with the window's columns and rows outside the data left out, each axis's weights renormalised over the
 * rest: GDAL's RasterIO convolution at a raster's edge (its kernel clamped to the raster, weights divided by their
 * sum), which is what OpenTopoData answers there. `w` is the 4x4 window, row-major; its pixels in the kept rows
 * and columns must be valid.
 *
 * @example
 * ```ts
 * // The west column is outside; the point lies on the centre of column 1: its values alone, along y.
 * const w = [NaN, 10, 20, 30, NaN, 10, 20, 30, NaN, 10, 20, 30, NaN, 10, 20, 30];
 * assert.equal(cubicInside(w, 0, 0.5, [false, true, true, true], [true, true, true, true]), 10);
 * ```
 */
export function cubicInside(
  w: ArrayLike<number>,
  fx: number,
  fy: number,
  columnInside: readonly boolean[],
  rowInside: readonly boolean[],
): number {
  const kx = [keys(1 + fx), keys(fx), keys(1 - fx), keys(2 - fx)];
  const ky = [keys(1 + fy), keys(fy), keys(1 - fy), keys(2 - fy)];
  let xSum = 0;
  let ySum = 0;
  for (let k = 0; k < 4; k++) {
    if (columnInside[k]) xSum += kx[k];
    if (rowInside[k]) ySum += ky[k];
  }
  let result = 0;
  for (let r = 0; r < 4; r++) {
    if (!rowInside[r]) continue;
    let row = 0;
    for (let c = 0; c < 4; c++) if (columnInside[c]) row += w[r * 4 + c] * (kx[c] / xSum);
    result += row * (ky[r] / ySum);
  }
  return result;
}
