/**
 * Names as operators write them: a dataset's files, folders and VRT sources whose names hold `%`, `#`, `?`, a
 * space, `+`, `&`, `=` or non-ASCII letters are read over the data layer (HTTP) exactly as from the folder. A name
 * is a file name, never part of a URL: `dem%41.tif` is not `demA.tif` (each test folder has such a decoy beside
 * it, holding other heights, so reading the wrong file answers a wrong height, not an error).
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../scripts/data-server';
import { configureBlockCache, loadDatasetRegistry } from '../../layers/elevation';
import { joinLocation } from '../../layers/elevation/dataset/tile-index';
import { float32Grid } from '../support/tiff-writer';

/** The height every real file holds; a decoy holds DECOY. */
const HEIGHT = 100;
const DECOY = 1100;
/** One degree of 1/32-degree pixels, its corner at 49 N 10 E: every file covers the point asked. */
const grid = (height: number) =>
  float32Grid({ size: 32, west: 10, north: 49, res: 1 / 32, value: () => height });
const POINT = { lat: 48.5, lon: 10.5 };

/** dataset name → [its file (relative to the root), the decoy a URL-minded reading would read instead]. */
const SINGLES: Record<string, [string, string]> = {
  'percent-hex': ['singles/dem%41.tif', 'singles/demA.tif'],
  'percent-space': ['singles/dem%20v2.tif', 'singles/dem v2.tif'],
  hash: ['singles/dem#2.tif', 'singles/dem'],
  query: ['singles/dem?v=2.tif', 'singles/dem'],
  'bare-percent': ['singles/100%.tif', 'singles/100'],
  'reserved-letters': ["singles/a+b&c=d;e'f,g.tif", "singles/a b&c=d;e'f,g.tif"],
  unicode: ['singles/Höhe 東京.tif', 'singles/Hohe.tif'],
};

let root: string;
let dataServer: DataServer;

function write(relative: string, bytes: Uint8Array | string): void {
  const file = path.join(root, relative);
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, bytes);
}

beforeAll(async () => {
  root = fs.mkdtempSync(path.join(os.tmpdir(), 'file-names-'));
  for (const [file, decoy] of Object.values(SINGLES)) {
    write(decoy, grid(DECOY));
    write(file, grid(HEIGHT));
  }
  // A folder holding one raster, and a tiled folder (its one tile named by its corner), each beside a decoy.
  write('folders/f%41 #1/DEM.tif', grid(HEIGHT));
  write('folders/fA #1/DEM.tif', grid(DECOY));
  write('tiled/t%41?/N48E010.tif', grid(HEIGHT));
  write('tiled/tA?/N48E010.tif', grid(DECOY));
  // A VRT whose source is named relative to it (relativeToVRT="1"), as gdalbuildvrt writes it.
  write('vrt/src%41 #1/east.tif', grid(HEIGHT));
  write('vrt/srcA #1/east.tif', grid(DECOY));
  write(
    'vrt/mosaic #1.vrt',
    `<VRTDataset rasterXSize="32" rasterYSize="32">
  <SRS dataAxisToSRSAxisMapping="2,1">GEOGCS["WGS 84",DATUM["WGS_1984",SPHEROID["WGS 84",6378137,298.257223563]],AUTHORITY["EPSG","4326"]]</SRS>
  <GeoTransform>10, 0.03125, 0, 49, 0, -0.03125</GeoTransform>
  <VRTRasterBand dataType="Float32" band="1">
    <SimpleSource>
      <SourceFilename relativeToVRT="1">src%41 #1/east.tif</SourceFilename>
      <SourceBand>1</SourceBand>
      <SrcRect xOff="0" yOff="0" xSize="32" ySize="32" />
      <DstRect xOff="0" yOff="0" xSize="32" ySize="32" />
    </SimpleSource>
  </VRTRasterBand>
</VRTDataset>
`,
  );
  const datasets = [
    ...Object.entries(SINGLES).map(([name, [file]]) => ({ name, path: file })),
    { name: 'folder', path: 'folders/f%41 #1/' },
    { name: 'tiled', path: 'tiled/t%41?/' },
    { name: 'vrt', path: 'vrt/mosaic #1.vrt' },
  ];
  write(
    'config.yaml',
    `datasets:\n${datasets.map((d) => `  - name: ${d.name}\n    path: ${JSON.stringify(d.path)}\n`).join('')}`,
  );
  dataServer = await startDataServer({ root, port: 0 });
});

afterAll(async () => {
  await dataServer.close();
  fs.rmSync(root, { recursive: true, force: true });
});

beforeEach(() => configureBlockCache(16 * 1024 * 1024));

const NAMES = [...Object.keys(SINGLES), 'folder', 'tiled', 'vrt'];

describe('file names with URL characters', () => {
  it.each(NAMES)('%s: the data layer (HTTP) reads the named file, as the folder does', async (name) => {
    const registry = (dataRoot: string) =>
      loadDatasetRegistry({ configPath: path.join(root, 'config.yaml'), dataRoot, missingTtlMs: 60_000 });
    const [local] = await registry(root).get(name).sample([POINT], 'nearest');
    const [overHttp] = await registry(dataServer.url).get(name).sample([POINT], 'nearest');
    expect(local).toBe(HEIGHT);
    expect(overHttp).toBe(HEIGHT);
  });
});

describe('joinLocation', () => {
  it('encodes each segment of a name joined to an HTTP prefix, keeping its slashes and dot segments', () => {
    expect(joinLocation('http://127.0.0.1:4000/', 'a b/c%41#?.tif')).toBe(
      'http://127.0.0.1:4000/a%20b/c%2541%23%3F.tif',
    );
    expect(joinLocation('https://example.org/dem', '../x/Höhe.tif')).toBe(
      'https://example.org/dem/../x/H%C3%B6he.tif',
    );
  });

  it('keeps names as they are under an S3 prefix (the SDK encodes keys) and in a folder', () => {
    expect(joinLocation('s3://bucket/dem/', 'a b/c%41#?.tif')).toBe('s3://bucket/dem/a b/c%41#?.tif');
    expect(joinLocation('/data', 'a b/c%41#?.tif')).toBe('/data/a b/c%41#?.tif');
  });
});
