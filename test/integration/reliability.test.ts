/** Issue 9 through the handlers and the library: missing is not forever, deep health, strict inputs and outputs. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDatasetRegistry } from '../../layers/elevation';
import { RasterOpener } from '../../layers/elevation/dataset/raster-opener';
import { invoke } from './support/api-gateway';
import { loadHandlers } from './support/handlers';

const FIXTURES = path.resolve('test/fixtures');
let workDir: string;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'reliability-'));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

describe('missing files are remembered for a bounded time', () => {
  it('answers null for a missing tile until the TTL passes, then reads the file that appeared', async () => {
    let now = 0;
    const opener = new RasterOpener({
      timeoutMs: 1000,
      retries: 0,
      headerPrefetchBytes: 64 * 1024,
      missingTtlMs: 60_000,
      now: () => now,
    });
    const tile = path.join(workDir, 'late-tile.tif');
    expect(await opener.open(tile)).toBeNull();
    fs.copyFileSync(path.join(FIXTURES, 'plane-point.tif'), tile);
    now = 59_000;
    expect(await opener.open(tile)).toBeNull(); // still within the TTL: no new read
    now = 60_001;
    expect((await opener.open(tile))?.grid.width).toBeGreaterThan(0);
  });
});

describe('cached heights never outlive their file by more than MISSING_TTL_S', () => {
  // MISSING_TTL_S=0: every request checks the files it uses (one byte each), so no clock is needed here.
  const setUp = (name: string) => {
    const root = path.join(workDir, name);
    fs.mkdirSync(root);
    fs.copyFileSync(path.join(FIXTURES, 'plane-point.tif'), path.join(root, 'one.tif'));
    fs.cpSync(path.join(FIXTURES, 'copernicus-2x2'), path.join(root, 'tiles'), { recursive: true });
    const config = path.join(root, 'config.yaml');
    fs.writeFileSync(
      config,
      `datasets:
  - name: one
    path: one.tif
  - name: tiles
    path: tiles/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif"
`,
    );
    return { root, registry: loadDatasetRegistry({ configPath: config, missingTtlMs: 0 }) };
  };
  const point = [{ lat: 49.9, lon: 10.1 }];

  it('answers a replaced single file from its new grid and CRS, and a deleted one with a 502, never its cached heights', async () => {
    const { root, registry } = setUp('single');
    const one = registry.get('one');
    const fixtures = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    const stuttgart = [{ lat: 48.82, lon: 9.16 }]; // in utm32.tif (EPSG:25832) only
    const before = await one.sample([...point, ...stuttgart], 'bilinear');
    const float64 = await fixtures.get('float64-plane').sample(point, 'bilinear');
    const utm = await fixtures.get('utm32').sample(stuttgart, 'bilinear');
    expect(before).toEqual([expect.any(Number), null]);
    expect(float64).not.toEqual([before[0]]);
    expect(utm).toEqual([expect.any(Number)]);

    fs.copyFileSync(path.join(FIXTURES, 'float64-plane.tif'), path.join(root, 'one.tif'));
    expect(await one.sample(point, 'bilinear')).toEqual(float64);
    fs.copyFileSync(path.join(FIXTURES, 'utm32.tif'), path.join(root, 'one.tif'));
    expect(await one.sample(stuttgart, 'bilinear')).toEqual(utm);
    fs.rmSync(path.join(root, 'one.tif'));
    await expect(one.sample(stuttgart, 'bilinear')).rejects.toThrow(
      "Dataset 'one' is unavailable: its file was not found in the data store.",
    );
  });

  it('answers null for a tile deleted while its blocks were cached (names computed, nothing listed)', async () => {
    const { root, registry } = setUp('tiled');
    const tiles = registry.get('tiles');
    const inTile = [{ lat: 34.5, lon: -118.5 }];
    expect(await tiles.sample(inTile, 'nearest')).toEqual([expect.any(Number)]);
    fs.rmSync(path.join(root, 'tiles/Copernicus_DSM_COG_10_N34_00_W119_00_DEM.tif'));
    expect(await tiles.sample(inTile, 'nearest')).toEqual([null]);
  });
});

describe('through the handlers', () => {
  it('refuses a DEFAULT_DATASET that is not configured, naming the variable, with a generic 500', async () => {
    const { legacy } = await loadHandlers({ DEFAULT_DATASET: 'nope' });
    const response = await invoke(legacy, { path: '/api/elevation', query: { coordinates: '49.9,10.1' } });
    expect(response.status).toBe(500);
    expect(response.body).not.toContain('DEFAULT_DATASET');
  });

  it('/health?deep=1 answers 503 naming a dataset whose file is missing; /health stays a cheap 200', async () => {
    const config = path.join(workDir, 'config.yaml');
    fs.writeFileSync(
      config,
      `datasets:\n  - name: good\n    path: ${path.join(FIXTURES, 'plane-point.tif')}\n  - name: gone\n    path: ${path.join(workDir, 'gone.tif')}\n`,
    );
    const { health } = await loadHandlers({ CONFIG_PATH: config });
    const shallow = await invoke(health, { path: '/health' });
    expect(shallow.status).toBe(200);
    const deep = await invoke(health, { path: '/health', query: { deep: '1' } });
    expect(deep.status).toBe(503);
    expect(deep.json).toEqual({ status: 'UNAVAILABLE', datasets: ['good', 'gone'], unavailable: ['gone'] });
  });

  it('answers a missing single-file dataset with a 502 that names the dataset, not with nulls', async () => {
    const config = path.join(workDir, 'config-gone.yaml');
    fs.writeFileSync(config, `datasets:\n  - name: gone\n    path: ${path.join(workDir, 'gone.tif')}\n`);
    const { elevation } = await loadHandlers({ CONFIG_PATH: config });
    const response = await invoke(elevation, {
      path: '/v1/gone',
      pathParameters: { dataset: 'gone' },
      query: { locations: '49.9,10.1' },
    });
    expect(response.status).toBe(502);
    expect(response.json).toEqual({
      status: 'SERVER_ERROR',
      error: "Dataset 'gone' is unavailable: its file was not found in the data store.",
    });
  });

  it('answers GeoJSON positions without a z where there is no height (never null in a position)', async () => {
    const { elevation } = await loadHandlers();
    const response = await invoke(elevation, {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query: { locations: '49.9,10.1|0,0', format: 'geojson' },
    });
    expect(response.status).toBe(200);
    const features = (response.json as { features: { geometry: { coordinates: number[] } }[] }).features;
    expect(features[0].geometry.coordinates).toHaveLength(3);
    expect(features[1].geometry.coordinates).toEqual([0, 0]);
  });

  it('answers 400 for a JSON body nested deeper than 64 levels, and for a repeated query parameter', async () => {
    const { elevation } = await loadHandlers();
    const deep = await invoke(elevation, {
      path: '/v1/plane-point',
      method: 'POST',
      pathParameters: { dataset: 'plane-point' },
      body: '['.repeat(65) + ']'.repeat(65),
    });
    expect(deep.status).toBe(400);
    const fine = await invoke(elevation, {
      path: '/v1/plane-point',
      method: 'POST',
      pathParameters: { dataset: 'plane-point' },
      body: JSON.stringify({ locations: [{ lat: 49.9, lng: 10.1 }] }),
    });
    expect(fine.status).toBe(200);
    const repeated = await invoke(elevation, {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      rawQueryString: 'locations=49.9,10.1&locations=49.8,10.2',
      query: { locations: '49.9,10.1,49.8,10.2' },
    });
    expect(repeated.status).toBe(400);
    expect(repeated.json).toMatchObject({
      error: expect.stringContaining("'locations' is given more than once") as string,
    });
    // In a form body too: the last value used to win silently.
    const repeatedField = await invoke(elevation, {
      path: '/v1/plane-point',
      method: 'POST',
      pathParameters: { dataset: 'plane-point' },
      headers: { 'content-type': 'application/x-www-form-urlencoded' },
      body: 'locations=49.9,10.1&interpolation=cubic&interpolation=nearest',
    });
    expect(repeatedField.status).toBe(400);
    expect(repeatedField.json).toEqual({
      status: 'INVALID_REQUEST',
      error: "Form field 'interpolation' is given more than once; give it once.",
    });
    // What the API ignores may repeat: its value is never read.
    const ignoredTwice = await invoke(elevation, {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      rawQueryString: 'locations=49.9,10.1&key=a&key=b&_=1&_=2',
      query: { locations: '49.9,10.1', key: 'a,b', _: '1,2' },
    });
    expect(ignoredTwice.status).toBe(200);
  });
});
