/**
 * VRT sources that overlap, as GDAL paints them: a later source paints over an earlier one; a ComplexSource
 * with `<NODATA>` (what gdalbuildvrt writes for sources with a nodata value) paints only its other pixels, so
 * where it holds nodata the earlier source shows through; a SimpleSource paints every pixel, nodata too. The VRT
 * must answer exactly what the painted mosaic answers as one file, for every interpolation (the windows that take
 * pixels from the overlap too). Against GDAL itself (gdal_translate of such a VRT): test/realdata/vrt-options-like-gdal.test.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry, type Interpolation } from '../../layers/elevation';
import { ascii, double, short, WGS84_KEYS, writeTiff } from '../support/tiff-writer';

const RES = 1 / 16;
const NODATA = -32768;
const [WIDTH, HEIGHT, SHIFT] = [32, 16, 28]; // each source; the east one starts 28 pixels east: 4 columns shared

const west = (r: number, c: number) => (r >= 10 && r <= 11 && c === 29 ? NODATA : 1000 + 10 * r + c);
// The east source's copy of the shared columns differs, with voids where the west one has heights.
const east = (r: number, c: number) =>
  (r >= 5 && r <= 7 && c >= 1 && c <= 2) || (r >= 10 && r <= 11 && c === 1) ? NODATA : 3000 + 10 * r + c;

/** An Int16 GeoTIFF in 16-pixel tiles, north-west corner (west, 50), nodata -32768. */
function tiff(width: number, pixel: (r: number, c: number) => number, westX: number): Uint8Array {
  const across = Math.ceil(width / 16);
  const tiles = Array.from({ length: across }, (_, t) => {
    const values = new Int16Array(256);
    for (let r = 0; r < 16; r++)
      for (let c = 0; c < 16; c++) values[r * 16 + c] = t * 16 + c < width ? pixel(r, t * 16 + c) : 0;
    return new Uint8Array(values.buffer);
  });
  return writeTiff({
    width,
    height: HEIGHT,
    tile: 16,
    tiles,
    tags: {
      258: short(16),
      339: short(2), // signed
      34735: WGS84_KEYS,
      33550: double(RES, RES, 0),
      33922: double(0, 0, 0, westX, 50, 0),
      42113: ascii(String(NODATA)),
    },
  });
}

function vrt(kind: 'ComplexSource' | 'SimpleSource'): string {
  const source = (file: string, x: number) => `    <${kind}>
      <SourceFilename relativeToVRT="1">${file}</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="${WIDTH}" ySize="${HEIGHT}" />
      <DstRect xOff="${x}" yOff="0" xSize="${WIDTH}" ySize="${HEIGHT}" />${kind === 'ComplexSource' ? `\n      <NODATA>${NODATA}</NODATA>` : ''}
    </${kind}>`;
  return `<VRTDataset rasterXSize="${SHIFT + WIDTH}" rasterYSize="${HEIGHT}">
  <SRS>EPSG:4326</SRS>
  <GeoTransform>8, ${RES}, 0, 50, 0, ${-RES}</GeoTransform>
  <VRTRasterBand dataType="Int16" band="1">
    <NoDataValue>${NODATA}</NoDataValue>
${source('west.tif', 0)}
${source('east.tif', SHIFT)}
  </VRTRasterBand>
</VRTDataset>
`;
}

/** The mosaic as GDAL paints it: the east source over the west one, its nodata transparent or not. */
const painted = (transparent: boolean) => (r: number, c: number) => {
  if (c < SHIFT) return west(r, c);
  const over = east(r, c - SHIFT);
  return over === NODATA && transparent && c < WIDTH ? west(r, c) : over;
};

let dir: string;
beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'vrt-overlap-'));
  fs.writeFileSync(path.join(dir, 'west.tif'), tiff(WIDTH, west, 8));
  fs.writeFileSync(path.join(dir, 'east.tif'), tiff(WIDTH, east, 8 + SHIFT * RES));
  fs.writeFileSync(path.join(dir, 'complex.vrt'), vrt('ComplexSource'));
  fs.writeFileSync(path.join(dir, 'simple.vrt'), vrt('SimpleSource'));
  fs.writeFileSync(path.join(dir, 'complex-painted.tif'), tiff(SHIFT + WIDTH, painted(true), 8));
  fs.writeFileSync(path.join(dir, 'simple-painted.tif'), tiff(SHIFT + WIDTH, painted(false), 8));
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:\n${['complex', 'simple']
      .map((n) => `  - name: ${n}\n    path: ${n}.vrt\n  - name: ${n}-painted\n    path: ${n}-painted.tif\n`)
      .join('')}`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** Every third of a pixel over the mosaic, pixel edges included. */
function points(): { lat: number; lon: number }[] {
  const out: { lat: number; lon: number }[] = [];
  for (let row = 0; row <= HEIGHT * 3; row++)
    for (let col = 0; col <= (SHIFT + WIDTH) * 3; col++)
      out.push({ lat: 50 - (row / 3) * RES, lon: 8 + (col / 3) * RES });
  return out;
}

describe.each([
  ['ComplexSource with <NODATA>', 'complex'],
  ['SimpleSource', 'simple'],
])('two overlapping %s sources', (_, name) => {
  it.each<Interpolation>(['nearest', 'bilinear', 'cubic'])(
    'answer %s as the mosaic GDAL paints from them, read as one file',
    async (interpolation) => {
      const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
      const at = points();
      const expected = await registry.get(`${name}-painted`).sample(at, interpolation);
      const answered = await registry.get(name).sample(at, interpolation);
      expect(answered.map((v) => v === null)).toEqual(expected.map((v) => v === null));
      // The same pixels and weights; weights from the east source's own origin may differ in the last bits.
      const worst = Math.max(...answered.map((v, i) => Math.abs((v ?? 0) - (expected[i] ?? 0))));
      expect(worst).toBeLessThan(1e-9);
      expect(expected.filter((v) => v === null).length).toBeGreaterThan(0);
    },
  );
});

it('the shared columns: the east heights, and where the east source has a void, the west one (ComplexSource only)', async () => {
  const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
  const centre = (r: number, c: number) => ({ lat: 50 - (r + 0.5) * RES, lon: 8 + (c + 0.5) * RES });
  const at = [centre(2, 30), centre(6, 29), centre(10, 29)];
  await expect(registry.get('complex').sample(at, 'nearest')).resolves.toEqual([3022, 1089, null]);
  await expect(registry.get('simple').sample(at, 'nearest')).resolves.toEqual([3022, null, null]);
});
