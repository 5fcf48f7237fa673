/**
 * Property: `nearest` reads the pixel that contains the point, GDAL's floor rule on the corner-based grid
 * (test/fixtures/README.md gives each fixture's geotransform and pixel values), for geographic and projected
 * rasters, PixelIsPoint and PixelIsArea alike.
 */
import fc from 'fast-check';
import { loadDatasetRegistry } from '../../../layers/elevation';
import { crsFromEpsg, wgs84Converter } from '../../../layers/elevation/geo/crs';

const RUNS = 60;
/** Stay this far (in pixels) from pixel edges so a rounding of the projection cannot flip the pixel. */
const EDGE_MARGIN_PX = 1e-6;
const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });

interface Grid {
  dataset: string;
  originX: number;
  originY: number;
  res: number;
  size: number;
  value: (col: number, row: number) => number | null;
}

const GRIDS: Grid[] = [
  // PixelIsPoint: the corner origin is half a pixel up-left of the tiepoint (10, 50).
  {
    dataset: 'plane-point',
    originX: 9.9921875,
    originY: 50.0078125,
    res: 0.015625,
    size: 40,
    value: (c, r) => 1000 + 10 * c - 4 * r,
  },
  {
    dataset: 'big-endian',
    originX: 9.9921875,
    originY: 50.0078125,
    res: 0.015625,
    size: 40,
    value: (c, r) => 1000 + 10 * c - 4 * r,
  },
  {
    dataset: 'plane-area',
    originX: 10,
    originY: 50,
    res: 0.015625,
    size: 40,
    value: (c, r) => 1003 + 10 * c - 4 * r,
  },
];

function pixelOf(grid: Grid, x: number, y: number) {
  const fc_ = (x - grid.originX) / grid.res;
  const fr = (grid.originY - y) / grid.res;
  return {
    col: Math.floor(fc_),
    row: Math.floor(fr),
    nearEdge: Math.min(fc_ % 1, 1 - (fc_ % 1), fr % 1, 1 - (fr % 1)) < EDGE_MARGIN_PX,
  };
}

describe('nearest reads the containing pixel', () => {
  it.each(GRIDS.map((g) => [g.dataset, g] as const))('%s', async (_name, grid) => {
    const extent = grid.size * grid.res;
    const point = fc
      .record({
        lon: fc.double({ min: grid.originX, max: grid.originX + extent, maxExcluded: true, noNaN: true }),
        lat: fc.double({ min: grid.originY - extent, max: grid.originY, minExcluded: true, noNaN: true }),
      })
      .filter((p) => !pixelOf(grid, p.lon, p.lat).nearEdge);
    await fc.assert(
      fc.asyncProperty(fc.array(point, { minLength: 1, maxLength: 20 }), async (points) => {
        const values = await registry.get(grid.dataset).sample(points, 'nearest');
        points.forEach((p, i) => {
          const { col, row } = pixelOf(grid, p.lon, p.lat);
          expect(values[i]).toBe(grid.value(col, row));
        });
      }),
      { numRuns: RUNS },
    );
  });

  it('utm32 (EPSG:25832, Int16 with one nodata pixel)', async () => {
    const utm = wgs84Converter(crsFromEpsg(25832));
    const grid: Grid = {
      dataset: 'utm32',
      originX: 510000,
      originY: 5410000,
      res: 100,
      size: 40,
      value: (c, r) => (c === 10 && r === 20 ? null : 257 + 10 * c + 4 * r),
    };
    const point = fc
      .record({
        x: fc.double({ min: 510001, max: 513999, noNaN: true }),
        y: fc.double({ min: 5406001, max: 5409999, noNaN: true }),
      })
      .map(({ x, y }) => {
        const [lon, lat] = utm.inverse(x, y);
        return { lat, lon };
      });
    await fc.assert(
      fc.asyncProperty(fc.array(point, { minLength: 1, maxLength: 20 }), async (points) => {
        const values = await registry.get('utm32').sample(points, 'nearest');
        points.forEach((p, i) => {
          const [x, y] = utm.forward(p.lon, p.lat);
          const { col, row } = pixelOf(grid, x, y);
          expect(values[i]).toBe(grid.value(col, row));
        });
      }),
      { numRuns: RUNS },
    );
  });
});
