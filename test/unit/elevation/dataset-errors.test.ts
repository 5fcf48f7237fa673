/**
 * What a dataset says when its folder or files are not what it needs, and how it recovers when a file is fixed or
 * replaced while the service runs. Little GeoTIFFs from test/support/tiff-writer.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  configureBlockCache,
  DatasetConfigError,
  DatasetUnavailableError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
} from '../../../layers/elevation';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const TILE = 16;
const RES = 1 / 16;

/** A 16 x 16 UInt16 GeoTIFF of one tile, north-west corner (west, north), pixel (r, c) = base + 100 r + c. */
function tiff(base: number, west = 8, north = 50): Uint8Array {
  const pixels = new Uint16Array(TILE * TILE);
  for (let r = 0; r < TILE; r++) for (let c = 0; c < TILE; c++) pixels[r * TILE + c] = base + 100 * r + c;
  return writeTiff({
    width: TILE,
    height: TILE,
    tile: TILE,
    tiles: [new Uint8Array(pixels.buffer)],
    tags: {
      258: short(16),
      34735: WGS84_KEYS,
      33550: double(RES, RES, 0),
      33922: double(0, 0, 0, west, north, 0),
    },
  });
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
  folder('unnamed', { 'a.tif': tiff(0), 'b.tif': tiff(0) });
  // Metre-named tiles whose corners share no tile size (their gcd is 1).
  folder('odd-metres', { 'N1000001E4000000.tif': tiff(0), 'N2000000E4000000.tif': tiff(0) });
  folder('vrt', { 'mosaic.vrt': VRT_MISSING_SOURCE });
  fs.writeFileSync(path.join(dir, 'replaced.tif'), tiff(1000));
  fs.writeFileSync(path.join(dir, 'fixed.tif'), Buffer.from('II*\u0000garbage, not yet a GeoTIFF'));
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:
  - name: no-rasters
    path: no-rasters/
  - name: unnamed
    path: unnamed/
  - name: odd-metres
    path: odd-metres/
    filename_epsg: 3035
  - name: vrt
    path: vrt/mosaic.vrt
  - name: replaced
    path: replaced.tif
  - name: fixed
    path: fixed.tif
`,
  );
  registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
});

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a folder that is not a dataset says why', () => {
  it.each([
    ['no-rasters', /Dataset 'no-rasters': .*no-rasters\/? holds no raster files\./],
    ['unnamed', /Dataset 'unnamed': its folder holds several rasters, none named by its corner/],
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
    await expect(answer).rejects.toThrow(/its VRT names .*absent\.tif, which was not found\./);
  });
});

describe('files that change while the service runs', () => {
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

  it('a file that could not be read is tried again after it is fixed', async () => {
    await expect(registry.get('fixed').sample([at(0, 0)], 'nearest')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
    fs.writeFileSync(path.join(dir, 'fixed.tif'), tiff(500));
    await expect(registry.get('fixed').sample([at(1, 2)], 'nearest')).resolves.toEqual([602]);
  });
});
