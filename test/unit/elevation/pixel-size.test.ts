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

/** A point at `lat` on the Greenwich meridian. */
const at = (lat: number) => ({ lat, lon: 0 });

describe('pixelSizeMetres', () => {
  it('is the larger side of a 1" geographic pixel: ~30.9 m north-south at the equator, shrinking east-west with latitude', () => {
    const oneArcSecond = 1 / 3600;
    expect(pixelSizeMetres(info('EPSG:4326', [oneArcSecond, oneArcSecond]), at(0))).toBeCloseTo(30.92, 1);
    // At 60° the east-west side halves; the meridional side (30.9 m) is the larger.
    expect(pixelSizeMetres(info('EPSG:4326', [oneArcSecond, oneArcSecond]), at(60))).toBeCloseTo(30.99, 1);
    // A 2x1 arc-second pixel (Copernicus above 50°) is wider east-west at 50°: 2 * 30.9 * cos(50°) ≈ 39.8 m.
    expect(pixelSizeMetres(info('EPSG:4326', [2 * oneArcSecond, oneArcSecond]), at(50))).toBeCloseTo(39.8, 0);
  });

  it('equals the geodesic length of the pixel sides on the WGS84 ellipsoid, at every latitude', () => {
    const side = (lat: number, dLat: number, dLon: number) =>
      Geodesic.WGS84.Inverse(lat, 0, lat + dLat, dLon).s12 as number;
    const [x, y] = [2 / 3600, 1 / 3600];
    for (const lat of [0, 30, 50, 70, -50, 85]) {
      const expected = Math.max(side(lat, 0, x), side(lat, y, 0));
      // The parallel arc and the geodesic differ by micrometres over a pixel; the formula is exact to ~1 mm.
      expect(
        Math.abs((pixelSizeMetres(info('EPSG:4326', [x, y]), at(lat)) as number) - expected),
      ).toBeLessThan(1e-3);
    }
  });

  it('is the pixel side on the ground in a projected CRS: in its unit, at its scale where the point is', () => {
    // At the central meridian UTM's scale is 0.9996: 90 m of grid are 90 / 0.9996 m on the ground.
    expect(
      pixelSizeMetres(info('+proj=utm +zone=32 +datum=WGS84', [90, 90]), { lat: 48, lon: 9 }),
    ).toBeCloseTo(90 / 0.9996, 2);
    // Kilometres and feet are converted: 0.09 km; 300 ft at the standard parallel, where the scale is 1.
    const tmKm = '+proj=tmerc +lat_0=0 +lon_0=9 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=km';
    expect(pixelSizeMetres(info(tmKm, [0.09, 0.09]), { lat: 48.5, lon: 9 })).toBeCloseTo(90, 2);
    const polarFeet = '+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=ft';
    expect(pixelSizeMetres(info(polarFeet, [300, 300]), { lat: -71, lon: 9.5 })).toBeCloseTo(300 * 0.3048, 1);
    // EPSG:3857's 60 m at 64.8°N: x is a·λ and y a·ln tan(π/4 + φ/2) over the geodetic latitude, so a step of 60 m
    // is 60·N·cosφ/a east-west and 60·M·cosφ/a north-south on the WGS84 ellipsoid (M < N: east-west is larger).
    const lat = 64.8;
    const sin = Math.sin((lat * Math.PI) / 180);
    const eastWest = (60 * Math.cos((lat * Math.PI) / 180)) / Math.sqrt(1 - 0.00669437999014 * sin * sin);
    expect(pixelSizeMetres(info('EPSG:3857', [60, 60]), { lat, lon: -147.7 })).toBeCloseTo(eastWest, 1);
    expect(eastWest).toBeLessThan(26); // the file's 60 m
    // EPSG:3035 (LAEA Europe) at its centre, 52°N 10°E, is true to scale.
    expect(pixelSizeMetres(info('EPSG:3035', [25, 30]), { lat: 52, lon: 10 })).toBeCloseTo(30, 2);
    expect(pixelSizeMetres(info('+proj=longlat +datum=WGS84', [1 / 3600, 1 / 3600]), at(0))).toBeCloseTo(
      30.92,
      1,
    );
  });

  it('is unknown (null) where the projection cannot place the point', () => {
    // The north pole in a south polar stereographic projection is at infinity.
    const southPolar = '+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m';
    expect(pixelSizeMetres(info(southPolar, [100, 100]), { lat: 90, lon: 0 })).toBeNull();
  });

  it('is unknown (null) without a resolution or CRS, or for a CRS it cannot place', () => {
    expect(pixelSizeMetres(info(null, [1, 1]), at(0))).toBeNull();
    expect(pixelSizeMetres(info('EPSG:4326', null), at(0))).toBeNull();
    expect(pixelSizeMetres(info('EPSG:99999', [1, 1]), at(0))).toBeNull();
    expect(pixelSizeMetres(info('LOCAL_CS["unknown"]', [1, 1]), at(0))).toBeNull();
  });
});
