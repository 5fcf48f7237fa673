import { spawnSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import {
  prepareE2eDatasets,
  SHARED_DATASET,
  SHARED_DEM,
  SHARED_SRTM_TILE,
  type E2eDatasets,
} from './support/datasets';
import { startStack, type Stack } from './support/stack';

// The API over real HTTP: serverless-offline (worker threads, esbuild bundles) in front of the handlers,
// which read every dataset through the data-layer server with HTTP Range requests.
const HDM = { lat: 48.742275, lon: 9.101177 }; // HdM main entrance, inside the sample
const MAX_BODY_BYTES = 65_536; // lowered so the 413 test sends 70 KB, not 1 MiB
const ACCEPTANCE_TOLERANCE_M = 5;
const INTERPOLATION_TOLERANCE_M = 1e-3;
const HAS_SHARED_DEM = existsSync(path.join(SHARED_DEM, SHARED_SRTM_TILE));

let datasets: E2eDatasets;
let stack: Stack;

beforeAll(async () => {
  datasets = prepareE2eDatasets();
  stack = await startStack({
    configPath: datasets.configPath,
    dataDir: datasets.dataDir,
    env: {
      MAX_BODY_BYTES: String(MAX_BODY_BYTES),
      DEFAULT_DATASET: datasets.hasSharedDem ? SHARED_DATASET : 'sample',
      POWERTOOLS_LOG_LEVEL: 'WARN',
    },
  });
  console.log(`serverless-offline answered /health ${(stack.startupMs / 1000).toFixed(1)} s after spawn`);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  datasets?.cleanup();
});

// Response bodies are checked field by field below; typing every shape here would only restate them.
// eslint-disable-next-line @typescript-eslint/no-explicit-any
type Json = any;

async function get(
  pathAndQuery: string,
  init?: RequestInit,
): Promise<{ status: number; headers: Headers; body: Json }> {
  const response = await fetch(`${stack.baseUrl}${pathAndQuery}`, init);
  const text = await response.text();
  let body: Json = text;
  try {
    body = JSON.parse(text);
  } catch {
    // keep the text: the assertion that follows will show it
  }
  return { status: response.status, headers: response.headers, body };
}

const postJson = (pathAndQuery: string, payload: unknown) =>
  get(pathAndQuery, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(payload),
  });

/** n points on a grid inside the sample's bounds (48.6–48.9 N, 9.0–9.3 E), all distinct. */
function sampleGrid(n: number): { lat: number; lng: number }[] {
  return Array.from({ length: n }, (_, i) => ({
    lat: Number((48.62 + 0.26 * ((i % 32) / 31)).toFixed(6)),
    lng: Number((9.02 + 0.26 * (Math.floor(i / 32) / 31)).toFixed(6)),
  }));
}

describe('OpenTopoData API over HTTP', () => {
  it("answers the README's curl with 200 and a numeric elevation", async () => {
    const { status, body } = await get(`/v1/sample?locations=${HDM.lat},${HDM.lon}`);
    expect(status).toBe(200);
    expect(body.status).toBe('OK');
    expect(body.results).toHaveLength(1);
    expect(body.results[0]).toMatchObject({ dataset: 'sample', location: { lat: HDM.lat, lng: HDM.lon } });
    expect(typeof body.results[0].elevation).toBe('number');
    expect(body.results[0].elevation).toBeGreaterThan(400);
    expect(body.results[0].elevation).toBeLessThan(520);
  });

  it('reads the sample through the data layer with range requests', async () => {
    await get(`/v1/sample?locations=48.8,9.2`);
    const stats = (await (await fetch(`${stack.dataServer.url}_stats`)).json()) as {
      files: Record<string, { rangeRequests: number }>;
    };
    expect(stats.files['/sample/stuttgart.tif']?.rangeRequests).toBeGreaterThan(0);
  });

  it('answers a POST of 512 locations with 512 results in input order', async () => {
    const locations = sampleGrid(512);
    const { status, body } = await postJson('/v1/sample', { locations });
    expect(status).toBe(200);
    expect(body.results).toHaveLength(512);
    body.results.forEach(
      (result: { location: { lat: number; lng: number }; elevation: unknown }, i: number) => {
        expect(result.location).toEqual(locations[i]);
        expect(typeof result.elevation).toBe('number');
      },
    );
  });

  it('answers 513 locations with 400 naming the limit of 512', async () => {
    const { status, body } = await postJson('/v1/sample', { locations: sampleGrid(513) });
    expect(status).toBe(400);
    expect(body.status).toBe('INVALID_REQUEST');
    expect(body.error).toContain('512');
  });

  it("answers an unknown dataset with 400, as OpenTopoData's tests expect", async () => {
    const { status, body } = await get(`/v1/no-such-dataset?locations=${HDM.lat},${HDM.lon}`);
    expect(status).toBe(400);
    expect(body.status).toBe('INVALID_REQUEST');
    expect(body.error).toContain('no-such-dataset');
  });

  it('answers PUT with 405', async () => {
    const { status, body } = await get('/v1/sample', { method: 'PUT', body: '{}' });
    expect(status).toBe(405);
    expect(body.status).toBe('INVALID_REQUEST');
  });

  it('answers a body over MAX_BODY_BYTES with 413', async () => {
    const oversized = JSON.stringify({ locations: `${HDM.lat},${HDM.lon}|`.repeat(MAX_BODY_BYTES / 10) });
    expect(oversized.length).toBeGreaterThan(MAX_BODY_BYTES);
    const { status, body } = await get('/v1/sample', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: oversized,
    });
    expect(status).toBe(413);
    expect(body.status).toBe('INVALID_REQUEST');
  });

  it('answers malformed JSON with 400', async () => {
    const { status, body } = await get('/v1/sample', {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: '{"locations": [',
    });
    expect(status).toBe(400);
    expect(body.status).toBe('INVALID_REQUEST');
  });

  it('sends the CORS header on answers', async () => {
    const { headers } = await get(`/v1/sample?locations=${HDM.lat},${HDM.lon}`, {
      headers: { origin: 'https://maps.example' },
    });
    expect(headers.get('access-control-allow-origin')).toBe('*');
    // serverless-offline would add credentials (and echo the origin) if the gateway passed Origin on to it.
    expect(headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('answers a CORS preflight for POST', async () => {
    const response = await fetch(`${stack.baseUrl}/v1/sample`, {
      method: 'OPTIONS',
      headers: {
        origin: 'https://maps.example',
        'access-control-request-method': 'POST',
        'access-control-request-headers': 'content-type',
      },
    });
    expect(response.status).toBe(204); // the handler's answer, as API Gateway passes it
    expect(response.headers.get('access-control-allow-origin')).toBe('*');
    expect(response.headers.get('access-control-allow-methods')).toContain('POST');
    expect(response.headers.get('access-control-allow-credentials')).toBeNull();
  });

  it('lists the configured datasets', async () => {
    const { status, body } = await get('/v1/datasets');
    expect(status).toBe(200);
    expect(body.results.map((d: { name: string }) => d.name)).toEqual(datasets.names);
  });

  it('answers /health', async () => {
    const { status, body } = await get('/health');
    expect(status).toBe(200);
    expect(body.status).toBe('OK');
  });

  it("answers /health, /datasets and / for other methods as OpenTopoData's routes do (preflight, 405, help)", async () => {
    for (const path of ['/health', '/datasets', '/v1/datasets', '/', '/app']) {
      const preflight = await fetch(`${stack.baseUrl}${path}`, {
        method: 'OPTIONS',
        headers: { origin: 'https://maps.example', 'access-control-request-method': 'GET' },
      });
      expect({ path, status: preflight.status }).toEqual({ path, status: 204 });
      expect(preflight.headers.get('access-control-allow-origin')).toBe('*');
    }
    const post = await fetch(`${stack.baseUrl}/health`, { method: 'POST' });
    expect(post.status).toBe(405);
    expect(post.headers.get('allow')).toContain('GET');
    const help = await fetch(`${stack.baseUrl}/`, { method: 'POST' });
    expect(help.status).toBe(404);
    expect(((await help.json()) as { error: string }).error).toMatch(/^No dataset name provided\./);
  });

  it("answers requests with cookies serverless-offline's hapi cannot parse (another app's on localhost)", async () => {
    for (const path of ['/health', '/app', '/v1/sample?locations=48.7,9.1']) {
      const response = await fetch(`${stack.baseUrl}${path}`, {
        headers: { cookie: 'prefs={"a":1}; b; a="x y"' },
      });
      expect({ path, status: response.status }).toEqual({ path, status: 200 });
    }
  });

  it("answers a wrong method on every other route with its handler's 405 and Allow, in the route's shape", async () => {
    for (const [method, path, allow] of [
      ['DELETE', '/app', 'GET, HEAD'],
      ['PUT', '/v1/sample/file', 'POST'],
      ['PUT', '/v1/sample/profile', 'GET, POST'],
      ['PUT', '/api/elevation', 'GET, POST'],
      ['PUT', '/api/v1/lookup', 'GET, POST'],
      ['POST', '/maps/api/elevation/json', 'GET'],
    ]) {
      const response = await fetch(`${stack.baseUrl}${path}`, { method });
      expect({ path, status: response.status }).toEqual({ path, status: 405 });
      expect(response.headers.get('allow')).toContain(allow);
      const body = (await response.json()) as Record<string, unknown>;
      expect(body.status).toBe('INVALID_REQUEST');
      expect(body.results).toEqual(path.startsWith('/maps') ? [] : undefined); // Google's shape on /maps
    }
    const xml = await fetch(`${stack.baseUrl}/maps/api/elevation/xml`, { method: 'POST' });
    expect(xml.status).toBe(405);
    expect(await xml.text()).toMatch(/<status>INVALID_REQUEST<\/status>/);
  });
});

describe("the original system's API over HTTP", () => {
  it('answers GET /api/elevation?coordinates=lat,lon;lat,lon in its format', async () => {
    const { status, body } = await get(`/api/elevation?coordinates=${HDM.lat},${HDM.lon};48.8,9.2`);
    expect(status).toBe(200);
    expect(body).toHaveLength(2);
    expect(body[0]).toEqual({ latitude: HDM.lat, longitude: HDM.lon, altitude: expect.any(Number) });
    expect(body[1]).toEqual({ latitude: 48.8, longitude: 9.2, altitude: expect.any(Number) });
  });

  it('answers POST /api/elevation with [{latitude, longitude}] in its format', async () => {
    const { status, body } = await postJson('/api/elevation', [{ latitude: HDM.lat, longitude: HDM.lon }]);
    expect(status).toBe(200);
    expect(body).toEqual([{ latitude: HDM.lat, longitude: HDM.lon, altitude: expect.any(Number) }]);
  });
});

describe("Open-Elevation's API over HTTP", () => {
  it('answers its GET and POST requests in its shape, with /v1’s heights and null where there is no data', async () => {
    const v1 = await get(`/v1/sample?locations=${HDM.lat},${HDM.lon}`);
    const height = v1.body.results[0].elevation;
    const expected = {
      results: [
        { latitude: HDM.lat, longitude: HDM.lon, elevation: height },
        { latitude: 10, longitude: 10, elevation: null },
      ],
    };
    const viaGet = await get(`/api/v1/lookup?locations=${HDM.lat},${HDM.lon}|10,10`);
    expect(viaGet.status).toBe(200);
    expect(viaGet.body).toEqual(expected);
    const viaPost = await postJson('/api/v1/lookup', {
      locations: [
        { latitude: HDM.lat, longitude: HDM.lon },
        { latitude: 10, longitude: 10 },
      ],
    });
    expect(viaPost.status).toBe(200);
    expect(viaPost.body).toEqual(expected);
  });
});

describe('interpolation over HTTP on the analytic plane fixture', () => {
  // plane-point: z = 1000 + 640*(lon-10) + 256*(lat-50), so bilinear is exact (test/fixtures/README.md).
  it('answers nearest and bilinear with the documented values', async () => {
    if (!datasets.names.includes('plane-point')) {
      throw new Error('test/fixtures/config.yaml has no plane-point dataset: run the fixtures script');
    }
    const nearest = await get('/v1/plane-point?locations=49.9,10.1&interpolation=nearest');
    const bilinear = await get('/v1/plane-point?locations=49.9,10.1&interpolation=bilinear');
    expect(nearest.body.results[0].elevation).toBe(1036);
    expect(Math.abs(bilinear.body.results[0].elevation - 1038.4)).toBeLessThan(INTERPOLATION_TOLERANCE_M);
  });
});

describeIfAvailable(
  'acceptance: the HdM example through the legacy API matches GDAL',
  [
    { what: '../shared/dem', available: HAS_SHARED_DEM },
    { what: 'GDAL (gdal-bin)', available: hasCommand('gdallocationinfo') },
  ],
  () => {
    it('answers GET /api/elevation?coordinates=48.742275,9.101177 within 5 m of gdallocationinfo', async () => {
      const { status, body } = await get(`/api/elevation?coordinates=${HDM.lat},${HDM.lon}`);
      expect(status).toBe(200);
      const gdal = gdalLocationInfo(path.join(SHARED_DEM, SHARED_SRTM_TILE), HDM.lon, HDM.lat);
      expect(Math.abs(body[0].altitude - gdal)).toBeLessThanOrEqual(ACCEPTANCE_TOLERANCE_M);
    });

    it('read that file through the data layer with range requests (the path only resolves there)', () => {
      // Earlier legacy tests may have warmed the block cache, so count every read of the file, not a delta.
      const file = stack.dataServer.stats().files[`/shared/${SHARED_SRTM_TILE}`];
      expect(file?.rangeRequests).toBeGreaterThan(0);
      expect(file?.bytes).toBeGreaterThan(0);
    });
  },
);

function gdalLocationInfo(file: string, lon: number, lat: number): number {
  const run = spawnSync('gdallocationinfo', ['-valonly', '-wgs84', file, String(lon), String(lat)], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`gdallocationinfo failed (is gdal-bin installed?): ${run.stderr}`);
  return Number(run.stdout.trim());
}
