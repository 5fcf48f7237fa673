/**
 * Dataset shapes from OpenTopoData's config: a file, a folder holding one file, a tile folder (listed), a tile
 * template over a folder (computed names), child_datasets; and the config errors an operator must see.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DatasetConfigError,
  DatasetUnavailableError,
  DataSourceUnavailableError,
  InvalidRequestError,
  loadDatasetRegistry,
  newReadStats,
} from '../../../layers/elevation';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const FIXTURES = path.resolve('test/fixtures');

/**
 * ETOPO1 resampled to 1° in little: 361 x 181 UInt16 pixels of 1° whose centres lie on whole degrees, ±180 and ±90
 * included, so the raster spans -180.5..180.5 x -90.5..90.5 (pixel-is-area); a pixel holds 1000 + its column.
 */
function globalRaster(): Uint8Array {
  const [width, height, tile] = [361, 181, 16];
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < Math.ceil(height / tile); ty++) {
    for (let tx = 0; tx < Math.ceil(width / tile); tx++) {
      const pixels = new Uint16Array(tile * tile);
      for (let i = 0; i < pixels.length; i++) pixels[i] = 1000 + tx * tile + (i % tile);
      tiles.push(new Uint8Array(pixels.buffer));
    }
  }
  return writeTiff({
    width,
    height,
    tile,
    tiles,
    tags: {
      258: short(16),
      34735: WGS84_KEYS,
      33550: double(1, 1, 0),
      33922: double(0, 0, 0, -180.5, 90.5, 0),
    },
  });
}
let workDir: string;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'dataset-layouts-'));
  fs.mkdirSync(path.join(workDir, 'one-file'));
  fs.symlinkSync(path.join(FIXTURES, 'plane-point.tif'), path.join(workDir, 'one-file', 'dem.tif'));
  fs.writeFileSync(path.join(workDir, 'one-file', 'README.md'), 'not a raster');
  fs.mkdirSync(path.join(workDir, 'tiles'));
  for (const name of fs.readdirSync(path.join(FIXTURES, 'copernicus-2x2')))
    fs.symlinkSync(path.join(FIXTURES, 'copernicus-2x2', name), path.join(workDir, 'tiles', name));
  fs.writeFileSync(path.join(workDir, 'tiles', 'notes.tif.txt'), 'ignored');
  fs.mkdirSync(path.join(workDir, 'tiles-and-overview'));
  for (const name of fs.readdirSync(path.join(FIXTURES, 'copernicus-2x2')))
    fs.symlinkSync(
      path.join(FIXTURES, 'copernicus-2x2', name),
      path.join(workDir, 'tiles-and-overview', name),
    );
  fs.symlinkSync(
    path.join(FIXTURES, 'plane-point.tif'),
    path.join(workDir, 'tiles-and-overview', 'overview.tif'),
  );
  fs.writeFileSync(path.join(workDir, 'not-a-tiff.tif'), 'hello, I am text');
  fs.writeFileSync(path.join(workDir, 'global.tif'), globalRaster());
  fs.writeFileSync(
    path.join(workDir, 'config.yaml'),
    `datasets:
  - name: folder-with-one-file
    path: one-file/
  - name: folder-with-one-file-tiled
    path: one-file/
    filename_tile_size: 1
  - name: folder-with-two-files
    path: ${path.join(FIXTURES, 'laea-pair')}
  - name: inferred-tiles
    path: tiles/
  - name: inferred-laea
    path: ${path.join(FIXTURES, 'laea-pair')}
    filename_epsg: 3035
  - name: listed-tiles
    path: tiles/
    filename_epsg: 4326
    filename_tile_size: 1
  - name: tiles-and-overview
    path: tiles-and-overview/
  - name: templated-tiles
    path: tiles/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif"
  - name: global
    path: global.tif
  - name: text-file
    path: not-a-tiff.tif
  - name: missing-file
    path: nowhere.tif
  - name: area
    path: ${path.join(FIXTURES, 'plane-area.tif')}
  - name: point
    path: ${path.join(FIXTURES, 'plane-point.tif')}
  - name: area-then-point
    child_datasets: [area, point]
  - name: bounded
    path: ${path.join(FIXTURES, 'plane-point.tif')}
    wgs84_bounds:
      left: 10
      right: 10.3
      bottom: 49.5
      top: 50
  - name: bounded-inner
    path: ${path.join(FIXTURES, 'plane-point.tif')}
    wgs84_bounds: {left: 10.1, right: 10.3, bottom: 49.6, top: 49.8}
  - name: nodata-pixels
    path: ${path.join(FIXTURES, 'int16-nodata.tif')}
  - name: bounded-nodata
    path: ${path.join(FIXTURES, 'int16-nodata.tif')}
    wgs84_bounds: {left: 10.05, right: 10.6, bottom: 49.5, top: 50}
  - name: nodata-then-point
    child_datasets: [nodata-pixels, point]
  - name: nodata-then-bounded
    child_datasets: [nodata-pixels, bounded-nodata]
`,
  );
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const registry = () => loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });

describe('dataset layouts', () => {
  it('reads a folder holding exactly one raster like the file itself (relative to the config folder)', async () => {
    await expect(
      registry()
        .get('folder-with-one-file')
        .sample([{ lat: 49.9, lon: 10.1 }], 'nearest'),
    ).resolves.toEqual([1036]);
  });

  it('reads a folder holding exactly one raster like the file itself also when filename_tile_size is set, as OpenTopoData does', async () => {
    const dataset = registry().get('folder-with-one-file-tiled');
    await expect(dataset.sample([{ lat: 49.9, lon: 10.1 }], 'nearest')).resolves.toEqual([1036]);
    const info = await dataset.describe();
    expect(info.bounds).not.toBeNull();
    expect(info.tileCount).toBe(1);
  });

  it('describes a raster over the whole globe (-180.5..180.5) as [-180, -90, 180, 90] and answers at its edges', async () => {
    const global = registry().get('global');
    expect((await global.describe()).bounds).toEqual([-180, -90, 180, 90]);
    const points = [-180, -179.9, 179.9, 180].map((lon) => ({ lat: 0, lon }));
    await expect(global.sample(points, 'nearest')).resolves.toEqual([1000, 1000, 1360, 1360]);
  });

  it('refuses a folder of metre-named tiles without filename_epsg, saying what to set', async () => {
    const sampling = registry()
      .get('folder-with-two-files')
      .sample([{ lat: 48.38, lon: 9.07 }], 'nearest');
    await expect(sampling).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(sampling).rejects.toThrow(/tile names look like metres .*set filename_epsg/);
  });

  it('treats a folder of several corner-named rasters as tiles (1 degree by default), as OpenTopoData does', async () => {
    const inferred = registry().get('inferred-tiles');
    await expect(inferred.sample([{ lat: 34, lon: -118 }], 'nearest')).resolves.toEqual([1000]);
    expect((await inferred.describe()).tileCount).toBe(5);
  });

  it('infers the tile size of metre-named tiles from the spacing of their corners', async () => {
    const point = { lat: 48.3565473, lon: 9.1785843 }; // test/fixtures/README.md: 0.2 px east of the seam
    const [value] = await registry().get('inferred-laea').sample([point], 'bilinear');
    expect(value).toBeCloseTo(221.492034, 3);
    expect((await registry().get('inferred-laea').describe()).tileCount).toBe(2);
  });

  it('lists a local tile folder, ignoring files that are not rasters', async () => {
    const tiles = registry().get('listed-tiles');
    await expect(tiles.sample([{ lat: 34, lon: -118 }], 'nearest')).resolves.toEqual([1000]);
    expect((await tiles.describe()).tileCount).toBe(5);
  });

  it('refuses a raster not named by its corner beside tiles (never read, its area answered null), as OpenTopoData does', async () => {
    const tiles = registry().get('tiles-and-overview');
    for (const answer of [tiles.sample([{ lat: 34, lon: -118 }], 'nearest'), tiles.describe()]) {
      await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
      await expect(answer).rejects.toThrow(
        /tiles-and-overview\/ holds tiles named by their corner and rasters that are not \(overview\.tif\): those would never be read\. Name each by its lower-left corner \(e\.g\. N48E009\.tif\) or move it out of the folder\.$/,
      );
    }
  });

  it('computes tile names from a template and answers null for a tile that is not there', async () => {
    const tiles = registry().get('templated-tiles');
    await expect(
      tiles.sample(
        [
          { lat: 34, lon: -118 },
          { lat: 10.5, lon: 10.5 },
        ],
        'bilinear',
      ),
    ).resolves.toEqual([1000, null]);
    expect((await tiles.describe()).tileCount).toBeNull(); // not listed, so not counted
  });

  it('reports a file that is not a GeoTIFF as the data store failing (502) naming the file; an empty one as an operator error (500)', async () => {
    const answer = registry()
      .get('text-file')
      .sample([{ lat: 0, lon: 0 }], 'nearest');
    await expect(answer).rejects.toThrow(/not-a-tiff\.tif is not a GeoTIFF/);
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    const file = path.join(workDir, 'not-a-tiff.tif');
    const text = fs.readFileSync(file);
    fs.writeFileSync(file, '');
    try {
      const empty = registry()
        .get('text-file')
        .sample([{ lat: 0, lon: 0 }], 'nearest');
      // The store says it holds 0 bytes: no retry helps, an operator must replace it.
      await expect(empty).rejects.toBeInstanceOf(DatasetConfigError);
      await expect(empty).rejects.toThrow(/not-a-tiff\.tif is empty \(0 bytes\), not a GeoTIFF$/);
    } finally {
      fs.writeFileSync(file, text);
    }
  });

  it('reports a missing single file as a 502 naming the dataset, not as nulls', async () => {
    const answer = registry()
      .get('missing-file')
      .sample([{ lat: 0, lon: 0 }], 'nearest');
    await expect(answer).rejects.toThrow(
      "Dataset 'missing-file' is unavailable: its file was not found in the data store.",
    );
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
  });

  it('answers from child_datasets in order, naming the child per point', async () => {
    const chain = registry().get('area-then-point');
    const result = await chain.sampleAttributed(
      [
        { lat: 49.9, lon: 10.1 },
        { lat: 50.005, lon: 10.3 },
      ],
      'nearest',
    );
    expect(result).toEqual({
      elevations: [1039, 1190],
      datasets: ['area', 'point'],
      nodataPixels: [false, false],
    });
    expect(await chain.describe()).toMatchObject({ name: 'area-then-point', children: ['area', 'point'] });
  });

  it('refuses a chain that names a dataset twice once child_datasets are expanded (400), naming how', () => {
    expect(() => registry().resolve('area-then-point,point')).toThrow(InvalidRequestError);
    expect(() => registry().resolve('area-then-point,point')).toThrow(
      new Error(
        "Duplicate dataset names provided. 'point' is named twice, as a child of 'area-then-point' and 'point'.",
      ),
    );
    expect(() => registry().resolve('nodata-pixels,area-then-point,nodata-then-point')).toThrow(
      "'nodata-pixels' is named twice, as 'nodata-pixels' and a child of 'nodata-then-point'.",
    );
    expect(registry().resolve('area-then-point,nodata-pixels').name).toBe('area-then-point,nodata-pixels');
  });

  it('answers null outside wgs84_bounds without reading, and as usual inside', async () => {
    const stats = newReadStats();
    const bounded = registry().get('bounded');
    await expect(bounded.sample([{ lat: 49.39, lon: 10.61 }], 'nearest', { stats })).resolves.toEqual([null]);
    expect(stats.rangeRequests).toBe(0);
    await expect(
      bounded.sample(
        [
          { lat: 49.9, lon: 10.1 },
          { lat: 49.39, lon: 10.61 },
        ],
        'nearest',
      ),
    ).resolves.toEqual([1036, null]);
  });

  it('wgs84_bounds include their edges; a hundredth of a degree beyond any edge is null, though the raster goes on', async () => {
    const bounded = registry().get('bounded-inner');
    const edges = [
      { lat: 49.7, lon: 10.1 },
      { lat: 49.7, lon: 10.3 },
      { lat: 49.6, lon: 10.2 },
      { lat: 49.8, lon: 10.2 },
    ];
    const beyond = [
      { lat: 49.7, lon: 10.09 },
      { lat: 49.7, lon: 10.31 },
      { lat: 49.59, lon: 10.2 },
      { lat: 49.81, lon: 10.2 },
    ];
    const unbounded = registry().get('point');
    const everywhere = await unbounded.sample([...edges, ...beyond], 'nearest');
    expect(everywhere.every((h) => typeof h === 'number')).toBe(true);
    await expect(bounded.sample([...edges, ...beyond], 'nearest')).resolves.toEqual([
      ...everywhere.slice(0, 4),
      null,
      null,
      null,
      null,
    ]);
  });

  // OpenTopoData's nodata_value replaces nodata pixels only: the sampler tells them from points nothing covers.
  it('tells a nodata pixel from a point outside the raster, outside wgs84_bounds or in a missing tile', async () => {
    const pixelNodata = { lat: 49.921875, lon: 10.078125 }; // int16-nodata (5,5)
    const cornerNodata = { lat: 49.390625, lon: 10.0 }; // int16-nodata (0,39), west of bounded-nodata's bounds
    const outside = { lat: 51, lon: 10.3 };
    const inside = { lat: 49.9, lon: 10.1 };
    const one = await registry()
      .get('nodata-pixels')
      .sampleAttributed([pixelNodata, outside, inside], 'nearest');
    expect(one).toMatchObject({ elevations: [null, null, 1036], nodataPixels: [true, false, false] });
    const bounded = await registry()
      .get('bounded-nodata')
      .sampleAttributed([cornerNodata, pixelNodata], 'nearest');
    expect(bounded).toMatchObject({ elevations: [null, null], nodataPixels: [false, true] });
    const tiles = await registry()
      .get('listed-tiles')
      .sampleAttributed([{ lat: 40.5, lon: -100.5 }], 'nearest');
    expect(tiles).toMatchObject({ elevations: [null], nodataPixels: [false] });
  });

  it('keeps a chain point a nodata pixel only while no child has a value there', async () => {
    // plane-point has a value at int16-nodata's nodata pixel (5,5), and nothing at 51,10.3.
    const chain = await registry()
      .get('nodata-then-point')
      .sampleAttributed(
        [
          { lat: 49.921875, lon: 10.078125 },
          { lat: 51, lon: 10.3 },
        ],
        'nearest',
      );
    expect(chain.elevations[0]).toEqual(expect.any(Number));
    expect(chain).toMatchObject({ datasets: ['point', 'point'], nodataPixels: [false, false] });
    // (5,5) is nodata in both children; (0,39) is nodata in the first and outside the second's bounds.
    const voids = await registry()
      .get('nodata-then-bounded')
      .sampleAttributed(
        [
          { lat: 49.921875, lon: 10.078125 },
          { lat: 49.390625, lon: 10.0 },
          { lat: 51, lon: 10.3 },
        ],
        'nearest',
      );
    expect(voids).toMatchObject({ elevations: [null, null, null], nodataPixels: [true, true, false] });
    // Labelled by the last child with a nodata pixel there (a `nodata_value` fills it for that one), never by a
    // child whose bounds leave the point out; with none, by the last child.
    expect(voids.datasets).toEqual(['bounded-nodata', 'nodata-pixels', 'bounded-nodata']);
  });

  it('describes a tiled dataset with bounds that include its last tile (north-east corner)', async () => {
    // copernicus-2x2 holds N33/N34 x W119/W118 and N64 W148: the box spans W148..W117, N33..N65.
    const info = await registry().get('listed-tiles').describe();
    expect(info.bounds).toEqual([-148, 33, -117, 65]);
    expect(info.tileCount).toBe(5);
  });

  it('reads the edge pixel for a nearest point on the far outer edge (clamped, not outside)', async () => {
    // plane-point.tif: 40 x 40 pixels of 1/64 degree from 10 E, 50 N (PixelIsPoint: corner half a pixel out).
    const half = 1 / 128;
    const farCorner = { lat: 50 + half - 40 / 64, lon: 10 - half + 40 / 64 }; // the outer south-east corner
    const [corner] = await registry().get('point').sample([farCorner], 'nearest');
    const [lastPixel] = await registry()
      .get('point')
      .sample([{ lat: 50 - 39 / 64, lon: 10 + 39 / 64 }], 'nearest');
    expect(corner).toBe(lastPixel);
    expect(corner).not.toBeNull();
  });

  it('names every configured dataset in config order', () => {
    expect(registry().names()).toEqual([
      'folder-with-one-file',
      'folder-with-one-file-tiled',
      'folder-with-two-files',
      'inferred-tiles',
      'inferred-laea',
      'listed-tiles',
      'tiles-and-overview',
      'templated-tiles',
      'global',
      'text-file',
      'missing-file',
      'area',
      'point',
      'area-then-point',
      'bounded',
      'bounded-inner',
      'nodata-pixels',
      'bounded-nodata',
      'nodata-then-point',
      'nodata-then-bounded',
    ]);
  });
});
