/**
 * Property: tiled fixtures hold one analytic plane across all their tiles, so wherever a window lies inside
 * the mosaic (away from its outer edges and nodata), bilinear and cubic must return the plane's value,
 * whichever tiles the window straddles. Catches seams, wrong tile choice, half-pixel shifts and CRS errors.
 */
import fc from 'fast-check';
import { loadDatasetRegistry, type Interpolation } from '../../../layers/elevation';
import { crsFromEpsg, wgs84Converter } from '../../../layers/elevation/geo/crs';

const VALUE_TOLERANCE_M = 1e-3;
const RUNS = 60;
const POINTS_PER_RUN = 20;
const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
const interpolation = fc.constantFrom<Interpolation>('bilinear', 'cubic');

describe('seamless mosaics', () => {
  it('copernicus 2x2: any point 3+ px inside the mosaic reads the plane, across both seams', async () => {
    // z = 1000 + 64 (lon + 118) + 32 (lat - 34); pixels are 1/32 deg; the mosaic spans 33-35 N, 119-117 W.
    const plane = (lat: number, lon: number) => 1000 + 64 * (lon + 118) + 32 * (lat - 34);
    const point = fc.record({
      lat: fc.double({ min: 33.1, max: 34.9, noNaN: true }),
      lon: fc.double({ min: -118.9, max: -117.1, noNaN: true }),
    });
    await fc.assert(
      fc.asyncProperty(
        fc.array(point, { minLength: 1, maxLength: POINTS_PER_RUN }),
        interpolation,
        async (points, how) => {
          const values = await registry.get('copernicus').sample(points, how);
          values.forEach((value, i) => {
            expect(Math.abs((value as number) - plane(points[i].lat, points[i].lon))).toBeLessThan(
              VALUE_TOLERANCE_M,
            );
          });
        },
      ),
      { numRuns: RUNS },
    );
  });

  it('laea-pair (EPSG:3035): any point 3+ px inside the pair and away from its nodata pixel reads the plane', async () => {
    // z = 100 + 0.01 (x - 4250000) + 0.004 (y - 2800000); 500 m pixels; tiles meet at x = 4260000.
    const laea = wgs84Converter(crsFromEpsg(3035));
    const plane = (x: number, y: number) => 100 + 0.01 * (x - 4250000) + 0.004 * (y - 2800000);
    const NODATA_CENTRE = { x: 4263750, y: 2807750 };
    const point = fc
      .record({
        x: fc.double({ min: 4251500, max: 4268500, noNaN: true }),
        y: fc.double({ min: 2801500, max: 2808500, noNaN: true }),
      })
      .filter(({ x, y }) => Math.max(Math.abs(x - NODATA_CENTRE.x), Math.abs(y - NODATA_CENTRE.y)) > 1500)
      .map(({ x, y }) => {
        const [lon, lat] = laea.inverse(x, y);
        return { lat, lon };
      });
    await fc.assert(
      fc.asyncProperty(
        fc.array(point, { minLength: 1, maxLength: POINTS_PER_RUN }),
        interpolation,
        async (points, how) => {
          const values = await registry.get('laea-pair').sample(points, how);
          values.forEach((value, i) => {
            const [x, y] = laea.forward(points[i].lon, points[i].lat);
            expect(Math.abs((value as number) - plane(x, y))).toBeLessThan(VALUE_TOLERANCE_M);
          });
        },
      ),
      { numRuns: RUNS },
    );
  });
});
