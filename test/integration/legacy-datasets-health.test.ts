/** The original system's `/api/elevation`, `GET /v1/datasets` and `GET /health`, in-process over the fixtures. */
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { Context } from 'aws-lambda';
import { httpEvent, invoke, lambdaContext, type EventOptions } from './support/api-gateway';
import { leaksInternals, loadHandlers, type Handlers } from './support/handlers';

let handlers: Handlers;
beforeAll(async () => {
  handlers = await loadHandlers();
});

const legacy = (options: Partial<EventOptions>) =>
  invoke(handlers.legacy, { method: 'GET', path: '/api/elevation', ...options });

describe('GET /api/elevation (the original system)', () => {
  it('answers [{latitude, longitude, altitude}] on the default (first) dataset with bilinear', async () => {
    const response = await legacy({ query: { coordinates: '49.9,10.1;49.755,10.245' } });
    expect(response.status).toBe(200);
    expect(response.json).toEqual([
      { latitude: 49.9, longitude: 10.1, altitude: 1038.4 },
      { latitude: 49.755, longitude: 10.245, altitude: 1094.08 },
    ]);
  });

  it('answers altitude null where there is no data', async () => {
    const response = await legacy({ query: { coordinates: '51,10.3' } });
    expect(response.json).toEqual([{ latitude: 51, longitude: 10.3, altitude: null }]);
  });

  it('honours interpolation=nearest', async () => {
    const response = await legacy({ query: { coordinates: '49.9,10.1', interpolation: 'nearest' } });
    expect(response.json).toEqual([{ latitude: 49.9, longitude: 10.1, altitude: 1036 }]);
  });

  it('returns 400 without coordinates and for a bad coordinate, naming its position', async () => {
    const missing = await legacy({ query: {} });
    expect(missing.status).toBe(400);
    expect(missing.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        "No coordinates given: pass 'coordinates' as 'lat,lon;lat,lon', e.g. /api/elevation?coordinates=48.74,9.10;48.8,9.2.",
    });
    // /v1's parameter sent here: the message names the one this route reads and says why the other was ignored.
    const v1Style = await legacy({ query: { locations: '49.9,10.1|49.8,10.2' } });
    expect(v1Style.status).toBe(400);
    expect((v1Style.json as { error: string }).error).toMatch(
      /^No coordinates given: pass 'coordinates' .*\('locations' is the parameter of \/v1\/\{dataset\}, which this route does not read\)\.$/,
    );
    const empty = await legacy({ query: { coordinates: '' } });
    expect((empty.json as { error: string }).error).toMatch(/^No coordinates given/);
    const garbled = await legacy({ query: { coordinates: 'here;there' } });
    expect(garbled.status).toBe(400);
    expect((garbled.json as { error: string }).error).toMatch(
      /^Unable to parse coordinates 'here;there': neither 'lat,lon;lat,lon' pairs nor/,
    );
    const pipes = await legacy({ query: { coordinates: '49.9,10.1|49.8,10.2' } });
    expect((pipes.json as { error: string }).error).toBe(
      "Unable to parse location '49.9,10.1|49.8,10.2' in position 1. Separate locations with ';', not '|'.",
    );
    const datum = await legacy({ query: { coordinates: '49.9,10.1', datum: 'ellipsoid' } });
    expect(datum.status).toBe(400);
    expect((datum.json as { error: string }).error).toBe(
      "'datum' is an option of /v1/{dataset}, which this route does not read: ask /v1/{dataset} for it.",
    );
    const bad = await legacy({ query: { coordinates: '49.9,10.1;49.9' } });
    expect(bad.status).toBe(400);
    expect((bad.json as { error: string }).error).toContain("'49.9' in position 2");
  });

  it('refuses a parameter given twice, which API Gateway would join into a location neither gave', async () => {
    // `coordinates=49.9&coordinates=10.1` arrives as '49.9,10.1': a valid location the client never sent.
    const split = await legacy({
      rawQueryString: 'coordinates=49.9&coordinates=10.1',
      query: { coordinates: '49.9,10.1' },
    });
    expect(split.status).toBe(400);
    expect(split.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        "Query parameter 'coordinates' is given more than once; give it once (separate locations with ';').",
    });
    const twice = await legacy({
      method: 'POST',
      rawQueryString: 'interpolation=nearest&interpolation=cubic',
      query: { interpolation: 'nearest,cubic' },
      headers: { 'content-type': 'application/json' },
      body: '[{"latitude":49.9,"longitude":10.1}]',
    });
    expect(twice.status).toBe(400);
    expect((twice.json as { error: string }).error).toMatch(
      /^Query parameter 'interpolation' is given more than once/,
    );
  });

  it('answers a preflight and rejects other methods with 405', async () => {
    expect((await legacy({ method: 'OPTIONS' })).status).toBe(204);
    const put = await legacy({ method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, OPTIONS, HEAD');
  });
});

describe('POST /api/elevation (the original system)', () => {
  it('answers a multipart form with what this route takes, not "Invalid JSON"', async () => {
    const response = await legacy({
      method: 'POST',
      body: '--b\r\nContent-Disposition: form-data; name="coordinates"\r\n\r\n49.9,10.1\r\n--b--\r\n',
      headers: { 'content-type': 'multipart/form-data; boundary=b' },
    });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error: 'Body must be a JSON array like [{"latitude":48.74,"longitude":9.10}], not a form.',
    });
  });

  const postBody = (body: string) =>
    legacy({ method: 'POST', body, headers: { 'content-type': 'application/json' } });

  it('answers a JSON array of {latitude, longitude}', async () => {
    const response = await postBody(JSON.stringify([{ latitude: 49.9, longitude: 10.1 }]));
    expect(response.status).toBe(200);
    expect(response.json).toEqual([{ latitude: 49.9, longitude: 10.1, altitude: 1038.4 }]);
  });

  it.each([
    [
      '{"latitude": 49.9, "longitude": 10.1}',
      'Body must be a JSON array like [{"latitude":48.74,"longitude":9.10}].',
    ],
    ['', expect.stringMatching(/^Invalid JSON. The request body could not be parsed/) as unknown],
    [
      'latitude=49.9&longitude=10.1',
      'Body must be a JSON array like [{"latitude":48.74,"longitude":9.10}], not a form.',
    ],
    [
      '[{"latitude": 95, "longitude": 10}]',
      expect.stringMatching(
        /^Unable to parse location .* in position 1\. Latitude must be between -90 and 90/,
      ) as unknown,
    ],
  ])('returns 400 for body %p', async (body, error) => {
    const response = await postBody(body);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ status: 'INVALID_REQUEST', error });
  });

  it('rejects 513 locations naming the limit', async () => {
    const body = JSON.stringify(Array.from({ length: 513 }, () => ({ latitude: 49.9, longitude: 10.1 })));
    const response = await postBody(body);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain('the limit is 512.');
  });
});

describe('GET /v1/datasets', () => {
  it('lists every configured dataset with bounds, resolution, CRS, pixel type, tile count and vertical datum', async () => {
    const response = await invoke(handlers.datasets, { path: '/v1/datasets' });
    expect(response.status).toBe(200);
    const { status, results } = response.json as { status: string; results: Record<string, unknown>[] };
    expect(status).toBe('OK');
    expect(results.map((r) => r.name)).toEqual([
      'plane-point',
      'plane-area',
      'int16-nodata',
      'float32-nan',
      'big-endian',
      'laea-pair',
      'utm32',
      'copernicus',
      'float64-plane',
      'uint16-nodata',
      'int32-nodata',
      'lzw-plane',
      'sparse-nodata',
      'sparse-nan',
      'sparse-zero',
    ]);
    for (const result of results)
      expect(Object.keys(result).sort()).toEqual(
        ['bounds', 'crs', 'name', 'pixelType', 'resolution', 'tileCount', 'verticalDatum'].sort(),
      );
    expect(results[1]).toEqual({
      name: 'plane-area',
      bounds: [10, 49.375, 10.625, 50],
      resolution: [0.015625, 0.015625],
      crs: 'EPSG:4326',
      pixelType: 'Float32',
      tileCount: 1,
      verticalDatum: null,
    });
    expect(results[5]).toMatchObject({ name: 'laea-pair', crs: 'EPSG:3035', tileCount: 2 });
  });

  it('returns 405 for POST', async () => {
    expect((await invoke(handlers.datasets, { method: 'POST', path: '/v1/datasets' })).status).toBe(405);
  });

  it("GET /datasets lists names and child datasets sorted by name, as OpenTopoData's /datasets does", async () => {
    const response = await invoke(handlers.datasets, { path: '/datasets' });
    expect(response.status).toBe(200);
    const names = (response.json as { results: { name: string }[] }).results.map((r) => r.name);
    expect(names).toHaveLength(15);
    expect(names).toEqual([...names].sort());
    expect(names[0]).toBe('big-endian');
    expect((await invoke(handlers.datasets, { method: 'POST', path: '/datasets' })).status).toBe(405);
  });

  it('a dataset named "datasets" answers its heights at /v1/datasets?locations=… (OpenTopoData allows the name)', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'datasets-'));
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      `datasets:\n  - name: datasets\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\n  - name: other\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\n`,
    );
    const named = await loadHandlers({ CONFIG_PATH: config });
    const heights = await invoke(named.datasets, {
      path: '/v1/datasets',
      query: { locations: '49.9,10.1', interpolation: 'nearest' },
    });
    expect(heights.status).toBe(200);
    expect(heights.json).toEqual({
      status: 'OK',
      results: [{ dataset: 'datasets', elevation: 1036, location: { lat: 49.9, lng: 10.1 } }],
    });
    // Without locations it is still the list; with another config the same query is the list too.
    const list = await invoke(named.datasets, { path: '/v1/datasets' });
    expect((list.json as { results: { name: string }[] }).results.map((r) => r.name)).toEqual([
      'datasets',
      'other',
    ]);
    const unnamed = await invoke(handlers.datasets, {
      path: '/v1/datasets',
      query: { locations: '49.9,10.1' },
    });
    expect((unnamed.json as { results: { name: string }[] }).results).toHaveLength(15);
  });

  it('lists a dataset that cannot be opened as unavailable without failing the others', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'datasets-'));
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      `datasets:\n  - name: good\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\n  - name: gone\n    path: ${path.join(dir, 'missing.tif')}\n`,
    );
    const broken = await loadHandlers({ CONFIG_PATH: config });
    const response = await invoke(broken.datasets, { path: '/v1/datasets' });
    expect(response.status).toBe(200);
    const { results } = response.json as { results: Record<string, unknown>[] };
    expect(results[0]).toMatchObject({ name: 'good', crs: 'EPSG:4326', tileCount: 1 });
    expect(results[1]).toEqual({
      name: 'gone',
      status: 'UNAVAILABLE',
      error: 'This dataset cannot be opened right now.',
    });
    expect(response.body).not.toContain('missing.tif');
    // /health stays 200 (configuration only); ?deep=1 opens every dataset and answers 503 naming the broken one.
    expect((await invoke(broken.health, { path: '/health' })).status).toBe(200);
    const deep = await invoke(broken.health, { path: '/health', query: { deep: '1' } });
    expect(deep.status).toBe(503);
    expect(deep.json).toEqual({ status: 'UNAVAILABLE', datasets: ['good', 'gone'], unavailable: ['gone'] });
    expect(deep.body).not.toContain('missing.tif');
  });
});

describe('GET /health', () => {
  it('?deep=1 answers 200 OK when every dataset opens', async () => {
    const response = await invoke(handlers.health, { path: '/health', query: { deep: 'true' } });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ status: 'OK', unavailable: [] });
  });

  it('?deep=1 also checks each geoid grid: one the store lacks and one that does not cover the globe are 503', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geoids-'));
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      `datasets:\n  - name: good\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\ngeoids:\n  EGM96: ${path.join(dir, 'missing.tif')}\n  egm2008: ${path.resolve('test/fixtures/plane-point.tif')}\n`,
    );
    const broken = await loadHandlers({ CONFIG_PATH: config });
    const deep = await invoke(broken.health, { path: '/health', query: { deep: '1' } });
    expect(deep.status).toBe(503);
    expect(deep.json).toEqual({
      status: 'UNAVAILABLE',
      datasets: ['good'],
      unavailable: ['geoids.egm96', 'geoids.egm2008'],
    });
    expect(deep.body).not.toContain('missing.tif');
  });

  it('?deep=1 names the geoids section when it cannot be read (a grid given twice); the datasets stay OK', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'geoids-'));
    const config = path.join(dir, 'config.yaml');
    const grid = path.resolve('layers/dem-sample/geoid/egm96-15.tif');
    writeFileSync(
      config,
      `datasets:\n  - name: good\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\ngeoids:\n  egm96: ${grid}\n  EGM96: ${grid}\n`,
    );
    const broken = await loadHandlers({ CONFIG_PATH: config });
    expect((await invoke(broken.health, { path: '/health' })).status).toBe(200);
    const deep = await invoke(broken.health, { path: '/health', query: { deep: '1' } });
    expect(deep.status).toBe(503);
    expect(deep.json).toEqual({ status: 'UNAVAILABLE', datasets: ['good'], unavailable: ['geoids'] });
  });

  it.each([
    ['0', 200, undefined, undefined],
    ['FALSE', 200, undefined, undefined],
    ['TRUE', 200, [], undefined],
    [
      'yes',
      400,
      undefined,
      "Invalid deep 'yes': use deep=1 (or true) to open every dataset, 0 (or false) not to.",
    ],
  ])(
    '?deep=%s answers %d (shallow, deep, or a 400: a probe must not believe a check ran)',
    async (deep, status, unavailable, error) => {
      const response = await invoke(handlers.health, { path: '/health', query: { deep } });
      expect(response.status).toBe(status);
      const body = response.json as { unavailable?: string[]; error?: string };
      expect(body.unavailable).toEqual(unavailable);
      expect(body.error).toBe(error);
    },
  );

  it('refuses deep given twice as the other routes refuse a repeated parameter (API Gateway joins them: 1,1)', async () => {
    const response = await invoke(handlers.health, {
      path: '/health',
      query: { deep: '1,1' },
      rawQueryString: 'deep=1&deep=1',
    });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      "Query parameter 'deep' is given more than once; give it once.",
    );
  });

  it('answers a context without a clock (a tool invoking the handler) within the fallback deadline', async () => {
    const context = { ...lambdaContext(), getRemainingTimeInMillis: undefined } as unknown as Context;
    const result = await handlers.health(httpEvent({ path: '/health' }), context);
    expect(result.statusCode).toBe(200);
  });

  it('answers another method with 405 and the methods it takes, as OpenTopoData does', async () => {
    const response = await invoke(handlers.health, { method: 'POST', path: '/health' });
    expect(response.status).toBe(405);
    expect(response.headers.allow ?? response.headers.Allow).toMatch(/GET/);
  });

  it('answers OK with the dataset names', async () => {
    const response = await invoke(handlers.health, { path: '/health' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({ status: 'OK' });
    expect((response.json as { datasets: string[] }).datasets).toContain('copernicus');
  });
});

describe('settings from the environment', () => {
  let custom: Handlers;
  beforeAll(async () => {
    custom = await loadHandlers({
      MAX_LOCATIONS: '2',
      MAX_SAMPLES: '5',
      MAX_BODY_BYTES: '2048',
      CORS_ORIGIN: 'https://app.example',
      DEFAULT_DATASET: 'plane-area',
    });
  });

  const v1 = (query: Record<string, string>, extra: Partial<EventOptions> = {}) =>
    invoke(custom.elevation, {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query,
      ...extra,
    });

  it('MAX_LOCATIONS overrides the config limit and is named in the error', async () => {
    const response = await v1({ locations: '1,1|2,2|3,3' });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      'Too many locations provided (3), the limit is 2. Split the request.',
    );
  });

  it('bounds samples by the locations limit too, as OpenTopoData does (MAX_LOCATIONS 2 < MAX_SAMPLES 5)', async () => {
    expect((await v1({ locations: '1,1|2,2', samples: '2' })).status).toBe(200);
    const response = await v1({ locations: '1,1|2,2', samples: '3' });
    expect((response.json as { error: string }).error).toBe(
      'Too many samples requested (3), the limit is 2.',
    );
  });

  it('bounds samples by the locations limit alone when MAX_SAMPLES is unset, as OpenTopoData (a limit over 512 too)', async () => {
    const { elevation } = await loadHandlers({ MAX_LOCATIONS: '600' });
    const request = (samples: string) => ({
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query: { locations: '1,1|2,2', samples },
    });
    const answer = await invoke(elevation, request('600'));
    expect(answer.status).toBe(200);
    expect((answer.json as { results: unknown[] }).results).toHaveLength(600);
    expect(((await invoke(elevation, request('601'))).json as { error: string }).error).toBe(
      'Too many samples requested (601), the limit is 600.',
    );
  });

  it('MAX_SAMPLES bounds samples below the locations limit', async () => {
    const { elevation } = await loadHandlers({ MAX_SAMPLES: '5' });
    const request = (samples: string) => ({
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query: { locations: '1,1|2,2', samples },
    });
    expect((await invoke(elevation, request('5'))).status).toBe(200);
    expect(((await invoke(elevation, request('6'))).json as { error: string }).error).toBe(
      'Too many samples requested (6), the limit is 5.',
    );
  });

  it('MAX_BODY_BYTES bounds the body (413)', async () => {
    const response = await v1(
      {},
      { method: 'POST', body: JSON.stringify({ locations: '1,1'.padEnd(3000, ' ') }) },
    );
    expect(response.status).toBe(413);
    expect((response.json as { error: string }).error).toContain('the limit is 2048 bytes');
  });

  it('CORS_ORIGIN overrides the config origin', async () => {
    const response = await v1({ locations: '49.9,10.1' });
    expect(response.headers['access-control-allow-origin']).toBe('https://app.example');
  });

  it('sends an origin configured with a trailing slash without it, as browsers compare it exactly', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'cors-origin-'));
    const config = path.join(dir, 'config.yaml');
    // OpenTopoData's own example config writes the origin so.
    writeFileSync(
      config,
      `access_control_allow_origin: "https://api.example.com/"\ndatasets:\n  - name: plane-point\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\n`,
    );
    const settings: Record<string, string>[] = [
      { CONFIG_PATH: config },
      { CORS_ORIGIN: 'https://api.example.com/' },
    ];
    for (const env of settings) {
      const { elevation } = await loadHandlers(env);
      const response = await invoke(elevation, {
        path: '/v1/plane-point',
        pathParameters: { dataset: 'plane-point' },
        query: { locations: '49.9,10.1' },
      });
      expect(response.status).toBe(200);
      expect(response.headers['access-control-allow-origin']).toBe('https://api.example.com');
    }
    rmSync(dir, { recursive: true, force: true });
  });

  it('DEFAULT_DATASET picks the legacy endpoint dataset', async () => {
    const response = await invoke(custom.legacy, {
      path: '/api/elevation',
      query: { coordinates: '49.9,10.1', interpolation: 'nearest' },
    });
    expect(response.json).toEqual([{ latitude: 49.9, longitude: 10.1, altitude: 1039 }]);
  });
});

describe('the internals-leak check used on 5xx bodies', () => {
  it('recognises stack frames, paths, URLs and error class names, and passes the generic bodies', () => {
    expect(leaksInternals('at readFile (/work/main/layers/x.ts:1:2)')).toBe(true);
    expect(leaksInternals('Timed out reading http://127.0.0.1:4000/sample/stuttgart.tif')).toBe(true);
    expect(leaksInternals('TypeError: fetch failed')).toBe(true);
    expect(leaksInternals(JSON.stringify({ status: 'SERVER_ERROR', error: 'Internal server error.' }))).toBe(
      false,
    );
  });
});

describe('a broken configuration', () => {
  let broken: Handlers;
  beforeAll(async () => {
    broken = await loadHandlers({ CONFIG_PATH: '/nonexistent/elevation/config.yaml' });
  });

  it.each(['elevation', 'legacy', 'datasets', 'health'] as const)(
    'makes %s answer 500 with a body that says an operator must fix it and names no path',
    async (name) => {
      const response = await invoke(broken[name], {
        path: '/x',
        pathParameters: { dataset: 'plane-point' },
        query: { locations: '49.9,10.1', coordinates: '49.9,10.1' },
      });
      expect(response.status).toBe(500);
      expect(response.json).toEqual({
        status: 'SERVER_ERROR',
        error:
          'The configuration or a dataset file is unusable; an operator must fix it (the server log says what and why).',
      });
      expect(leaksInternals(response.body)).toBe(false);
    },
  );
});
