/**
 * A float band's nodata is tested as GDAL's nodata mask tests it (GDALNoDataMaskBand: ARE_REAL_EQUAL, two float
 * epsilons relative to the sum, computed in the band's own precision), not for exact equality. A differential
 * probe against GDAL found pixels GDAL masks answered as heights: a Float32 nodata written as "-3.40282e+38" (six
 * digits, as some tools write it) beside pixels of -FLT_MAX answered -3.4e38 m; a Float64 nodata of -9999 beside
 * -9999.0001 answered -9999. The expected nulls below are GDAL 3.6's mask on the same files (gdalinfo -stats).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { isNodataValue } from '../../../layers/elevation/raster/raster';
import { ascii, float32Grid } from '../../support/tiff-writer';

const SIZE = 4;
const RES = 1 / 3600;
const FLT_MAX = 3.4028234663852886e38;

let dir: string;
const centre = (col: number) => ({ lat: 49 - 0.5 * RES, lon: 9 + (col + 0.5) * RES });

beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'float-nodata-'));
  const row = (values: number[]) => (col: number) => values[col];
  const f32 = row([-FLT_MAX, -3.40282e38, -1e30, 12.5]);
  const f64 = row([-9999.0001, -9999.004, -9999.01, -9999]);
  const grid = { size: SIZE, west: 9, north: 49, res: RES };
  fs.writeFileSync(
    path.join(dir, 'f32.tif'),
    float32Grid({ ...grid, value: (c) => f32(c), tags: { 42113: ascii('-3.40282e+38') } }),
  );
  fs.writeFileSync(
    path.join(dir, 'f64.tif'),
    float32Grid({ ...grid, value: (c) => f64(c), float64: true, tags: { 42113: ascii('-9999') } }),
  );
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    'datasets:\n  - name: f32\n    path: f32.tif\n  - name: f64\n    path: f64.tif\n',
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it.each(['nearest', 'bilinear', 'cubic'] as const)(
  'masks the float pixels GDAL masks (%s)',
  async (interpolation) => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const points = [0, 1, 2, 3].map(centre);
    // Float32, nodata "-3.40282e+38": -FLT_MAX and the nodata itself are masked.
    expect((await registry.get('f32').sample(points, interpolation)).slice(0, 2)).toEqual([null, null]);
    // Float64, nodata -9999: within 2 float epsilons of it (±0.0048) is nodata.
    const f64 = await registry.get('f64').sample(points, interpolation);
    expect([f64[0], f64[1], f64[3]]).toEqual([null, null, null]);
  },
);

it('answers the float pixels GDAL does not mask', async () => {
  const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
  const points = [0, 1, 2, 3].map(centre);
  // -1e30 beside a nodata of -3.40282e+38 is a value to GDAL too; so is -9999.01 beside -9999.
  expect((await registry.get('f32').sample(points, 'nearest')).slice(2)).toEqual([Math.fround(-1e30), 12.5]);
  expect((await registry.get('f64').sample(points, 'nearest'))[2]).toBe(-9999.01);
});

describe('isNodataValue', () => {
  it('is exact on integer bands, and NaN is never the nodata value (NaN pixels are nodata on their own)', () => {
    expect(isNodataValue(-32768, -32768, 'Int16')).toBe(true);
    expect(isNodataValue(-32767, -32768, 'Int16')).toBe(false);
    expect(isNodataValue(NaN, -9999, 'Float64')).toBe(false);
  });

  it("follows GDAL's ARE_REAL_EQUAL in float precision on Float32 bands: a sum past FLT_MAX matches anything near", () => {
    const nodata = Math.fround(-3.40282e38);
    expect(isNodataValue(Math.fround(-FLT_MAX), nodata, 'Float32')).toBe(true);
    // The float sum overflows to -Infinity, so GDAL masks every value below about -3.5e32 (gdalinfo -stats counts
    // -1e33 as nodata and -2e32 as valid beside this nodata).
    expect(isNodataValue(Math.fround(-1.8e38), nodata, 'Float32')).toBe(true);
    expect(isNodataValue(Math.fround(-1e33), nodata, 'Float32')).toBe(true);
    expect(isNodataValue(Math.fround(-2e32), nodata, 'Float32')).toBe(false);
    expect(isNodataValue(Math.fround(-9999.0009), Math.fround(-9999), 'Float32')).toBe(true);
    expect(isNodataValue(Math.fround(-9999.01), Math.fround(-9999), 'Float32')).toBe(false);
  });

  it('follows it in double precision on Float64 bands', () => {
    expect(isNodataValue(-9999.0047, -9999, 'Float64')).toBe(true);
    expect(isNodataValue(-9999.0048, -9999, 'Float64')).toBe(false);
    expect(isNodataValue(1e-300, 0, 'Float64')).toBe(false); // 0 matches only 0: the tolerance is relative
  });
});
