/** `GET|POST|OPTIONS /v1/{dataset}` invoked in-process with API Gateway v2 events over the committed fixtures. */
import { encodePolyline } from '../../layers/elevation/request/polyline';
import { invoke, type EventOptions } from './support/api-gateway';
import { loadHandlers, type Handlers } from './support/handlers';

let handlers: Handlers;
beforeAll(async () => {
  handlers = await loadHandlers();
});

// plane-point.tif: 49.9,10.1 is pixel (6,6) = 1036, bilinear/cubic 1038.4 on the plane; 49.755,10.245 bilinear 1094.08.
const INTERIOR = '49.9,10.1';
const BLOCK_EDGE = '49.755,10.245';
const OUTSIDE = '51,10.3';

const get = (dataset: string, query: Record<string, string>, extra: Partial<EventOptions> = {}) =>
  invoke(handlers.elevation, {
    method: 'GET',
    path: `/v1/${dataset}`,
    pathParameters: { dataset },
    query,
    ...extra,
  });

const post = (
  dataset: string,
  body: string,
  headers: Record<string, string> = {},
  extra: Partial<EventOptions> = {},
) =>
  invoke(handlers.elevation, {
    method: 'POST',
    path: `/v1/${dataset}`,
    pathParameters: { dataset },
    body,
    headers: { 'content-type': 'application/json', ...headers },
    ...extra,
  });

const elevations = (json: unknown) =>
  (json as { results: { elevation: unknown }[] }).results.map((r) => r.elevation);

describe('GET /v1/{dataset}', () => {
  it("answers OpenTopoData's body with bilinear by default", async () => {
    const response = await get('plane-point', { locations: INTERIOR });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toEqual({
      status: 'OK',
      results: [{ dataset: 'plane-point', elevation: 1038.4, location: { lat: 49.9, lng: 10.1 } }],
    });
  });

  it('marks a successful answer cacheable with Cache-Control and an ETag that If-None-Match turns into a 304', async () => {
    const first = await get('plane-point', { locations: INTERIOR });
    expect(first.headers['cache-control']).toBe('public, max-age=86400');
    const etag = String(first.headers.etag);
    expect(etag).toMatch(/^"[\w-]{32}"$/);
    const again = await get('plane-point', { locations: INTERIOR }, { headers: { 'if-none-match': etag } });
    expect(again.status).toBe(304);
    expect(again.body).toBe('');
    expect(again.headers.etag).toBe(etag);
    const other = await get('plane-point', { locations: BLOCK_EDGE }, { headers: { 'if-none-match': etag } });
    expect(other.status).toBe(200);
    expect(other.headers.etag).not.toBe(etag);
  });

  it('takes If-None-Match by weak comparison, * and the gzip-compressed tag too; a POST that matches is a 412', async () => {
    const etag = String((await get('plane-point', { locations: INTERIOR })).headers.etag);
    const gzipped = `${etag.slice(0, -1)}-gzip"`;
    for (const header of [`W/${etag}`, '*', `"other", ${gzipped}`, `W/${gzipped}`]) {
      const again = await get(
        'plane-point',
        { locations: INTERIOR },
        { headers: { 'if-none-match': header } },
      );
      expect({ header, status: again.status }).toEqual({ header, status: 304 });
    }
    const other = await get(
      'plane-point',
      { locations: INTERIOR },
      { headers: { 'if-none-match': '"other"' } },
    );
    expect(other.status).toBe(200);
    const body = JSON.stringify({ locations: INTERIOR });
    const posted = await post('plane-point', body, { 'if-none-match': '*' });
    expect(posted.status).toBe(412);
    expect(posted.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        'If-None-Match names the current answer; only a GET or HEAD is answered 304. Send it without If-None-Match.',
    });
    expect((await post('plane-point', body, { 'if-none-match': '"other"' })).status).toBe(200);
  });

  it('sends no Cache-Control on errors', async () => {
    const response = await get('plane-point', { locations: '91,10' });
    expect(response.status).toBe(400);
    expect(response.headers['cache-control']).toBeUndefined();
  });

  it.each([
    ['nearest', 1036],
    ['bilinear', 1038.4],
    ['cubic', 1038.4],
  ])('uses interpolation=%s', async (interpolation, expected) => {
    const response = await get('plane-point', { locations: INTERIOR, interpolation });
    expect(elevations(response.json)).toEqual([expected]);
  });

  it("ignores an API key and jQuery's cache-buster, as OpenTopoData does (OSMnx 1.x's template sends key=None)", async () => {
    const plain = await get('plane-point', { locations: INTERIOR });
    for (const key of ['None', '', 'AIzaSomething']) {
      const keyed = await get('plane-point', { locations: INTERIOR, key, _: '1733440000000' });
      expect(keyed.status).toBe(200);
      expect(keyed.body).toBe(plain.body);
    }
    const posted = await post('plane-point', JSON.stringify({ locations: INTERIOR, key: 'None' }));
    expect(posted.status).toBe(200);
    expect(posted.body).toBe(plain.body);
  });

  it('keeps input order and answers null outside the data', async () => {
    const response = await get('plane-point', { locations: `${BLOCK_EDGE}|${OUTSIDE}|${INTERIOR}` });
    expect(elevations(response.json)).toEqual([1094.08, null, 1038.4]);
  });

  it('accepts an encoded polyline with and without enc:', async () => {
    const polyline = encodePolyline([
      [49.9, 10.1],
      [49.755, 10.245],
    ]);
    for (const locations of [`enc:${polyline}`, polyline]) {
      const response = await get('plane-point', { locations });
      expect(response.status).toBe(200);
      expect(elevations(response.json)).toEqual([1038.4, 1094.08]);
    }
  });

  it('returns a GeoJSON FeatureCollection of Points with [lon, lat, z] for format=geojson', async () => {
    const response = await get('plane-point', { locations: INTERIOR, format: 'geojson' });
    expect(response.json).toEqual({
      type: 'FeatureCollection',
      features: [
        {
          type: 'Feature',
          geometry: { type: 'Point', coordinates: [10.1, 49.9, 1038.4] },
          properties: { dataset: 'plane-point' },
        },
      ],
    });
  });

  it('samples N points along the path for samples=N, ends included', async () => {
    const response = await get('plane-point', { locations: `${INTERIOR}|${BLOCK_EDGE}`, samples: '3' });
    const results = (response.json as { results: { location: { lat: number; lng: number } }[] }).results;
    expect(results).toHaveLength(3);
    expect(results[0].location).toEqual({ lat: 49.9, lng: 10.1 });
    expect(results[2].location).toEqual({ lat: 49.755, lng: 10.245 });
    expect(results[1].location.lat).toBeCloseTo((49.9 + 49.755) / 2, 2);
  });

  it.each([
    [undefined, 'null'],
    ['null', 'null'],
    ['nan', 'NaN'],
    ['-9999', '-9999'],
  ])(
    'writes nodata_value=%s as %s for a nodata pixel; a point outside stays null',
    async (nodataValue, literal) => {
      // int16-nodata.tif: pixel (5,5) is nodata; 51,10.3 lies outside the raster (OpenTopoData: only NaN is filled).
      const query: Record<string, string> = { locations: `49.921875,10.078125|${OUTSIDE}` };
      if (nodataValue) query.nodata_value = nodataValue;
      const response = await get('int16-nodata', query);
      expect(response.status).toBe(200);
      expect(response.body).toContain(`"elevation":${literal},"location":{"lat":49.921875`);
      expect(response.body).toContain(`"elevation":null,"location":{"lat":51`);
    },
  );

  it('fills a point that is nodata in every dataset of a chain, not one that no dataset covers', async () => {
    const response = await get('int16-nodata,plane-point', {
      locations: `49.921875,10.078125|${OUTSIDE}|${INTERIOR}`,
      nodata_value: '-9999',
    });
    expect(response.status).toBe(200);
    const results = (response.json as { results: { dataset: string; elevation: number | null }[] }).results;
    // (5,5) of int16-nodata is nodata, and plane-point has a value there: the chain falls through to it.
    expect(results[0]).toMatchObject({ dataset: 'plane-point' });
    expect(results[0].elevation).not.toBe(-9999);
    expect(results[1].elevation).toBeNull();
    expect(results[2]).toMatchObject({ dataset: 'int16-nodata', elevation: 1038.4 });
  });

  it('answers each point from the first dataset with a value for /v1/a,b and names it', async () => {
    const response = await get('plane-area,plane-point', {
      locations: `${INTERIOR}|50.005,10.3`,
      interpolation: 'nearest',
    });
    expect(response.status).toBe(200);
    const results = (response.json as { results: { dataset: string; elevation: number }[] }).results;
    expect(results.map((r) => [r.dataset, r.elevation])).toEqual([
      ['plane-area', 1039],
      ['plane-point', 1190],
    ]);
  });

  it('accepts a URL-encoded comma in the dataset path parameter', async () => {
    const response = await get('plane-area%2Cplane-point', {
      locations: '50.005,10.3',
      interpolation: 'nearest',
    });
    expect(response.status).toBe(200);
    expect(elevations(response.json)).toEqual([1190]);
  });

  it('reads projected and tiled datasets', async () => {
    const laea = await get('laea-pair', { locations: '48.3565473,9.1785843' });
    expect((elevations(laea.json)[0] as number) - 221.492).toBeLessThan(1e-3);
    const copernicus = await get('copernicus', { locations: '34,-118', interpolation: 'nearest' });
    expect(elevations(copernicus.json)).toEqual([1000]);
  });
});

describe('POST /v1/{dataset}', () => {
  it.each(['interpolation', 'nodata_value', 'format', 'samples', 'datum'])(
    'quotes at most 64 characters of a megabyte %s (the log line takes the message answered)',
    async (option) => {
      const body = JSON.stringify({ locations: INTERIOR, [option]: 'C'.repeat(1_000_000) });
      const response = await post('plane-point', body);
      expect(response.status).toBe(400);
      expect(response.body.length).toBeLessThan(400);
      expect((response.json as { error: string }).error).toContain('CCCCCCCCCC');
    },
  );

  it('accepts {"locations": "lat,lon|lat,lon"} with options in the body', async () => {
    const response = await post(
      'plane-point',
      JSON.stringify({ locations: `${INTERIOR}|${BLOCK_EDGE}`, interpolation: 'nearest' }),
    );
    expect(response.status).toBe(200);
    expect(elevations(response.json)).toEqual([1036, 1096]);
  });

  it('accepts {"locations": [{"lat", "lng"}]}', async () => {
    const response = await post('plane-point', JSON.stringify({ locations: [{ lat: 49.9, lng: 10.1 }] }));
    expect(elevations(response.json)).toEqual([1038.4]);
  });

  it('accepts a JSON array of {"latitude", "longitude"} as the whole body', async () => {
    const response = await post('plane-point', JSON.stringify([{ latitude: 49.9, longitude: 10.1 }]));
    expect(response.status).toBe(200);
    expect(elevations(response.json)).toEqual([1038.4]);
  });

  it('accepts a form body', async () => {
    const response = await post(
      'plane-point',
      `locations=${encodeURIComponent(INTERIOR)}&interpolation=nearest`,
      {
        'content-type': 'application/x-www-form-urlencoded',
      },
    );
    expect(response.status).toBe(200);
    expect(elevations(response.json)).toEqual([1036]);
  });

  it.each(['__proto__', 'constructor', 'toString'])(
    'refuses a form field named %s as any unknown one (it slipped past the check as an object key)',
    async (name) => {
      const response = await post('plane-point', `locations=${encodeURIComponent(INTERIOR)}&${name}=x`, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(400);
      expect((response.json as { error: string }).error).toMatch(new RegExp(`^Unknown parameter '${name}'`));
    },
  );

  it.each(['{"locations": "49.9,10.1"}', '  [{"lat": 49.9, "lng": 10.1}]'])(
    "says a JSON body sent as a form (curl -d's default) is JSON with the wrong content-type: %s",
    async (text) => {
      const response = await post('plane-point', text, {
        'content-type': 'application/x-www-form-urlencoded',
      });
      expect(response.status).toBe(400);
      expect((response.json as { error: string }).error).toMatch(
        /^Request body is JSON but its content-type is application\/x-www-form-urlencoded .*'content-type: application\/json'/,
      );
    },
  );

  it('decodes a base64-encoded body (API Gateway binary payloads)', async () => {
    const body = Buffer.from(JSON.stringify({ locations: INTERIOR })).toString('base64');
    const response = await post('plane-point', body, {}, { isBase64Encoded: true });
    expect(response.status).toBe(200);
    expect(elevations(response.json)).toEqual([1038.4]);
  });

  it('lets body fields win over query parameters', async () => {
    const response = await post(
      'plane-point',
      JSON.stringify({ locations: INTERIOR, interpolation: 'nearest' }),
      {},
      {
        query: { interpolation: 'cubic' },
      },
    );
    expect(elevations(response.json)).toEqual([1036]);
  });

  it('answers 512 locations (the configured limit) and rejects 513 naming the limit', async () => {
    const locations = (n: number) => Array.from({ length: n }, () => ({ lat: 49.9, lng: 10.1 }));
    const ok = await post('plane-point', JSON.stringify({ locations: locations(512) }));
    expect(ok.status).toBe(200);
    expect(elevations(ok.json)).toHaveLength(512);
    const tooMany = await post('plane-point', JSON.stringify({ locations: locations(513) }));
    expect(tooMany.status).toBe(400);
    expect(tooMany.json).toEqual({
      status: 'INVALID_REQUEST',
      error: 'Too many locations provided (513), the limit is 512. Split the request.',
    });
  });
});

describe('client errors', () => {
  const invalid = (error: string | RegExp) => ({
    status: 'INVALID_REQUEST',
    error: expect.stringMatching(error) as unknown,
  });

  it('returns 400 when latitude is outside [-90, 90], naming the location and its position', async () => {
    const response = await get('plane-point', { locations: `${INTERIOR}|91,10` });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        "Unable to parse location '91,10' in position 2. Latitude must be between -90 and 90. Provide locations in lat,lon order.",
    });
  });

  it.each([
    [{}, /^No locations provided/],
    [{ locations: 'abc,def' }, /^Unable to parse location 'abc,def' in position 1\./],
    [{ locations: INTERIOR, interpolation: 'spline' }, /^Invalid interpolation method 'spline'/],
    [{ locations: INTERIOR, nodata_value: '1.5' }, /^Invalid nodata value '1.5'/],
    [{ locations: INTERIOR, format: 'csv' }, /^Invalid format 'csv'/],
    [{ locations: INTERIOR, samples: '1' }, /^Must provide at least 2 samples\./],
    [{ locations: INTERIOR, samples: '513' }, /^Too many samples requested \(513\), the limit is 512\./],
    [{ locations: INTERIOR, interpolaton: 'cubic' }, /^Unknown parameter 'interpolaton'/],
    // Two mistakes: the one OpenTopoData names (it checks interpolation, nodata_value, locations, then samples).
    [{ locations: '91,0', samples: '1' }, /^Unable to parse location '91,0' in position 1\./],
    [{ samples: '1' }, /^No locations provided/],
    [{ locations: '91,0', nodata_value: '1.5' }, /^Invalid nodata value '1.5'/],
  ])('returns 400 for query %p', async (query, error) => {
    const response = await get('plane-point', query as Record<string, string>);
    expect(response.status).toBe(400);
    expect(response.json).toEqual(invalid(error));
  });

  it.each([
    ['{"locations":', /^Invalid JSON. The request body could not be parsed/],
    ['"49.9,10.1"', /^Request body must be a JSON object/],
    ['42', /^Request body must be a JSON object/],
    ['{"locations": 5}', /^'locations' must be a string/],
    ['[]', /^No locations provided\. The locations list is empty\./],
    ['[{"lat": "x"}]', /^Unable to parse location \{"lat":"x"\} in position 1/],
    [
      '{"locations": "49.9,10.1", "interpolation": {"toString": 1}}',
      /^Invalid interpolation: expected a string or a number/,
    ],
    [
      '{"locations": "49.9,10.1", "samples": {"valueOf": 3}}',
      /^Invalid samples: expected a string or a number/,
    ],
  ])('returns 400 for body %p', async (body, error) => {
    const response = await post('plane-point', body);
    expect(response.status).toBe(400);
    expect(response.json).toEqual(invalid(error));
  });

  it.each([
    [
      'multipart/mixed; boundary=x',
      '--x\r\n\r\nlocations\r\n--x--',
      /could not be parsed: .*\. It was read as JSON, but its content-type is 'multipart\/mixed': send application\/json or a form/,
    ],
    [
      'application/json; charset=utf-16',
      '{\u0000"\u0000l\u0000}',
      /could not be parsed: .*\. The body looks like UTF-16 \(it holds NUL characters\): send it as UTF-8\.$/,
    ],
    ['application/json', '{"locations":', /could not be parsed: [^.]*\.$/],
  ])('says why a %s body may not be JSON', async (type, body, error) => {
    const response = await post('plane-point', body, { 'content-type': type });
    expect(response.status).toBe(400);
    expect(response.json).toEqual(invalid(error));
  });

  it("returns 400 for an unknown dataset with OpenTopoData's message, listing the available ones", async () => {
    const response = await get('srtm90m', { locations: INTERIOR });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error: expect.stringMatching(
        /^Dataset 'srtm90m' not in config\. Available datasets: plane-point, plane-area/,
      ) as unknown,
    });
  });

  it('returns 400, not 500, for a malformed percent-escape in the dataset name', async () => {
    const response = await get('plane-point%2', { locations: INTERIOR });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(/^Dataset 'plane-point%2' not in config/);
  });

  it('returns 400 when one dataset of a chain is unknown', async () => {
    const response = await get('plane-point,nope', { locations: INTERIOR });
    expect(response.status).toBe(400);
  });

  it.each(['PUT', 'DELETE', 'PATCH'])('returns 405 with an Allow header for %s', async (method) => {
    const response = await get('plane-point', { locations: INTERIOR }, { method });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('GET, POST, OPTIONS, HEAD');
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error: `Method ${method} is not allowed here: use GET or POST or OPTIONS or HEAD.`,
    });
  });

  it('returns 413 for a body over the limit, naming the limit', async () => {
    const response = await post('plane-point', JSON.stringify({ locations: 'x'.repeat(1024 * 1024) }));
    expect(response.status).toBe(413);
    expect(response.json).toEqual(invalid(/^Request body is \d+ bytes; the limit is 1048576 bytes\./));
  });

  it('measures a base64-encoded body by its decoded bytes, padding excluded: the limit passes, a byte more is 413', async () => {
    const LIMIT = 1024 * 1024; // MAX_BODY_BYTES's default
    // Neither size is a multiple of 3, so both base64 texts end in '=' padding (counted as bytes, the limit
    // itself was refused and a byte over it was said to be 2 bytes more).
    const sized = (bytes: number) =>
      Buffer.from(JSON.stringify({ locations: INTERIOR }).padEnd(bytes, ' ')).toString('base64');
    const atLimit = await post('plane-point', sized(LIMIT), {}, { isBase64Encoded: true });
    expect(atLimit.status).toBe(200);
    expect(elevations(atLimit.json)).toEqual([1038.4]);
    const over = await post('plane-point', sized(LIMIT + 1), {}, { isBase64Encoded: true });
    expect(over.status).toBe(413);
    expect(over.json).toEqual(invalid(/^Request body is 1048577 bytes; the limit is 1048576 bytes\./));
  });
});

describe('CORS', () => {
  it('sends the configured origin on success and on errors', async () => {
    for (const response of [
      await get('plane-point', { locations: INTERIOR }),
      await get('plane-point', { locations: 'bad' }),
      await get('nope', { locations: INTERIOR }),
    ]) {
      expect(response.headers['access-control-allow-origin']).toBe('*');
    }
  });

  it('answers an OPTIONS preflight with 204 and the allowed methods and headers', async () => {
    const response = await get('plane-point', {}, { method: 'OPTIONS' });
    expect(response.status).toBe(204);
    expect(response.body).toBe('');
    expect(response.headers).toMatchObject({
      'access-control-allow-origin': '*',
      'access-control-allow-methods': 'GET, POST, OPTIONS',
      'access-control-allow-headers': 'content-type, content-encoding',
    });
  });
});
