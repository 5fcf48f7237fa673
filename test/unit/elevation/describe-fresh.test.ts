/**
 * What `GET /v1/datasets` says (a dataset's `describe()`) follows the files as heights do: a single file replaced
 * by one of another extent, a tile added to a folder, a VRT replaced are described anew once MISSING_TTL_S has
 * passed (it was cached for the environment's life: old bounds and tile counts beside new heights).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, DatasetRegistry, loadApiConfig } from '../../../layers/elevation';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

/** A `size` x `size` UInt16 GeoTIFF of 1/16 degree pixels, north-west corner (west, north), every pixel `value`. */
function tiff(size: number, value: number, west: number, north: number): Uint8Array {
  return writeTiff({
    width: size,
    height: size,
    tile: 16,
    tiles: Array.from(
      { length: (size / 16) ** 2 },
      () => new Uint8Array(new Uint16Array(256).fill(value).buffer),
    ),
    tags: {
      258: short(16),
      34735: WGS84_KEYS,
      33550: double(1 / 16, 1 / 16, 0),
      33922: double(0, 0, 0, west, north, 0),
    },
  });
}

let dir: string;
let clock: number;
let registry: DatasetRegistry;
const write = (name: string, bytes: Uint8Array | string, mtime: number) => {
  fs.writeFileSync(path.join(dir, name), bytes);
  fs.utimesSync(path.join(dir, name), mtime, mtime); // a file's version is its size and mtime
};

beforeEach(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'describe-fresh-'));
  fs.mkdirSync(path.join(dir, 'tiles'));
  write('single.tif', tiff(16, 100, 8, 50), 1000);
  write('tiles/N49E008.tif', tiff(16, 200, 8, 50), 1000);
  write('tiles/N48E008.tif', tiff(16, 200, 8, 49), 1000);
  fs.mkdirSync(path.join(dir, 'lone'));
  write('lone/N49E008.tif', tiff(16, 400, 8, 50), 1000);
  fs.mkdirSync(path.join(dir, 'lone-tiled'));
  write('lone-tiled/dem.tif', tiff(16, 700, 8, 50), 1000);
  write(
    'config.yaml',
    'datasets:\n  - name: single\n    path: single.tif\n  - name: tiles\n    path: tiles/\n' +
      '  - name: lone\n    path: lone/\n' +
      '  - name: lone-tiled\n    path: lone-tiled/\n    filename_tile_size: 1\n',
    1000,
  );
  clock = 0;
  registry = new DatasetRegistry(loadApiConfig(path.join(dir, 'config.yaml')), {
    dataRoot: dir,
    headerPrefetchBytes: 65536,
    timeoutMs: 5000,
    retries: 0,
    missingTtlMs: 1000,
    now: () => clock,
  });
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

it('describes a single file replaced by one of another extent anew after MISSING_TTL_S', async () => {
  await expect(registry.get('single').describe()).resolves.toMatchObject({ bounds: [8, 49, 9, 50] });
  write('single.tif', tiff(32, 100, 8, 50), 2000);
  clock = 999;
  await expect(registry.get('single').describe()).resolves.toMatchObject({ bounds: [8, 49, 9, 50] });
  clock = 1000;
  await expect(registry.get('single').describe()).resolves.toMatchObject({ bounds: [8, 48, 10, 50] });
  // and the heights agree with it: the point in the new half has a height
  await expect(registry.get('single').sample([{ lat: 48.5, lon: 9.5 }], 'nearest')).resolves.toEqual([100]);
});

it('describes a folder anew after MISSING_TTL_S: a tile added counts', async () => {
  await expect(registry.get('tiles').describe()).resolves.toMatchObject({
    tileCount: 2,
    bounds: [8, 48, 9, 50],
  });
  write('tiles/N49E009.tif', tiff(16, 300, 9, 50), 2000);
  clock = 1000; // described anew, but the listing is still within its MISSING_TTL_S
  await expect(registry.get('tiles').describe()).resolves.toMatchObject({ tileCount: 2 });
  clock = 2001;
  await expect(registry.get('tiles').describe()).resolves.toMatchObject({
    tileCount: 3,
    bounds: [8, 48, 10, 50],
  });
});

it('describes a single file deleted since as unavailable, not with its old facts', async () => {
  await expect(registry.get('single').describe()).resolves.toMatchObject({ tileCount: 1 });
  fs.rmSync(path.join(dir, 'single.tif'));
  clock = 1000;
  await expect(registry.get('single').describe()).rejects.toThrow(/single/);
});

it('a folder of one raster joined by a tile becomes a tiled dataset after MISSING_TTL_S (its points had no data)', async () => {
  const lone = registry.get('lone');
  const [west, east] = [
    { lat: 49.5, lon: 8.5 },
    { lat: 49.5, lon: 9.5 },
  ];
  await expect(lone.sample([west, east], 'nearest')).resolves.toEqual([400, null]);
  await expect(lone.describe()).resolves.toMatchObject({ tileCount: 1, bounds: [8, 49, 9, 50] });
  write('lone/N49E009.tif', tiff(16, 500, 9, 50), 2000);
  clock = 999;
  await expect(lone.sample([west, east], 'nearest')).resolves.toEqual([400, null]);
  clock = 1000;
  await expect(lone.sample([west, east], 'nearest')).resolves.toEqual([400, 500]);
  await expect(lone.describe()).resolves.toMatchObject({ tileCount: 2, bounds: [8, 49, 10, 50] });
});

it('a lone raster replaced by another name in its folder is read from the new one after MISSING_TTL_S', async () => {
  const lone = registry.get('lone');
  await expect(lone.sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).resolves.toEqual([400]);
  fs.rmSync(path.join(dir, 'lone/N49E008.tif'));
  write('lone/dem.tif', tiff(16, 600, 8, 50), 2000);
  clock = 1000;
  await expect(lone.sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).resolves.toEqual([600]);
});

it('a lone raster under filename_tile_size is one file until tiles replace it, then tiles after MISSING_TTL_S', async () => {
  const lone = registry.get('lone-tiled');
  const [west, east] = [
    { lat: 49.5, lon: 8.5 },
    { lat: 49.5, lon: 9.5 },
  ];
  await expect(lone.sample([west, east], 'nearest')).resolves.toEqual([700, null]);
  fs.rmSync(path.join(dir, 'lone-tiled/dem.tif'));
  write('lone-tiled/N49E008.tif', tiff(16, 400, 8, 50), 2000);
  write('lone-tiled/N49E009.tif', tiff(16, 500, 9, 50), 2000);
  clock = 1000;
  await expect(lone.sample([west, east], 'nearest')).resolves.toEqual([400, 500]);
  await expect(lone.describe()).resolves.toMatchObject({ tileCount: 2, bounds: [8, 49, 10, 50] });
});
