/**
 * Cubic at the outer edge of the data, where the 4x4 window leaves every raster (not nodata): GDAL's RasterIO
 * clamps its kernel to the raster and renormalises the weights per axis, and OpenTopoData answers that value.
 * The library fell back to bilinear there (a helper's side-by-side run: ETOPO1 at 4.7306° N, 180° W, cubic
 * −5661.863 where GDAL and OpenTopoData read −5683.528). The raster here holds row² down every column, a
 * quadratic Keys' cubic reproduces exactly and bilinear does not; the real-data suite compares with GDAL itself.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { ascii, float32Grid } from '../../support/tiff-writer';

const SIZE = 32;
const RES = 1 / 64;
let dir: string;

beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'cubic-edge-'));
  // A void at row 20 of column 1, to show a nodata pixel in the kept window still falls back to bilinear.
  const tiff = float32Grid({
    size: SIZE,
    west: 10,
    north: 50,
    res: RES,
    value: (col, row) => (col === 1 && row === 20 ? -9999 : row * row),
    tags: { 42113: ascii('-9999') },
  });
  fs.writeFileSync(path.join(dir, 'square.tif'), tiff);
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'datasets:\n  - name: square\n    path: square.tif\n');
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** The point at pixel coordinates (px, py), corner-based. */
const at = (px: number, py: number) => ({ lat: 50 - py * RES, lon: 10 + px * RES });

describe('cubic where its window leaves the data', () => {
  it('on the west column: the column alone, renormalised along it (row 9.5 squared), not bilinear', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const [cubic, bilinear] = await Promise.all([
      registry.get('square').sample([at(0.5, 10)], 'cubic'),
      registry.get('square').sample([at(0.5, 10)], 'bilinear'),
    ]);
    expect(cubic[0]).toBeCloseTo(9.5 * 9.5, 9);
    expect(bilinear[0]).toBeCloseTo((81 + 100) / 2, 9);
  });

  it('in the north-west corner, rows and columns left out on both axes', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    // Between rows 0 and 1 (fy 0.5) the kept rows are 0, 1, 2: Keys' weights -1/16, 9/16, 9/16 renormalised
    // over 17/16 (row -1 is outside); the quadratic is no longer reproduced exactly there, as in GDAL.
    const expected = ((9 / 16) * 0 + (9 / 16) * 1 + (-1 / 16) * 4) / (17 / 16);
    await expect(registry.get('square').sample([at(0.5, 1)], 'cubic')).resolves.toEqual([
      expect.closeTo(expected, 9),
    ]);
  });

  it('a nodata pixel among those kept: bilinear, as inside the raster', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const point = at(0.5, 20.25); // column 0; column 1 (weight 0 here, but kept) holds the void at row 20
    const [cubic, bilinear] = await Promise.all([
      registry.get('square').sample([point], 'cubic'),
      registry.get('square').sample([point], 'bilinear'),
    ]);
    expect(cubic).toEqual(bilinear);
  });
});
