/** The boxes a tile's placement check compares (mosaic.ts): how much of the smaller one two boxes share. */
import { crsFromEpsg } from '../../../layers/elevation/geo/crs';
import { gridBox, sharedFraction, toWgs84Box, type Box } from '../../../layers/elevation/dataset/wgs84-box';

describe('sharedFraction', () => {
  it.each<[string, Box, Box, number]>([
    ['the same box', [8, 49, 9, 50], [8, 49, 9, 50], 1],
    ['a tile half a pixel larger than its name', [8, 49, 9, 50], [7.9998, 48.9998, 9.0002, 50.0002], 1],
    ['a small tile inside its named box', [8, 49, 9, 50], [8.5, 49.5, 8.75, 49.6], 1],
    ['half across in x', [8, 49, 9, 50], [8.5, 49, 9.5, 50], 0.5],
    ['a quarter in y of the smaller box', [0, 0, 4, 4], [1, 3, 3, 7], 0.25],
    ['the neighbour, sharing an edge', [8, 49, 9, 50], [9, 49, 10, 50], 0],
    ['the neighbour above', [8, 49, 9, 50], [8, 50, 9, 51], 0],
    ['far apart', [8, 49, 9, 50], [-20, -10, -19, -9], 0],
    ['an empty box', [8, 49, 8, 50], [8, 49, 9, 50], 0],
    ['a box outside the CRS (NaN)', [NaN, NaN, NaN, NaN], [8, 49, 9, 50], 0],
  ])('%s', (_, a, b, fraction) => {
    expect(sharedFraction(a, b)).toBeCloseTo(fraction, 9);
    expect(sharedFraction(b, a)).toBeCloseTo(fraction, 9);
  });
});

describe('gridBox', () => {
  it('is the box a north-up grid covers, whichever way its rows run', () => {
    const grid = { originX: 8, originY: 50, resX: 0.25, resY: -0.5, width: 4, height: 2 };
    expect(gridBox(grid as Parameters<typeof gridBox>[0])).toEqual([8, 49, 9, 50]);
    expect(gridBox({ ...grid, originY: 49, resY: 0.5 } as Parameters<typeof gridBox>[0])).toEqual([
      8, 49, 9, 50,
    ]);
  });
});

describe('toWgs84Box', () => {
  it('keeps a tile overhanging the antimeridian one narrow box (proj4 wraps NAD83 longitudes), and a world box whole', () => {
    // EPSG:4269 (NAD83) with a datum shift: -180.0001 came back as +179.9999, the box spanning the globe.
    const west = toWgs84Box(crsFromEpsg(4269), [-180.0001, 52, -178.9999, 53.0001]);
    expect(west[0]).toBeCloseTo(-180.0001, 3);
    expect(west[2]).toBeCloseTo(-178.9999, 3);
    expect(sharedFraction(west, [-180, 52, -179, 53])).toBeGreaterThan(0.99);
    const east = toWgs84Box(crsFromEpsg(4269), [178.9999, 52, 180.0001, 53.0001]);
    expect(east[0]).toBeCloseTo(178.9999, 3);
    expect(east[2]).toBeCloseTo(180.0001, 3);
    expect(toWgs84Box(crsFromEpsg(4326), [-180, -90, 180, 90])).toEqual([-180, -90, 180, 90]);
    expect(toWgs84Box(crsFromEpsg(3035), [4e6, 3e6, 4.1e6, 3.1e6])[0]).toBeCloseTo(5.43, 2); // as cs2cs gives
  });

  it('says [-180, 180] x [-90, 90] for a raster over the whole globe, not the ±179.5 proj4 wraps its edges to', () => {
    // ETOPO1 at 1°: pixel centres at ±180 and ±90, so its edges lie half a pixel beyond.
    expect(toWgs84Box(crsFromEpsg(4326), [-180.5, -90.5, 180.5, 90.5])).toEqual([-180, -90, 180, 90]);
    // A raster over 0..360 is answered east of 0 only (the API asks -180..180): said so, not clamped to the globe.
    expect(toWgs84Box(crsFromEpsg(4326), [0, -90, 360, 90])).toEqual([0, -90, 360, 90]);
    // Not the whole globe: the box goes on as it is (no clamp hides a strip).
    expect(toWgs84Box(crsFromEpsg(4326), [-180.5, 10, 178.5, 20])).toEqual([-180.5, 10, 178.5, 20]);
  });
});
