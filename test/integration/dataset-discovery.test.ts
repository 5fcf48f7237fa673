/**
 * Datasets are discovered, not guessed: over the data layer (HTTP, with its /_list/ endpoint) a folder holding
 * one raster is a single-file dataset, a folder of corner-named .hgt / .hgt.zip / .TIF files is a tiled one,
 * and where a server cannot list, tile names are computed with every extension tried in a documented order.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../scripts/data-server';
import { configureBlockCache, loadDatasetRegistry } from '../../layers/elevation';
import { zipOf } from '../support/hgt-files';
import { startFlakyServer, type FlakyServer } from './support/flaky-data-server';

const FIXTURES = path.resolve('test/fixtures');
const SIZE = 1201;
/** z = 100 + col + 2 * row + 3000 * (west - 9): distinct per tile and per pixel, exact in Int16. */
const value = (west: number, col: number, row: number) => 100 + col + 2 * row + 3000 * (west - 9);

function hgt(west: number): Buffer {
  const bytes = Buffer.alloc(SIZE * SIZE * 2);
  for (let row = 0; row < SIZE; row++)
    for (let col = 0; col < SIZE; col++) bytes.writeInt16BE(value(west, col, row), 2 * (row * SIZE + col));
  return bytes;
}

let root: string;
let dataServer: DataServer;
let flaky: FlakyServer;
const config = `datasets:
  - name: one-file-folder
    path: single/
  - name: srtm-mixed
    path: srtm/
  - name: laea-upper-case
    path: laea/
    filename_epsg: 3035
    filename_tile_size: 10000
  - name: srtm-computed
    path: srtm/
    filename_tile_size: 1
`;

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'discovery-'));
  for (const dir of ['single', 'srtm', 'laea']) fs.mkdirSync(path.join(root, dir));
  fs.copyFileSync(path.join(FIXTURES, 'plane-point.tif'), path.join(root, 'single', 'DEM.TIF'));
  fs.writeFileSync(path.join(root, 'single', 'README.txt'), 'not a raster');
  fs.writeFileSync(path.join(root, 'srtm', 'N48E009.hgt'), hgt(9));
  fs.writeFileSync(path.join(root, 'srtm', 'N48E010.hgt.zip'), zipOf('N48E010.hgt', hgt(10)));
  fs.writeFileSync(path.join(root, 'srtm', 'N48E009.aux.xml'), '<PAMDataset/>');
  for (const name of fs.readdirSync(path.join(FIXTURES, 'laea-pair')))
    fs.copyFileSync(
      path.join(FIXTURES, 'laea-pair', name),
      path.join(root, 'laea', name.replace('.tif', '.TIF')),
    );
  fs.writeFileSync(path.join(root, 'config.yaml'), config);
  dataServer = await startDataServer({ root, port: 0 });
  flaky = await startFlakyServer(root);
});

afterAll(async () => {
  await dataServer.close();
  await flaky.close();
  fs.rmSync(root, { recursive: true, force: true });
});

beforeEach(() => configureBlockCache(16 * 1024 * 1024));

const registryOver = (dataRoot: string) =>
  loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot, missingTtlMs: 60_000 });
/** Pixel (col, row) of tile N48E{west}: its centre, 3" pixels from the NW corner. */
const at = (west: number, col: number, row: number) => ({ lat: 49 - row / 1200, lon: west + col / 1200 });

describe('over the data layer (listed)', () => {
  it('reads a folder holding one raster (upper-case .TIF) as that file', async () => {
    const [overHttp] = await registryOver(dataServer.url)
      .get('one-file-folder')
      .sample([{ lat: 49.9, lon: 10.1 }], 'nearest');
    const [local] = await registryOver(root)
      .get('one-file-folder')
      .sample([{ lat: 49.9, lon: 10.1 }], 'nearest');
    expect(overHttp).toBe(1036);
    expect(local).toBe(1036);
  });

  it('reads a folder mixing .hgt and .hgt.zip as 1-degree tiles, each value from its own tile', async () => {
    const dataset = registryOver(dataServer.url).get('srtm-mixed');
    const heights = await dataset.sample([at(9, 100, 200), at(10, 300, 400)], 'nearest');
    expect(heights).toEqual([value(9, 100, 200), value(10, 300, 400)]);
    expect((await dataset.describe()).tileCount).toBe(2);
    expect(dataServer.stats().files['/srtm/N48E010.tif']).toBeUndefined(); // listed: no guessing
  });

  it('reads upper-case .TIF EU-DEM-style tiles as the same tiles read from the folder', async () => {
    const point = { lat: 48.3565473, lon: 9.1785843 };
    const [overHttp] = await registryOver(dataServer.url).get('laea-upper-case').sample([point], 'bilinear');
    expect(overHttp).toBeCloseTo(221.492034, 3);
  });
});

describe('over a server that cannot list', () => {
  it('computes tile names and tries .tif, then .hgt, then .hgt.zip, answering the same heights', async () => {
    const dataset = registryOver(flaky.url).get('srtm-computed');
    const heights = await dataset.sample([at(9, 100, 200), at(10, 300, 400)], 'nearest');
    expect(heights).toEqual([value(9, 100, 200), value(10, 300, 400)]);
  });

  it('refuses a folder dataset it cannot list, saying what to configure', async () => {
    await expect(
      registryOver(flaky.url)
        .get('one-file-folder')
        .sample([{ lat: 49.9, lon: 10.1 }], 'nearest'),
    ).rejects.toThrow(/cannot be listed; name the file in `path`/);
  });
});
