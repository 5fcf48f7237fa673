/**
 * What a dataset says when its folder or files are not what it needs, and how it recovers when a file is fixed or
 * replaced while the service runs. Little GeoTIFFs from test/support/tiff-writer.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import {
  configureBlockCache,
  DatasetConfigError,
  DatasetUnavailableError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  UndecodableBlockError,
} from '../../../layers/elevation';
import { startDataServer } from '../../../scripts/data-server';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const TILE = 16;
const RES = 1 / 16;

/** A 16 x 16 UInt16 GeoTIFF of one tile, north-west corner (west, north), pixel (r, c) = base + 100 r + c. */
function tiff(base: number, west = 8, north = 50, deflate = false): Uint8Array {
  const pixels = new Uint16Array(TILE * TILE);
  for (let r = 0; r < TILE; r++) for (let c = 0; c < TILE; c++) pixels[r * TILE + c] = base + 100 * r + c;
  const raw = new Uint8Array(pixels.buffer);
  return writeTiff({
    width: TILE,
    height: TILE,
    tile: TILE,
    tiles: [deflate ? deflateSync(raw) : raw],
    tags: {
      259: short(deflate ? 8 : 1), // DEFLATE or none
      258: short(16),
      34735: WGS84_KEYS,
      33550: double(RES, RES, 0),
      33922: double(0, 0, 0, west, north, 0),
    },
  });
}

/**
 * Two 16 x 16 DEFLATE tiles side by side (west 8, north 50), UInt16 with horizontal differencing (predictor 2),
 * pixel (r, c) = 100 r + c; `damage` as a byte damaged on the way would leave the header: no predictor, and the
 * second tile's offset a byte too early.
 */
function twoTiles(damage: boolean): Uint8Array {
  const tiles = [0, 1].map((t) => {
    const deltas = new Uint16Array(TILE * TILE);
    for (let r = 0; r < TILE; r++)
      for (let c = 0; c < TILE; c++) deltas[r * TILE + c] = c === 0 ? 100 * r + 16 * t : 1;
    return deflateSync(new Uint8Array(deltas.buffer));
  });
  const bytes = Buffer.from(
    writeTiff({
      width: 2 * TILE,
      height: TILE,
      tile: TILE,
      tiles,
      tags: {
        258: short(16),
        259: short(8),
        317: short(damage ? 1 : 2),
        34735: WGS84_KEYS,
        33550: double(RES, RES, 0),
        33922: double(0, 0, 0, 8, 50, 0),
      },
    }),
  );
  if (damage) {
    const entries = bytes.readUInt16LE(8);
    for (let i = 0; i < entries; i++) {
      const entry = 10 + i * 12;
      if (bytes.readUInt16LE(entry) !== 324) continue;
      const second = bytes.readUInt32LE(entry + 8) + 4; // TileOffsets' values, out of line: the second one
      bytes.writeUInt32LE(bytes.readUInt32LE(second) - 1, second);
    }
  }
  return bytes;
}

const VRT_MISSING_SOURCE = `<VRTDataset rasterXSize="16" rasterYSize="16">
  <SRS>GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],AUTHORITY["EPSG","4326"]]</SRS>
  <GeoTransform> 8.0, 0.0625, 0.0, 50.0, 0.0, -0.0625</GeoTransform>
  <VRTRasterBand dataType="UInt16" band="1">
    <SimpleSource>
      <SourceFilename relativeToVRT="1">absent.tif</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="16" ySize="16" />
      <DstRect xOff="0" yOff="0" xSize="16" ySize="16" />
    </SimpleSource>
  </VRTRasterBand>
</VRTDataset>
`;

let dir: string;
let registry: ReturnType<typeof loadDatasetRegistry>;
const at = (row: number, col: number) => ({ lat: 50 - (row + 0.5) * RES, lon: 8 + (col + 0.5) * RES });

function folder(name: string, files: Record<string, Uint8Array | string>): void {
  fs.mkdirSync(path.join(dir, name));
  for (const [file, bytes] of Object.entries(files)) fs.writeFileSync(path.join(dir, name, file), bytes);
}

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataset-errors-'));
  folder('no-rasters', { 'README.txt': 'tiles come later', 'N48E009.txt': '' });
  folder('only-readme', { 'README.txt': 'tiles come later' });
  // Rasters whose folders, not names, look like corners: a tile is named by its file name alone.
  folder('corner-folders', {});
  for (const [sub, west] of [
    ['N49E008', 8],
    ['N49E009', 9],
  ] as const) {
    fs.mkdirSync(path.join(dir, 'corner-folders', sub));
    fs.writeFileSync(path.join(dir, 'corner-folders', sub, 'dem.tif'), tiff(0, west, 50));
  }
  folder('unnamed', { 'a.tif': tiff(0), 'b.tif': tiff(0) });
  // One name in degrees, one in metres: not one-degree tiles.
  folder('mixed-names', { 'N49E008.tif': tiff(0), 'N2000000E4000000.tif': tiff(0) });
  // Metre-named tiles whose corners share no tile size (their gcd is 1).
  folder('odd-metres', { 'N1000001E4000000.tif': tiff(0), 'N2000000E4000000.tif': tiff(0) });
  folder('vrt', { 'mosaic.vrt': VRT_MISSING_SOURCE });
  // Corner-named tiles beside a VRT: the folder is the tiles (a VRT is read only where it is alone).
  folder('tiles-and-vrt', {
    'N49E008.tif': tiff(100, 8, 50),
    'N49E009.tif': tiff(200, 9, 50),
    'mosaic.vrt': VRT_MISSING_SOURCE,
  });
  folder('vanishing', {
    'N49E008.tif': tiff(100, 8, 50),
    'N49E009.tif': tiff(200, 9, 50),
    'N49E010.tif': tiff(300, 10, 50),
  });
  // A tile named by its WGS84 corner but stored in UTM 32N (as a reprojected SRTM tile is).
  // Each holds 1.6 km inside its named degree box, its north-west corner at (8.5, 49.5) and (9.5, 49.5) (cs2cs).
  const utm = (east: number, north: number) =>
    writeTiff({
      width: TILE,
      height: TILE,
      tile: TILE,
      tiles: [new Uint8Array(TILE * TILE * 2)],
      tags: {
        258: short(16),
        34735: short(1, 1, 0, 2, 1024, 0, 1, 1, 3072, 0, 1, 32632),
        33550: double(100, 100, 0),
        33922: double(0, 0, 0, east, north, 0),
      },
    });
  folder('utm-named-by-degrees', {
    'N49E008.tif': utm(463796, 5483161),
    'N49E009.tif': utm(536204, 5483161),
  });
  // N49E008.tif holds what N49E009 holds (a copy under the wrong name).
  folder('misnamed', { 'N49E008.tif': tiff(100, 9, 50), 'N49E009.tif': tiff(200, 9, 50) });
  // Tiles named at the antimeridian: 180 is a degree, not a metre.
  folder('antimeridian', { 'N49W180.tif': tiff(300, -180, 50), 'N49E179.tif': tiff(400, 179, 50) });
  // A tile beside one that cannot be read (not a GeoTIFF).
  folder('broken-neighbour', { 'N49E008.tif': tiff(500, 8, 50), 'N49E009.tif': '<html>Not Found</html>' });
  fs.writeFileSync(path.join(dir, 'replaced.tif'), tiff(1000));
  fs.writeFileSync(path.join(dir, 'damaged-header.tif'), tiff(700, 8, 50, true));
  fs.writeFileSync(path.join(dir, 'suspect-blocks.tif'), twoTiles(true));
  fs.writeFileSync(path.join(dir, 'fixed.tif'), Buffer.from('II*\u0000garbage, not yet a GeoTIFF'));
  fs.writeFileSync(path.join(dir, 'inplace.tif'), tiff(100));
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:
  - name: no-rasters
    path: no-rasters/
  - name: only-readme
    path: only-readme/
  - name: corner-folders
    path: corner-folders/
  - name: corner-folders-tiled
    path: corner-folders/
    filename_tile_size: 1
  - name: unnamed
    path: unnamed/
  - name: mixed-names
    path: mixed-names/
  - name: odd-metres
    path: odd-metres/
    filename_epsg: 3035
  - name: vrt
    path: vrt/mosaic.vrt
  - name: tiles-and-vrt
    path: tiles-and-vrt/
  - name: antimeridian
    path: antimeridian/
  - name: broken-neighbour
    path: broken-neighbour/
  - name: utm-named-by-degrees
    path: utm-named-by-degrees/
  - name: misnamed
    path: misnamed/
  - name: degrees-read-as-metres
    path: vanishing/
    filename_epsg: 3035
    filename_tile_size: 1
  - name: replaced
    path: replaced.tif
  - name: vanishing
    path: vanishing/
  - name: damaged-header
    path: damaged-header.tif
  - name: suspect-blocks
    path: suspect-blocks.tif
  - name: fixed
    path: fixed.tif
  - name: inplace
    path: inplace.tif
`,
  );
  registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a folder that is not a dataset says why', () => {
  it.each([
    ['no-rasters', /Dataset 'no-rasters': .*no-rasters\/? holds no raster files\./],
    ['only-readme', /Dataset 'only-readme': .*only-readme\/? holds no raster files\./],
    [
      'corner-folders',
      /Dataset 'corner-folders': its folder holds several rasters, none named by its corner/,
    ],
    ['unnamed', /Dataset 'unnamed': its folder holds several rasters, none named by its corner/],
    ['mixed-names', /Dataset 'mixed-names': its tile names look like metres .*; set filename_epsg/],
    [
      'odd-metres',
      /Dataset 'odd-metres': cannot infer the tile size from its file names; set filename_tile_size\./,
    ],
  ])('%s', async (name, message) => {
    const answer = registry.get(name).sample([at(0, 0)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(message);
  });

  it('a VRT whose first source is missing is unavailable, naming the source', async () => {
    const answer = registry.get('vrt').sample([at(0, 0)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toThrow(/its VRT names absent\.tif, which is not in the data store\./);
  });
});

describe('a tile that cannot be read', () => {
  it('fails only the points that need it: not those near its edge whose own tile holds them', async () => {
    const tiles = registry.get('broken-neighbour');
    // Column 15, the last of N49E008, 3% of a degree from N49E009: in the band where the neighbour is a candidate.
    const nearEdge = { lat: 49.5, lon: 8.97 };
    await expect(tiles.sample([nearEdge], 'nearest')).resolves.toEqual([500 + 100 * 8 + 15]);
    // A bilinear window there reaches into the neighbour's first column: that needs the broken tile.
    await expect(tiles.sample([{ lat: 49.5, lon: 8.99 }], 'bilinear')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
    await expect(tiles.sample([{ lat: 49.5, lon: 9.5 }], 'nearest')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
  });
});

describe('an empty tile (0 bytes)', () => {
  it('is a 500 for an operator (a file to replace), not a 502 telling the client to retry; locally and over HTTP', async () => {
    const root = fs.mkdtempSync(path.join(os.tmpdir(), 'empty-tile-'));
    fs.mkdirSync(path.join(root, 'tiles'));
    fs.writeFileSync(path.join(root, 'tiles', 'N49E008.tif'), tiff(100, 8, 50));
    fs.writeFileSync(path.join(root, 'tiles', 'N49E009.tif'), '');
    fs.writeFileSync(path.join(root, 'N49E009.hgt'), '');
    fs.writeFileSync(
      path.join(root, 'config.yaml'),
      'datasets:\n  - name: tiles\n    path: tiles/\n  - name: hgt\n    path: N49E009.hgt\n',
    );
    const server = await startDataServer({ root, port: 0 });
    try {
      for (const dataRoot of [undefined, server.url]) {
        const tiles = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot }).get(
          'tiles',
        );
        await expect(tiles.sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).resolves.toEqual([100 + 800 + 8]);
        const answer = tiles.sample([{ lat: 49.5, lon: 9.5 }], 'nearest');
        await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
        await expect(answer).rejects.toThrow(/tiles\/N49E009\.tif is empty \(0 bytes\), not a GeoTIFF$/);
        const registry = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot });
        const hgt = registry.get('hgt').sample([{ lat: 49.5, lon: 9.5 }], 'nearest');
        await expect(hgt).rejects.toBeInstanceOf(DatasetConfigError);
        await expect(hgt).rejects.toThrow(/N49E009\.hgt is empty \(0 bytes\), not an SRTM \.hgt file$/);
      }
    } finally {
      await server.close();
      fs.rmSync(root, { recursive: true, force: true });
    }
  });
});

describe('what a folder holds decides what it is', () => {
  it('corner-named tiles beside a VRT are a tiled dataset; the VRT is not read', async () => {
    await expect(registry.get('tiles-and-vrt').sample([at(1, 2)], 'nearest')).resolves.toEqual([202]);
    await expect(registry.get('tiles-and-vrt').describe()).resolves.toMatchObject({ tileCount: 2 });
  });

  it('a tile is named by its file name, not by its folder', async () => {
    await expect(registry.get('corner-folders-tiled').sample([at(1, 2)], 'nearest')).resolves.toEqual([null]);
  });

  it('describes tiles named in degrees but stored in UTM with the CRS of their pixels', async () => {
    await expect(registry.get('utm-named-by-degrees').describe()).resolves.toMatchObject({
      crs: 'EPSG:32632',
      resolution: [100, 100],
      tileCount: 2,
      bounds: [8, 49, 10, 50],
    });
  });

  it('refuses a tile that is not where its name puts it (500 naming it and both boxes), not null', async () => {
    const misnamed = registry.get('misnamed');
    const message =
      "Dataset 'misnamed': N49E008.tif holds [9.0000, 49.0000, 10.0000, 50.0000] (WGS84 lon/lat), but its name " +
      'places it at [8.0000, 49.0000, 9.0000, 50.0000] (read in EPSG:4326, filename_tile_size 1): its name, ' +
      'filename_epsg or filename_tile_size is wrong.';
    await expect(misnamed.sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).rejects.toThrow(message);
    await expect(misnamed.sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).rejects.toBeInstanceOf(
      DatasetConfigError,
    );
    // The rightly named tile still answers; the listing's first tile is the misnamed one, so describe() refuses.
    await expect(misnamed.sample([{ lat: 49.5, lon: 9.5 }], 'nearest')).resolves.toEqual([200 + 800 + 8]);
    await expect(misnamed.describe()).rejects.toThrow(message);
  });

  it('refuses degree-named tiles read with filename_epsg 3035 at describe() (npm start, /health?deep=1)', async () => {
    await expect(registry.get('degrees-read-as-metres').describe()).rejects.toThrow(
      /^Dataset 'degrees-read-as-metres': N49E008\.tif holds \[8\.0000, 49\.0000, 9\.0000, 50\.0000\] \(WGS84 lon\/lat\), but its name places it at \[.*\] \(read in EPSG:3035, filename_tile_size 1\)/,
    );
  });

  it('tiles named W180 and E179 are one-degree tiles', async () => {
    const west = { lat: 50 - 1.5 * RES, lon: -180 + 2.5 * RES };
    const east = { lat: 50 - 1.5 * RES, lon: 179 + 2.5 * RES };
    await expect(registry.get('antimeridian').sample([west, east], 'nearest')).resolves.toEqual([402, 502]);
  });
});

describe('files that change while the service runs', () => {
  it('a listed tile the store lacks is a 502 naming it, not null; listed again, a deleted tile is no data', async () => {
    const east = { lat: 49.5, lon: 9.5 };
    await expect(registry.get('vanishing').sample([at(1, 2)], 'nearest')).resolves.toEqual([202]); // listed
    fs.rmSync(path.join(dir, 'vanishing', 'N49E009.tif'));
    const answer = registry.get('vanishing').sample([east], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toThrow(
      "Dataset 'vanishing' is unavailable: its folder listing names N49E009.tif, which is not in the data store.",
    );
    // The next request lists the folder again: the tile is gone from it, so the point has no data.
    await expect(registry.get('vanishing').sample([east], 'nearest')).resolves.toEqual([null]);
  });

  it('a listed tile the store failed to serve once is read at the next request, not after MISSING_TTL_S', async () => {
    const file = path.join(dir, 'vanishing', 'N49E010.tif'); // not opened yet
    const point = { lat: 50 - 1.5 * RES, lon: 10 + 2.5 * RES }; // its pixel (1, 2)
    const bytes = fs.readFileSync(file);
    fs.rmSync(file); // a fault: the store answers 404 once, the listing still names the file
    const answer = registry.get('vanishing').sample([point], 'nearest');
    await expect(answer).rejects.toThrow(/its folder listing names N49E010\.tif/);
    fs.writeFileSync(file, bytes);
    await expect(registry.get('vanishing').sample([point], 'nearest')).resolves.toEqual([402]);
  });

  it('a file replaced after its header was read is read again: new heights, not an error', async () => {
    const file = path.join(dir, 'replaced.tif');
    fs.utimesSync(file, new Date('2026-01-01T00:00:00Z'), new Date('2026-01-01T00:00:00Z'));
    await expect(registry.get('replaced').sample([at(3, 4)], 'nearest')).resolves.toEqual([1304]);
    fs.writeFileSync(file, tiff(2000)); // same size, new heights and time
    fs.utimesSync(file, new Date('2026-02-01T00:00:00Z'), new Date('2026-02-01T00:00:00Z'));
    // The block of (3, 4) is still cached under the old version: no read, so nothing can tell yet.
    await expect(registry.get('replaced').sample([at(3, 4)], 'nearest')).resolves.toEqual([1304]);
    // Dropping the cached blocks makes the next request read: the old header is found stale and read again.
    configureBlockCache(16 * 1024 * 1024);
    await expect(registry.get('replaced').sample([at(3, 4), at(15, 15)], 'nearest')).resolves.toEqual([
      2304, 3515,
    ]);
  });

  it('a header whose block does not decode is read again, not kept: once fixed, the file answers', async () => {
    const file = path.join(dir, 'damaged-header.tif');
    const good = fs.readFileSync(file);
    // The header as a byte damaged on the way would leave it: its one TileOffsets entry a byte too early (one too
    // far would reach past the file's end, refused at open as a file cut short).
    const damaged = Buffer.from(good);
    const entries = damaged.readUInt16LE(8);
    for (let i = 0; i < entries; i++) {
      const entry = 10 + i * 12;
      if (damaged.readUInt16LE(entry) === 324)
        damaged.writeUInt32LE(damaged.readUInt32LE(entry + 8) - 1, entry + 8);
    }
    const sameVersion = new Date('2026-03-01T00:00:00Z'); // size and time as before: nothing says it changed
    fs.writeFileSync(file, damaged);
    fs.utimesSync(file, sameVersion, sameVersion);
    // Read twice (header and block again), it still does not decode: a file an operator must replace, said so
    // (naming the dataset, not the file), not "Please retry"; the log keeps the block and file as the cause.
    const answer = registry.get('damaged-header').sample([at(3, 4)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toThrow(
      "Dataset 'damaged-header' is unavailable: a block of one of its files did not decode when read twice (a corrupt file in the data store, or a data layer damaging what it sends); the server log names the file.",
    );
    await expect(answer.catch((error: Error) => error.cause)).resolves.toBeInstanceOf(UndecodableBlockError);
    fs.writeFileSync(file, good);
    fs.utimesSync(file, sameVersion, sameVersion);
    await expect(registry.get('damaged-header').sample([at(3, 4)], 'nearest')).resolves.toEqual([1004]);
  });

  it('blocks decoded with a header found suspect are not served after it is read again', async () => {
    const file = path.join(dir, 'suspect-blocks.tif');
    const sameVersion = new Date('2026-03-02T00:00:00Z');
    fs.utimesSync(file, sameVersion, sameVersion);
    // The damaged header reads the first tile without its predictor: the differences (1), not the heights (304).
    await expect(registry.get('suspect-blocks').sample([at(3, 4)], 'nearest')).resolves.toEqual([1]);
    fs.writeFileSync(file, twoTiles(false)); // the same size: only the header's bytes differ
    fs.utimesSync(file, sameVersion, sameVersion);
    // The second tile does not decode at the damaged offset: the header is read again (now sound), and retried.
    await expect(registry.get('suspect-blocks').sample([at(3, 20)], 'nearest')).resolves.toEqual([320]);
    // The first tile's cached block came from the suspect header: decoded again, not served.
    await expect(registry.get('suspect-blocks').sample([at(3, 4)], 'nearest')).resolves.toEqual([304]);
  });

  it('a tile being rewritten in place (the new header over the old blocks) is refused, not read', async () => {
    const file = path.join(dir, 'inplace.tif');
    const old = Buffer.from(fs.readFileSync(file));
    // The new file: four uncompressed tiles of other heights, longer than the old one.
    const raw = (base: number) => new Uint8Array(new Uint16Array(TILE * TILE).fill(base).buffer);
    const next = Buffer.from(
      writeTiff({
        width: 2 * TILE,
        height: 2 * TILE,
        tile: TILE,
        tiles: [raw(7000), raw(7001), raw(7002), raw(7003)],
        tags: {
          258: short(16),
          34735: WGS84_KEYS,
          33550: double(RES / 2, RES / 2, 0),
          33922: double(0, 0, 0, 8, 50, 0),
        },
      }),
    );
    expect(next.length).toBeGreaterThan(old.length);
    // As `rsync --inplace` or `dd conv=notrunc` leave it part way: the new header and first tile, then old bytes.
    const written = next.length - 3 * TILE * TILE * 2;
    fs.writeFileSync(file, Buffer.concat([next.subarray(0, written), old.subarray(written)]));
    const answer = registry.get('inplace').sample([at(0, 0), at(12, 12)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(answer).rejects.toThrow(
      /inplace\.tif is cut short: its blocks reach byte \d+ but it holds \d+ bytes/,
    );
    fs.writeFileSync(file, next); // the copy done
    await expect(registry.get('inplace').sample([at(0, 0), at(12, 12)], 'nearest')).resolves.toEqual([
      7000, 7003,
    ]);
  });

  it('a file that could not be read is tried again after it is fixed', async () => {
    await expect(registry.get('fixed').sample([at(0, 0)], 'nearest')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
    fs.writeFileSync(path.join(dir, 'fixed.tif'), tiff(500));
    await expect(registry.get('fixed').sample([at(1, 2)], 'nearest')).resolves.toEqual([602]);
  });
});

describe("GDAL's sidecar (.aux.xml) beside a raster: refused where it holds what GDAL applies (nodata, scale/offset, georeferencing), read past where it holds statistics", () => {
  let root: string;
  const pam = '<PAMDataset><PAMRasterBand band="1"><Offset>100</Offset></PAMRasterBand></PAMDataset>';
  // What `gdalinfo -stats` (GDAL 3.6) writes beside a file it reads: statistics only, no height changes.
  const stats =
    '<PAMDataset>\n  <PAMRasterBand band="1">\n    <Metadata>\n      <MDI key="STATISTICS_MAXIMUM">1515</MDI>\n' +
    '      <MDI key="STATISTICS_MEAN">808.5</MDI>\n      <MDI key="STATISTICS_MINIMUM">100</MDI>\n' +
    '      <MDI key="STATISTICS_STDDEV">461.2</MDI>\n      <MDI key="STATISTICS_VALID_PERCENT">100</MDI>\n' +
    '    </Metadata>\n  </PAMRasterBand>\n</PAMDataset>\n';
  beforeAll(() => {
    root = fs.mkdtempSync(path.join(os.tmpdir(), 'sidecar-'));
    for (const folder of ['single', 'one', 'tiles', 'clean', 'stats', 'stats-one'])
      fs.mkdirSync(path.join(root, folder));
    fs.writeFileSync(path.join(root, 'stats', 'N49E008.tif'), tiff(100, 8, 50));
    fs.writeFileSync(path.join(root, 'stats', 'N49E008.tif.aux.xml'), stats);
    fs.writeFileSync(path.join(root, 'stats', 'N49E009.tif'), tiff(200, 9, 50));
    fs.writeFileSync(path.join(root, 'stats', 'N49E009.tif.aux.xml'), stats);
    fs.writeFileSync(path.join(root, 'stats-one', 'dem.tif'), tiff(300));
    fs.writeFileSync(path.join(root, 'stats-one', 'dem.tif.aux.xml'), stats);
    fs.writeFileSync(path.join(root, 'single', 'dem.tif'), tiff(100));
    fs.writeFileSync(path.join(root, 'single', 'dem.tif.aux.xml'), pam);
    fs.writeFileSync(path.join(root, 'one', 'dem.tif'), tiff(100));
    fs.writeFileSync(path.join(root, 'one', 'DEM.TIF.AUX.XML'), pam);
    fs.writeFileSync(path.join(root, 'tiles', 'N49E008.tif'), tiff(100, 8, 50));
    fs.writeFileSync(path.join(root, 'tiles', 'N49E009.tif'), tiff(200, 9, 50));
    fs.writeFileSync(path.join(root, 'tiles', 'N49E009.tif.aux.xml'), pam);
    fs.writeFileSync(path.join(root, 'clean', 'dem.tif'), tiff(100));
    fs.writeFileSync(path.join(root, 'clean', 'other.tif.aux.xml'), pam); // no raster of that name: not a sidecar
    fs.writeFileSync(
      path.join(root, 'config.yaml'),
      'datasets:\n  - name: single\n    path: single/dem.tif\n  - name: one\n    path: one/\n' +
        '  - name: tiles\n    path: tiles/\n  - name: clean\n    path: clean/dem.tif\n' +
        '  - name: stats-tiles\n    path: stats/\n    filename_tile_size: 1\n  - name: stats-file\n    path: stats-one/dem.tif\n',
    );
  });
  afterAll(() => fs.rmSync(root, { recursive: true, force: true }));

  it.each([
    [
      'a file named in path (asked of the store)',
      'single',
      /single\/dem\.tif\.aux\.xml holds <Offset>, which GDAL/,
    ],
    [
      "a folder's one raster (its listing, any case)",
      'one',
      /one\/DEM\.TIF\.AUX\.XML holds <Offset>, which GDAL/,
    ],
    ['a tile of a listed folder', 'tiles', /tiles\/N49E009\.tif\.aux\.xml holds <Offset>, which GDAL/],
  ])('%s', async (_, name, message) => {
    const registry = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml') });
    const answer = registry.get(name).sample([{ lat: 49.5, lon: 9.5 }], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(message);
  });

  it("a remote file named in path: asked of the store by describe() (npm start, /health?deep=1), not on requests' path", async () => {
    const server = await startDataServer({ root, port: 0 });
    try {
      const registry = loadDatasetRegistry({
        configPath: path.join(root, 'config.yaml'),
        dataRoot: server.url,
      });
      await expect(registry.get('single').describe()).rejects.toThrow(
        /single\/dem\.tif\.aux\.xml holds <Offset>/,
      );
      await expect(registry.get('clean').describe()).resolves.toMatchObject({ tileCount: 1 });
      // Not the first listed tile's: describe() checks the listed sidecars too.
      await expect(registry.get('tiles').describe()).rejects.toThrow(/N49E009\.tif\.aux\.xml holds <Offset>/);
    } finally {
      await server.close();
    }
  });

  it('a tile without a sidecar of its own is read beside one that has a refused sidecar', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml') });
    await expect(registry.get('tiles').sample([{ lat: 49.5, lon: 8.5 }], 'nearest')).resolves.toEqual([908]);
  });

  it('reads past sidecars of statistics (gdalinfo -stats, QGIS): tiles and a named file, locally and over HTTP', async () => {
    const server = await startDataServer({ root, port: 0 });
    try {
      for (const dataRoot of [undefined, server.url]) {
        const registry = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot });
        const [west, east] = [
          { lat: 49.5, lon: 8.5 },
          { lat: 49.5, lon: 9.5 },
        ];
        await expect(registry.get('stats-tiles').sample([west, east], 'nearest')).resolves.toEqual([
          908, 1008,
        ]);
        await expect(registry.get('stats-tiles').describe()).resolves.toMatchObject({ tileCount: 2 });
        await expect(registry.get('stats-file').sample([west], 'nearest')).resolves.toEqual([1108]);
        await expect(registry.get('stats-file').describe()).resolves.toMatchObject({ tileCount: 1 });
      }
    } finally {
      await server.close();
    }
  });

  it('reads a raster with no sidecar of its own name', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(root, 'config.yaml') });
    await expect(
      registry.get('clean').sample([{ lat: 50 - 1.5 * RES, lon: 8 + 2.5 * RES }], 'nearest'),
    ).resolves.toEqual([202]);
  });
});
