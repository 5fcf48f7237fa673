/**
 * A listed tile index is refreshed after its TTL (tiles added later are found, removed ones are gone), and a
 * failed relisting keeps serving the last good listing and is tried again after the next TTL. Two files named for
 * one tile are a configuration error.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError } from '../../../layers/elevation';
import { ListedTileIndex } from '../../../layers/elevation/dataset/tile-index';

let dir: string;
beforeEach(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'tile-index-'));
  fs.writeFileSync(path.join(dir, 'N48E009.tif'), 'x');
});
afterEach(() => fs.rmSync(dir, { recursive: true, force: true }));

const N48E010 = { ix: 10, iy: 48 };
const N48E009 = { ix: 9, iy: 48 };

describe('ListedTileIndex', () => {
  it('finds a tile added after the listing once the TTL has passed, not before', async () => {
    let now = 0;
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 60_000, () => now);
    fs.writeFileSync(path.join(dir, 'N48E010.hgt'), 'x');
    await expect(index.locate(N48E010)).resolves.toEqual([]);
    now = 60_001;
    await expect(index.locate(N48E010)).resolves.toEqual([path.join(dir, 'N48E010.hgt')]);
    expect((await index.keys()).map((k) => `${k.ix},${k.iy}`).sort()).toEqual(['10,48', '9,48']);
  });

  it('keeps the last good listing when relisting fails, and lists again after the next TTL', async () => {
    let now = 0;
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 1000, () => now);
    const moved = `${dir}-away`;
    fs.renameSync(dir, moved); // the folder is gone for a while (a remount, a deploy in progress)
    now = 1001;
    await expect(index.locate(N48E009)).resolves.toEqual([path.join(dir, 'N48E009.tif')]);
    fs.renameSync(moved, dir);
    fs.writeFileSync(path.join(dir, 'N48E010.tif'), 'x');
    await expect(index.locate(N48E010)).resolves.toEqual([]); // within the TTL of the failed attempt
    now = 2002;
    await expect(index.locate(N48E010)).resolves.toEqual([path.join(dir, 'N48E010.tif')]);
  });

  it('lists again only once the TTL has passed: at exactly the TTL, the old listing still answers', async () => {
    let now = 0;
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 1000, () => now);
    fs.writeFileSync(path.join(dir, 'N48E010.tif'), 'x');
    now = 1000;
    await expect(index.locate(N48E010)).resolves.toEqual([]);
    now = 1001;
    await expect(index.locate(N48E010)).resolves.toEqual([path.join(dir, 'N48E010.tif')]);
  });

  it('a corner-named file that is not a raster is no tile', async () => {
    const index = new ListedTileIndex(dir, 1, ['N48E009.tif', 'N48E010.txt', 'N48E010.tif.aux.xml'], 1000);
    await expect(index.locate(N48E010)).resolves.toEqual([]);
    await expect(index.keys()).resolves.toEqual([N48E009]);
  });

  it.each([
    [['N48E009.tif', 'N48E009.hgt']],
    [['N48E009.hgt', 'N48E009.tif']],
    [['N48E009.tif', 'old/N48E009.tif']],
    [
      [
        'Copernicus_DSM_10_N48_00_E009_00/DEM/Copernicus_DSM_10_N48_00_E009_00_DEM.tif',
        'Copernicus_DSM_10_N48_00_E009_00/AUXFILES/Copernicus_DSM_10_N48_00_E009_00_EDM.tif',
      ],
    ],
  ])('refuses two files named for one tile (%j), naming both', (files) => {
    const refused = () => new ListedTileIndex(dir, 1, files, 1000);
    expect(refused).toThrow(DatasetConfigError);
    for (const file of files) expect(refused).toThrow(path.join(dir, file));
    expect(refused).toThrow('tile names must be unique');
    // The same message whatever order the listing gave: the first by name is named first.
    const first = path.join(dir, [...files].sort()[0]);
    expect(refused).toThrow(new RegExp(`^${first.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')} and `));
  });

  it('a duplicate that appears later fails requests from the next listing on, until it is removed', async () => {
    let now = 0;
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 1000, () => now);
    fs.writeFileSync(path.join(dir, 'N48E009.hgt'), 'x');
    now = 1001;
    await expect(index.locate(N48E009)).rejects.toThrow(DatasetConfigError);
    await expect(index.keys()).rejects.toThrow('N48E009.hgt');
    fs.rmSync(path.join(dir, 'N48E009.hgt'));
    now = 2002;
    await expect(index.locate(N48E009)).resolves.toEqual([path.join(dir, 'N48E009.tif')]);
  });

  it('lists again at the next request once told a located file is missing, even within the TTL', async () => {
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 60_000, () => 0);
    fs.rmSync(path.join(dir, 'N48E009.tif'));
    await expect(index.locate(N48E009)).resolves.toEqual([path.join(dir, 'N48E009.tif')]);
    index.stale();
    await expect(index.locate(N48E009)).resolves.toEqual([]);
    fs.writeFileSync(path.join(dir, 'N48E009.tif'), 'x'); // back, but within the TTL of the new listing
    await expect(index.locate(N48E009)).resolves.toEqual([]);
  });

  it('forgets a tile removed from the folder after the TTL', async () => {
    let now = 0;
    const index = new ListedTileIndex(dir, 1, fs.readdirSync(dir), 10, () => now);
    fs.rmSync(path.join(dir, 'N48E009.tif'));
    now = 11;
    await expect(index.locate(N48E009)).resolves.toEqual([]);
  });
});
