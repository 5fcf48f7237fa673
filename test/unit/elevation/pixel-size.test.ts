/** Google's `resolution`: the answering dataset's pixel size in metres at the point. */
import { pixelSizeMetres } from '../../../layers/elevation/google/pixel-size';
import type { DatasetInfo } from '../../../layers/elevation';
import { Geodesic } from 'geographiclib-geodesic';

const info = (crs: string | null, resolution: [number, number] | null): DatasetInfo => ({
  name: 'd',
  bounds: null,
  resolution,
  crs,
  pixelType: 'Float32',
  tileCount: 1,
  verticalDatum: null,
});

describe('pixelSizeMetres', () => {
  it('is the larger side of a 1" geographic pixel: ~30.9 m north-south at the equator, shrinking east-west with latitude', () => {
    const oneArcSecond = 1 / 3600;
    expect(pixelSizeMetres(info('EPSG:4326', [oneArcSecond, oneArcSecond]), 0)).toBeCloseTo(30.92, 1);
    // At 60° the east-west side halves; the meridional side (30.9 m) is the larger.
    expect(pixelSizeMetres(info('EPSG:4326', [oneArcSecond, oneArcSecond]), 60)).toBeCloseTo(30.99, 1);
    // A 2x1 arc-second pixel (Copernicus above 50°) is wider east-west at 50°: 2 * 30.9 * cos(50°) ≈ 39.8 m.
    expect(pixelSizeMetres(info('EPSG:4326', [2 * oneArcSecond, oneArcSecond]), 50)).toBeCloseTo(39.8, 0);
  });

  it('equals the geodesic length of the pixel sides on the WGS84 ellipsoid, at every latitude', () => {
    const side = (lat: number, dLat: number, dLon: number) =>
      Geodesic.WGS84.Inverse(lat, 0, lat + dLat, dLon).s12 as number;
    const [x, y] = [2 / 3600, 1 / 3600];
    for (const lat of [0, 30, 50, 70, -50, 85]) {
      const expected = Math.max(side(lat, 0, x), side(lat, y, 0));
      // The parallel arc and the geodesic differ by micrometres over a pixel; the formula is exact to ~1 mm.
      expect(Math.abs((pixelSizeMetres(info('EPSG:4326', [x, y]), lat) as number) - expected)).toBeLessThan(
        1e-3,
      );
    }
  });

  it('is the pixel size itself in a projected CRS, by EPSG code or proj4 string', () => {
    expect(pixelSizeMetres(info('EPSG:3035', [25, 30]), 48)).toBe(30);
    expect(pixelSizeMetres(info('+proj=utm +zone=32 +datum=WGS84', [90, 90]), 48)).toBe(90);
    expect(pixelSizeMetres(info('+proj=longlat +datum=WGS84', [1 / 3600, 1 / 3600]), 0)).toBeCloseTo(
      30.92,
      1,
    );
  });

  it('is unknown (null) without a resolution or CRS, or for a CRS it cannot place', () => {
    expect(pixelSizeMetres(info(null, [1, 1]), 0)).toBeNull();
    expect(pixelSizeMetres(info('EPSG:4326', null), 0)).toBeNull();
    expect(pixelSizeMetres(info('EPSG:99999', [1, 1]), 0)).toBeNull();
    expect(pixelSizeMetres(info('LOCAL_CS["unknown"]', [1, 1]), 0)).toBeNull();
  });
});
