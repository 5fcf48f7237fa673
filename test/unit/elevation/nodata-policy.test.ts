import { bilinear, cubic } from '../../../layers/elevation/dataset/interpolation';

/** GDAL's warper: a point whose containing pixel is nodata is nodata, whatever its neighbours hold. */
describe('nodata policy of the interpolation kernels', () => {
  it('returns NaN for bilinear when the pixel containing the point is nodata, even with valid neighbours', () => {
    // Point 0.2 px right of and 0.1 px below the centre of the top-left pixel, which is nodata.
    expect(bilinear(NaN, 10, 20, 30, 0.2, 0.1)).toBeNaN();
    // The containing pixel switches at 0.5 (GDAL's floor of the corner-based coordinate).
    expect(bilinear(10, NaN, 20, 30, 0.5, 0.2)).toBeNaN();
    expect(bilinear(10, 20, 30, NaN, 0.7, 0.6)).toBeNaN();
  });

  it('renormalises bilinear over valid pixels when only a neighbour is nodata', () => {
    // Containing pixel (0,0) valid; (1,0) nodata: weights of the three valid pixels are renormalised.
    const fx = 0.25;
    const fy = 0.25;
    const expected =
      (10 * 0.75 * 0.75 + 20 * 0.75 * 0.25 + 30 * 0.25 * 0.25) / (0.75 * 0.75 + 0.75 * 0.25 + 0.25 * 0.25);
    expect(bilinear(10, NaN, 20, 30, fx, fy)).toBeCloseTo(expected, 12);
  });

  it('gives cubic the same rule through its bilinear fallback', () => {
    const window = Array.from({ length: 16 }, (_, i) => 100 + i);
    window[5] = NaN; // inner top-left pixel: contains points with fx, fy < 0.5
    expect(cubic(window, 0.3, 0.3)).toBeNaN();
    expect(cubic(window, 0.8, 0.8)).toBeCloseTo(bilinear(NaN, 106, 109, 110, 0.8, 0.8), 12);
  });
});
