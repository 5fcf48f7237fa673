/**
 * Open-Elevation's `/api/v1/lookup` in-process over the fixtures (default dataset: plane-point, the analytic
 * plane): its documented GET and POST requests answered in its shape, heights equal to `/v1`'s, `null` where
 * there is no data (Open-Elevation's 0 m would be a height nobody measured), and our 4xx for bad input.
 */
import { invoke, type EventOptions } from './support/api-gateway';
import { loadHandlers, type Handlers } from './support/handlers';

let handlers: Handlers;
beforeAll(async () => {
  handlers = await loadHandlers();
});

const lookup = (options: Partial<EventOptions>) =>
  invoke(handlers.openElevation, { method: 'GET', path: '/api/v1/lookup', ...options });
const post = (body: unknown, headers: Record<string, string> = { 'content-type': 'application/json' }) =>
  lookup({ method: 'POST', body: typeof body === 'string' ? body : JSON.stringify(body), headers });

async function v1(locations: string, interpolation = 'bilinear') {
  const response = await invoke(handlers.elevation, {
    path: '/v1/plane-point',
    pathParameters: { dataset: 'plane-point' },
    query: { locations, interpolation },
  });
  return (response.json as { results: { elevation: number | null }[] }).results.map((r) => r.elevation);
}

describe('GET /api/v1/lookup (Open-Elevation)', () => {
  it("answers its documented request, '|'-separated pairs, as {results: [{latitude, longitude, elevation}]}", async () => {
    const response = await lookup({ query: { locations: '49.9,10.1|49.755,10.245|10,10' } });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/json');
    expect(response.json).toEqual({
      results: [
        { latitude: 49.9, longitude: 10.1, elevation: 1038.4 },
        { latitude: 49.755, longitude: 10.245, elevation: 1094.08 },
        { latitude: 10, longitude: 10, elevation: null },
      ],
    });
    const expected = await v1('49.9,10.1|49.755,10.245|10,10');
    const results = (response.json as { results: { elevation: number | null }[] }).results;
    expect(results.map((r) => r.elevation)).toEqual(expected);
  });

  it('honours interpolation=nearest and is cacheable (ETag, 304 on a match)', async () => {
    const nearest = await lookup({ query: { locations: '49.9,10.1', interpolation: 'nearest' } });
    expect(nearest.json).toEqual({ results: [{ latitude: 49.9, longitude: 10.1, elevation: 1036 }] });
    expect((await v1('49.9,10.1', 'nearest'))[0]).toBe(1036);
    const etag = String(nearest.headers.etag);
    expect(nearest.headers['cache-control']).toMatch(/max-age=/);
    const again = await lookup({
      query: { locations: '49.9,10.1', interpolation: 'nearest' },
      headers: { 'if-none-match': etag },
    });
    expect(again.status).toBe(304);
  });

  it.each([
    [{}, /^No locations given: send GET \?locations=lat,lng\|lat,lng or POST \{"locations":\[\{"latitude"/],
    [{ locations: '' }, /^No locations given/],
    [{ location: '49.9,10.1' }, /^No locations given: .* \(the request had 'location'\)\.$/],
    [
      { locations: '49.9,10.1;49.8,10.2' },
      /^Unable to parse location '49\.9,10\.1;49\.8,10\.2' in position 1\. Separate locations with '\|', not ';'\.$/,
    ],
    [
      { locations: '49.9,10.1', datum: 'ellipsoid' },
      /^'datum' is an option of \/v1\/\{dataset\}, which this route/,
    ],
    [{ locations: '49.9,10.1', nodata_value: '-9999' }, /^'nodata_value' is an option of \/v1/],
    [
      { locations: '49.9,10.1|91,10' },
      /^Unable to parse location '91,10' in position 2\. Latitude must be between -90 and 90/,
    ],
    [{ locations: 'here' }, /^Unable to parse locations as polyline\./],
    [{ locations: '49.9,10.1', interpolation: 'spline' }, /interpolation/],
  ])('answers %j with 400 and what was wrong', async (query, message) => {
    const response = await lookup({ query });
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ status: 'INVALID_REQUEST', error: expect.stringMatching(message) });
  });

  it('refuses locations given twice (API Gateway would join them into one location) and 513 locations', async () => {
    const twice = await lookup({
      rawQueryString: 'locations=49.9&locations=10.1',
      query: { locations: '49.9,10.1' },
    });
    expect(twice.status).toBe(400);
    expect((twice.json as { error: string }).error).toMatch(/'locations' is given more than once/);
    const many = await lookup({ query: { locations: Array(513).fill('49.9,10.1').join('|') } });
    expect(many.status).toBe(400);
    expect((many.json as { error: string }).error).toContain('512');
  });

  it('answers a preflight, and 405 with Allow for another method', async () => {
    expect((await lookup({ method: 'OPTIONS' })).status).toBe(204);
    const put = await lookup({ method: 'PUT' });
    expect(put.status).toBe(405);
    expect(put.headers.allow).toBe('GET, POST, OPTIONS, HEAD');
  });
});

describe('POST /api/v1/lookup (Open-Elevation)', () => {
  it('answers its documented body {"locations": [{"latitude", "longitude"}]} in input order', async () => {
    const response = await post({
      locations: [
        { latitude: 49.755, longitude: 10.245 },
        { latitude: 10, longitude: 10 },
        { latitude: 49.9, longitude: 10.1 },
      ],
    });
    expect(response.status).toBe(200);
    expect(response.json).toEqual({
      results: [
        { latitude: 49.755, longitude: 10.245, elevation: 1094.08 },
        { latitude: 10, longitude: 10, elevation: null },
        { latitude: 49.9, longitude: 10.1, elevation: 1038.4 },
      ],
    });
  });

  it.each([
    ['no locations', {}, /^No locations given: send GET/],
    ['an empty list', { locations: [] }, /^No locations given/],
    [
      "/v1's key",
      { location: [{ latitude: 49.9, longitude: 10.1 }] },
      /^No locations given: .* \(the request had 'location'\)\.$/,
    ],
    [
      'one location object instead of a list',
      { locations: { latitude: 49.9, longitude: 10.1 } },
      /^'locations' is neither text nor a list: send GET \?locations=lat,lng\|lat,lng or POST/,
    ],
    ['a location without longitude', { locations: [{ latitude: 49.9 }] }, /in position 1/],
    [
      'a latitude out of range',
      { locations: [{ latitude: 95, longitude: 10 }] },
      /Latitude must be between -90 and 90/,
    ],
    ['not JSON', '{"locations": [', /JSON/],
    [
      'a JSON number, worded in its own body shape',
      '42',
      /^Request body must be a JSON object like \{"locations":\[\{"latitude":48\.74,"longitude":9\.10\}\]\}\.$/,
    ],
  ])('answers %s with 400 and what was wrong', async (_, body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(response.json).toEqual({ status: 'INVALID_REQUEST', error: expect.stringMatching(message) });
  });
});
