/**
 * A big-endian GeoTIFF whose block offsets lie beyond the header's first read: geotiff.js 3.0.5 loads such an array
 * later (a DeferredArray) and reads it little-endian whatever the file's byte order, so every block was looked for
 * at a byte-swapped offset. A differential probe against GDAL found it: a 2048 x 8400 Int16 file answered 126
 * where GDAL reads 3074 (200, swapped offsets that still fell inside the file), and `npm start` refused SRTM tiles
 * written with ENDIANNESS=BIG as "cut short". The same raster in both byte orders must read the same.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { float32Grid } from '../../support/tiff-writer';

const SIZE = 320;
const TILE = 16; // 400 tiles: 1,600 bytes of offsets, past the header's first 1 KiB
const RES = 1 / 3600;
const WEST = 9;
const NORTH = 49;
const value = (col: number, row: number) => col * 1000 + row;

let dir: string;

beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'big-endian-'));
  for (const [name, bigEndian] of [
    ['little.tif', false],
    ['big.tif', true],
  ] as const)
    fs.writeFileSync(
      path.join(dir, name),
      float32Grid({ size: SIZE, west: WEST, north: NORTH, res: RES, value, tile: TILE, bigEndian }),
    );
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    'datasets:\n  - name: little\n    path: little.tif\n  - name: big\n    path: big.tif\n',
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it('reads every block of a big-endian file with 400 tiles where it is, as the little-endian twin does', async () => {
  const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
  // One pixel centre in every tile (a different pixel in each), and the four corners' pixels.
  const pixels: [number, number][] = [];
  for (let tileRow = 0; tileRow < SIZE / TILE; tileRow++)
    for (let tileCol = 0; tileCol < SIZE / TILE; tileCol++)
      pixels.push([
        tileCol * TILE + ((tileRow * 7 + tileCol) % TILE),
        tileRow * TILE + ((tileCol * 5) % TILE),
      ]);
  pixels.push([0, 0], [SIZE - 1, 0], [0, SIZE - 1], [SIZE - 1, SIZE - 1]);
  const points = pixels.map(([col, row]) => ({
    lat: NORTH - (row + 0.5) * RES,
    lon: WEST + (col + 0.5) * RES,
  }));
  const expected = pixels.map(([col, row]) => value(col, row));
  expect(await registry.get('little').sample(points, 'nearest')).toEqual(expected);
  expect(await registry.get('big').sample(points, 'nearest')).toEqual(expected);
  // Bilinear at pixel centres: the pixel's value, to the rounding of its weights.
  const bilinear = await registry.get('big').sample(points, 'bilinear');
  bilinear.forEach((height, i) => expect(height).toBeCloseTo(expected[i], 6));
});
