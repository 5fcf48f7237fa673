/**
 * Tiles smaller than a degree, named as OpenTopoData reads them: `x` for the decimal point (`N48x5E009x5.tif`),
 * `filename_tile_size` as text (`'0.5'`), which OpenTopoData needs for a fraction. Each tile is written here with
 * its own values, so a point answered from a neighbouring tile shows.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError, loadDatasetRegistry, type DatasetRegistry } from '../../../layers/elevation';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const PIXELS = 16;

/** A 16 x 16 UInt16 tile of `size` degrees, lower-left corner (west, south); pixel (r, c) = base + 100 r + c. */
function tile(base: number, west: number, south: number, size: number): Uint8Array {
  const pixels = new Uint16Array(PIXELS * PIXELS);
  for (let r = 0; r < PIXELS; r++)
    for (let c = 0; c < PIXELS; c++) pixels[r * PIXELS + c] = base + 100 * r + c;
  return writeTiff({
    width: PIXELS,
    height: PIXELS,
    tile: PIXELS,
    tiles: [new Uint8Array(pixels.buffer)],
    tags: {
      258: short(16),
      34735: WGS84_KEYS,
      33550: double(size / PIXELS, size / PIXELS, 0),
      33922: double(0, 0, 0, west, south + size, 0),
    },
  });
}

/** The centre of pixel (r, c) of the tile at (west, south): answered base + 100 r + c by nearest and bilinear. */
function pixelCentre(west: number, south: number, size: number, r: number, c: number) {
  return { lon: west + ((c + 0.5) * size) / PIXELS, lat: south + size - ((r + 0.5) * size) / PIXELS };
}

/** Half-degree tiles over 48..49 N, 9..10 E, as the side-by-side run cut them from N48E009.hgt, and their bases. */
const HALF = [
  { name: 'N48E009.tif', west: 9, south: 48, base: 1000 },
  { name: 'N48E009x5.tif', west: 9.5, south: 48, base: 2000 },
  { name: 'N48x5E009.tif', west: 9, south: 48.5, base: 3000 },
  { name: 'N48x5E009x5.tif', west: 9.5, south: 48.5, base: 4000 },
];

/** Tenth-degree tiles where doubles go wrong (0.3 / 0.1 = 2.9999999999999996), with an underscore in one name. */
const TENTH = [
  { name: 'N0x7E0x3.tif', west: 0.3, south: 0.7, base: 5000 },
  { name: 'N0x7_E0x4.tif', west: 0.4, south: 0.7, base: 6000 },
  { name: 'S0x1W0x1.tif', west: -0.1, south: -0.1, base: 7000 },
];

let dir: string;
let registry: DatasetRegistry;

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fractional-tiles-'));
  for (const [folder, tiles, size] of [
    ['half', HALF, 0.5],
    ['tenth', TENTH, 0.1],
  ] as const) {
    fs.mkdirSync(path.join(dir, folder));
    for (const t of tiles)
      fs.writeFileSync(path.join(dir, folder, t.name), tile(t.base, t.west, t.south, size));
  }
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:
  - name: half
    path: half/
    filename_tile_size: '0.5'
  - name: half-computed
    path: half/
    filename_tile_size: '0.5'
    tile_template: srtm
  - name: half-in-degrees
    path: half/
  - name: tenth
    path: tenth/
    filename_tile_size: '0.1'
`,
  );
  registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('tiles named with x for the decimal point (OpenTopoData: N48x5E009x5.tif is 48.5 N, 9.5 E)', () => {
  it.each(['half', 'half-computed'])(
    '%s: answers each point from its own half-degree tile, corners away from the seams',
    async (name) => {
      const points = HALF.flatMap((t) => [
        pixelCentre(t.west, t.south, 0.5, 5, 7),
        pixelCentre(t.west, t.south, 0.5, 0, 0),
        pixelCentre(t.west, t.south, 0.5, 15, 15),
      ]);
      const expected = HALF.flatMap((t) => [t.base + 507, t.base, t.base + 1515]);
      await expect(registry.get(name).sample(points, 'nearest')).resolves.toEqual(expected);
      await expect(registry.get(name).sample(points, 'bilinear')).resolves.toEqual(expected);
    },
  );

  it('lists the four half-degree tiles and their box', async () => {
    const info = await registry.get('half').describe();
    expect(info.tileCount).toBe(4);
    expect(info.bounds).toEqual([9, 48, 10, 49]);
  });

  it('answers tenth-degree tiles from their own tile, 0.3 E and 0.1 S included', async () => {
    const points = TENTH.flatMap((t) => [
      pixelCentre(t.west, t.south, 0.1, 0, 0),
      pixelCentre(t.west, t.south, 0.1, 15, 15),
    ]);
    const expected = TENTH.flatMap((t) => [t.base, t.base + 1515]);
    await expect(registry.get('tenth').sample(points, 'nearest')).resolves.toEqual(expected);
  });

  it('refuses half-degree tiles read as 1-degree tiles (no filename_tile_size), saying what to set', async () => {
    const sampling = registry.get('half-in-degrees').sample([{ lat: 48.2, lon: 9.2 }], 'nearest');
    await expect(sampling).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(sampling).rejects.toThrow(
      /N48E009x5\.tif is named for the corner 48, 9\.5 \(in the filename CRS\), not a whole number of tiles of filename_tile_size 1 from 0: set filename_tile_size to the tiles' size, a fraction as text \('0\.5'\)\./,
    );
  });
});
