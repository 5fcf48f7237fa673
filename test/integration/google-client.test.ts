/**
 * Google's own Node.js client (`@googlemaps/google-maps-services-js`) against `GET /maps/api/elevation/json`,
 * served by a real local HTTP server over the handler: the library must parse our answers for points, an
 * encoded polyline and a sampled path, and see Google's error shape. Heights must equal `/v1`'s.
 */
import net from 'node:net';
import { Client, Status } from '@googlemaps/google-maps-services-js';
import { Geodesic } from 'geographiclib-geodesic';
import { encodePolyline } from '../../layers/elevation/request/polyline';
import { readGoogleXml } from '../support/google-xml';
import { invoke } from './support/api-gateway';
import { startLambdaHttpServer, type LambdaHttpServer } from './support/lambda-http-server';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** The sample is SRTM3: 3 arc-seconds = 1/1200 degree per pixel. */
const SAMPLE_RES_DEG = 1 / 1200;
/** Our ellipsoid formula vs GeographicLib's geodesic over one pixel: agree far below a metre. */
const RESOLUTION_TOLERANCE_M = 0.05;

const POINTS = [
  { lat: 48.742275, lng: 9.101177 },
  { lat: 48.8, lng: 9.2 },
  { lat: 48.65, lng: 9.05 },
];

let handlers: TrackHandlers;
let server: LambdaHttpServer;
let url: string;
const client = new Client({});

beforeAll(async () => {
  handlers = await loadTrackHandlers();
  server = await startLambdaHttpServer(handlers.google);
  url = `${server.url}/maps/api/elevation/json`;
});
afterAll(() => server.close());

async function v1(query: Record<string, string>) {
  const response = await invoke(handlers.elevation, {
    path: '/v1/sample',
    pathParameters: { dataset: 'sample' },
    query,
  });
  return (response.json as { results: { elevation: number; location: { lat: number; lng: number } }[] })
    .results;
}

/** Pixel size in metres by GeographicLib: the longer of one pixel's east and north sides at `lat`. */
function geodesicPixelMetres(lat: number): number {
  const north = Geodesic.WGS84.Inverse(lat, 9, lat + SAMPLE_RES_DEG, 9).s12 as number;
  const east = Geodesic.WGS84.Inverse(lat, 9, lat, 9 + SAMPLE_RES_DEG).s12 as number;
  return Math.max(north, east);
}

describe("Google's client library against /maps/api/elevation/json", () => {
  it('parses the answer for points: status OK, heights equal /v1, resolution the pixel size in metres', async () => {
    const response = await client.elevation({ params: { locations: POINTS, key: 'ignored' }, url });
    expect(response.status).toBe(200);
    expect(response.data.status).toBe(Status.OK);
    const expected = await v1({ locations: POINTS.map((p) => `${p.lat},${p.lng}`).join('|') });
    expect(response.data.results.map((r) => r.elevation)).toEqual(expected.map((r) => r.elevation));
    expect(response.data.results.map((r) => r.location)).toEqual(POINTS);
    for (const result of response.data.results) {
      expect(Math.abs(result.resolution - geodesicPixelMetres(result.location.lat))).toBeLessThan(
        RESOLUTION_TOLERANCE_M,
      );
    }
  });

  it('parses the answer for an enc: polyline of locations', async () => {
    const polyline = encodePolyline(POINTS.map((p) => [p.lat, p.lng]));
    const response = await client.elevation({ params: { locations: [`enc:${polyline}`], key: 'k' }, url });
    expect(response.data.status).toBe(Status.OK);
    expect(response.data.results).toHaveLength(3);
    // A polyline keeps 5 decimals: compare with /v1 at the decoded locations.
    const decoded = response.data.results.map((r) => `${r.location.lat},${r.location.lng}`).join('|');
    const expected = await v1({ locations: decoded });
    expect(response.data.results.map((r) => r.elevation)).toEqual(expected.map((r) => r.elevation));
    expect(response.data.results[0].location).toEqual({ lat: 48.74228, lng: 9.10118 });
  });

  it('parses the answer for a path with samples, ends included, heights equal /v1 samples', async () => {
    const path = [POINTS[0], POINTS[1]];
    const response = await client.elevation({ params: { path, samples: 5, key: 'k' }, url });
    expect(response.data.status).toBe(Status.OK);
    const expected = await v1({ locations: path.map((p) => `${p.lat},${p.lng}`).join('|'), samples: '5' });
    expect(response.data.results.map((r) => [r.location, r.elevation])).toEqual(
      expected.map((r) => [r.location, r.elevation]),
    );
    expect(response.data.results[0].location).toEqual(POINTS[0]);
    expect(response.data.results[4].location).toEqual(POINTS[1]);
  });

  it('rejects with a 400 and INVALID_REQUEST in Google’s shape when locations are missing', async () => {
    const failure = await client.elevation({ params: { key: 'k' } as never, url }).catch((e: unknown) => e);
    const { response } = failure as { response: { status: number; data: Record<string, unknown> } };
    expect(response.status).toBe(400);
    expect(response.data).toEqual({
      error_message: "Invalid request. Missing the 'locations' or 'path' parameter.",
      results: [],
      status: 'INVALID_REQUEST',
    });
  });

  it('answers DATA_NOT_AVAILABLE naming the points when any point has no data, never a null height', async () => {
    const none = await client.elevation({ params: { locations: [{ lat: 10, lng: 10 }], key: 'k' }, url });
    expect(none.data.status).toBe('DATA_NOT_AVAILABLE'); // in Google's Elevation docs; not in the client's enum
    // Google's typed clients read a null elevation as 0 m (the Go client's float64): no result is answered at all.
    const some = await client.elevation({
      params: { locations: [POINTS[0], { lat: 10, lng: 10 }, { lat: 0, lng: -0.5 }], key: 'k' },
      url,
    });
    expect(some.status).toBe(200);
    expect(some.data).toEqual({
      error_message:
        "No elevation data in dataset 'sample' at 2 of 3 locations: position 2 (10,10), 3 (0,-0.5). Google's " +
        'answer has a height for every location, so none is answered: leave these out, or ask /v1/sample, which ' +
        'answers null where there is no data.',
      results: [],
      status: 'DATA_NOT_AVAILABLE',
    });
  });

  it('names the first five points without data and counts the rest', async () => {
    const outside = Array.from({ length: 7 }, (_, i) => ({ lat: 10, lng: 10 + i }));
    const message = async (count: number) => {
      const locations = [POINTS[0], ...outside.slice(0, count)];
      const answer = await client.elevation({ params: { locations, key: 'k' }, url });
      return (answer.data as unknown as { error_message: string }).error_message;
    };
    expect(await message(7)).toContain(
      'at 7 of 8 locations: position 2 (10,10), 3 (10,11), 4 (10,12), 5 (10,13), 6 (10,14) and 2 more.',
    );
    expect(await message(5)).toContain(
      "at 5 of 6 locations: position 2 (10,10), 3 (10,11), 4 (10,12), 5 (10,13), 6 (10,14). Google's",
    );
  });

  it('answers DATA_NOT_AVAILABLE for a sampled path that leaves the data', async () => {
    const answer = await client.elevation({
      params: { path: [POINTS[0], { lat: 10, lng: 10 }], samples: 3, key: 'k' },
      url,
    });
    expect(answer.data.status).toBe('DATA_NOT_AVAILABLE');
    expect(answer.data.results).toEqual([]);
  });
});

describe('GET /maps/api/elevation/json errors', () => {
  const get = (query: Record<string, string>, rawQueryString?: string) =>
    invoke(handlers.google, { path: '/maps/api/elevation/json', query, rawQueryString });

  it.each([
    [
      { locations: '48.7,9.1', path: '48.7,9.1|48.8,9.2', samples: '2' },
      "Only one of the 'locations' and 'path'",
    ],
    [{ path: '48.7,9.1|48.8,9.2' }, "Missing the 'samples' parameter"],
    [{ path: '48.7,9.1|48.8,9.2', samples: '513' }, "Invalid 'samples' parameter '513'"],
    [
      { locations: '91,9' },
      "Invalid 'locations' parameter: Unable to parse location '91,9' in position 1. Latitude must be between -90 and 90",
    ],
    [{ locations: 'enc:!!!' }, "Invalid 'locations' parameter: Unable to parse locations"],
  ])('answers 400 INVALID_REQUEST for %j', async (query, message) => {
    const response = await get(query);
    expect(response.status).toBe(400);
    const body = response.json as { status: string; error_message: string; results: unknown[] };
    expect(body.status).toBe('INVALID_REQUEST');
    expect(body.error_message).toContain(message);
    expect(body.error_message.startsWith('Invalid request. ')).toBe(true);
    expect(body.results).toEqual([]);
  });

  it.each([
    ['locations=48.7&locations=9.1', 'locations'], // joined, '48.7,9.1': a location the client never sent
    ['path=48.7,9.1&samples=2&path=48.8,9.2', 'path'],
    ['samples=2&path=1,1|2,2&samples=3', 'samples'],
  ])('refuses %s (API Gateway would join the values with a comma)', async (raw, key) => {
    const params = new URLSearchParams(raw);
    const query = Object.fromEntries([...params.keys()].map((k) => [k, params.getAll(k).join(',')]));
    const response = await get(query, raw);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      error_message: `Invalid request. Query parameter '${key}' is given more than once; give it once${key === 'samples' ? '' : " (separate locations with '|')"}.`,
      results: [],
      status: 'INVALID_REQUEST',
    });
  });

  it('ignores a repeated parameter it does not read (key), as Google ignores them', async () => {
    const response = await get(
      { locations: '48.742275,9.101177', key: 'a,b' },
      'locations=48.742275,9.101177&key=a&key=b',
    );
    expect(response.status).toBe(200);
  });

  it.each(['json', 'xml'] as const)(
    "answers 502 with Google's UNKNOWN_ERROR shape in %s when the data layer is down, without internals",
    async (format) => {
      const down = await loadTrackHandlers({
        DATA_ROOT: 'http://127.0.0.1:1/', // nothing listens on port 1: connection refused at once
        RANGE_RETRIES: '0',
        RANGE_TIMEOUT_MS: '500',
      });
      const response = await invoke(down.google, {
        path: `/maps/api/elevation/${format}`,
        query: { locations: '48.742275,9.101177' },
      });
      expect(response.status).toBeGreaterThanOrEqual(500);
      expect(format === 'xml' ? readGoogleXml(response.body) : response.json).toEqual({
        error_message: expect.stringMatching(/^The elevation data store/),
        results: [],
        status: 'UNKNOWN_ERROR',
      });
      expect(response.body).not.toContain('127.0.0.1');
    },
  );

  it('answers from GOOGLE_DATASET when it is set', async () => {
    const other = await loadTrackHandlers({
      CONFIG_PATH: 'test/fixtures/config.yaml',
      GOOGLE_DATASET: 'plane-point',
    });
    const response = await invoke(other.google, {
      path: '/maps/api/elevation/json',
      query: { locations: '49.9,10.1' },
    });
    expect((response.json as { results: { elevation: number }[] }).results[0].elevation).toBe(1038.4);
  });

  it("answers a GOOGLE_DATASET the datasets file lacks as the operator's 500, not the client's 400", async () => {
    const wrong = await loadTrackHandlers({
      CONFIG_PATH: 'test/fixtures/config.yaml',
      GOOGLE_DATASET: 'nope',
    });
    const response = await invoke(wrong.google, {
      path: '/maps/api/elevation/json',
      query: { locations: '49.9,10.1' },
    });
    expect(response.status).toBe(500);
    expect(response.json).toMatchObject({ status: 'UNKNOWN_ERROR', results: [] });
    expect(response.body).not.toContain('nope');
  });
});

describe('GET /maps/api/elevation/xml: the same answers as XML, for spreadsheets and scripts', () => {
  const get = (query: Record<string, string>, format: 'json' | 'xml', method = 'GET') =>
    invoke(handlers.google, { path: `/maps/api/elevation/${format}`, query, method });

  it.each([
    ['points', { locations: '48.742275,9.101177|48.8,9.2', key: 'k' }],
    ['points, one without data (DATA_NOT_AVAILABLE)', { locations: '48.742275,9.101177|10,10|48.8,9.2' }],
    ['an encoded polyline', { locations: `enc:${encodePolyline(POINTS.map((p) => [p.lat, p.lng]))}` }],
    ['a sampled path', { path: '48.65,9.05|48.85,9.25', samples: '7' }],
    ['no point with data', { locations: '10,10' }],
  ])('answers %s with the JSON answer’s status, locations, heights and resolutions', async (_, query) => {
    const xml = await get(query, 'xml');
    expect(xml.status).toBe(200);
    expect(xml.headers['content-type']).toBe('application/xml; charset=UTF-8');
    expect(xml.body.startsWith('<?xml version="1.0" encoding="UTF-8"?>\n<ElevationResponse>')).toBe(true);
    const json = await get(query, 'json');
    expect(json.headers['content-type']).toBe('application/json');
    expect(readGoogleXml(xml.body)).toEqual(json.json);
  });

  it('answers a bad request 400 with Google’s status and the JSON answer’s message, any input escaped', async () => {
    const queries: Record<string, string>[] = [{ locations: "a\u0001<b>&'\ud800" }, { path: '1,1|2,2' }, {}];
    for (const query of queries) {
      const xml = await get(query, 'xml');
      expect(xml.status).toBe(400);
      expect(xml.headers['content-type']).toBe('application/xml; charset=UTF-8');
      const json = (await get(query, 'json')).json as { error_message: string };
      const read = readGoogleXml(xml.body);
      expect(read.status).toBe('INVALID_REQUEST');
      expect(read.results).toEqual([]);
      expect(read.error_message).toMatch(/^Invalid request\. /);
      // The same words; only the characters XML cannot hold are replaced.
      expect(read.error_message).toBe(
        json.error_message.replaceAll('\u0001', '\ufffd').replaceAll('\ud800', '\ufffd'),
      );
    }
  });

  it.each(['json', 'xml'] as const)(
    'answers %s cacheably, as /v1: Cache-Control, an ETag, 304 without a body on If-None-Match',
    async (format) => {
      const query = { locations: '48.742275,9.101177' };
      const first = await get(query, format);
      expect(first.headers['cache-control']).toBe('public, max-age=86400');
      expect(first.headers.etag).toMatch(/^"[\w-]{32}"$/);
      const again = await invoke(handlers.google, {
        path: `/maps/api/elevation/${format}`,
        query,
        headers: { 'if-none-match': String(first.headers.etag) },
      });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      // The two formats are two answers: one's tag never matches the other's body.
      const other = await get(query, format === 'xml' ? 'json' : 'xml');
      expect(other.headers.etag).not.toBe(first.headers.etag);
    },
  );

  it.each(['json', 'xml'] as const)(
    'answers a wrong method 405 with Allow and Google’s shape in %s',
    async (format) => {
      const response = await get({ locations: '48.742275,9.101177' }, format, 'POST');
      expect(response.status).toBe(405);
      expect(response.headers.allow).toBe('GET, OPTIONS, HEAD');
      const body = format === 'xml' ? readGoogleXml(response.body) : response.json;
      expect(body).toEqual({
        error_message: expect.stringContaining('POST'),
        results: [],
        status: 'INVALID_REQUEST',
      });
    },
  );

  it.each(['json', 'xml'] as const)(
    'answers the request deadline 504 in Google’s shape in %s, not ours',
    async (format) => {
      // A data layer that accepts connections and never answers: only the deadline ends the request.
      const silent = net.createServer(() => undefined);
      await new Promise<void>((resolve) => silent.listen(0, '127.0.0.1', resolve));
      try {
        const { port } = silent.address() as net.AddressInfo;
        const hung = await loadTrackHandlers({
          DATA_ROOT: `http://127.0.0.1:${port}/`,
          RANGE_RETRIES: '0',
          RANGE_TIMEOUT_MS: '10000',
          DEADLINE_MARGIN_MS: '200',
        });
        const response = await invoke(
          hung.google,
          { path: `/maps/api/elevation/${format}`, query: { locations: '48.742275,9.101177' } },
          700,
        );
        expect(response.status).toBe(504);
        const body = format === 'xml' ? readGoogleXml(response.body) : response.json;
        expect(body).toEqual({
          error_message: 'The elevation data store did not answer in time. Please retry.',
          results: [],
          status: 'UNKNOWN_ERROR',
        });
      } finally {
        silent.close();
        (silent as net.Server & { closeAllConnections?: () => void }).closeAllConnections?.();
      }
    },
  );
});
