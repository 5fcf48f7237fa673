/**
 * What every answer carries: our version header; HEAD as GET without a body; gzip when accepted and worth it; a 413
 * for an answer over Lambda's response limit.
 */
import fs from 'node:fs';
import { gunzipSync, gzipSync } from 'node:zlib';
import { errorResponse, MAX_ERROR_MESSAGE_CHARS, type Response } from '../../functions/http';
import { DataSourceMisconfiguredError, InvalidRequestError } from '../../layers/elevation';
import type { RequestTelemetry } from '../../layers/telemetry';
import {
  API_VERSION,
  finishResponse,
  MAX_RESPONSE_BYTES,
  VERSION_HEADER,
} from '../../functions/response-finish';
import { httpEvent, invoke, type Handler } from './support/api-gateway';
import { loadHandlers } from './support/handlers';
import { loadTrackHandlers, postFile } from './support/track-handlers';

const MANY = Array.from({ length: 60 }, (_, i) => `49.${i + 10},10.1`).join('|');

describe('every answer', () => {
  it('carries x-elevation-api-version, equal to package.json', async () => {
    const { elevation, health } = await loadHandlers();
    const pkg = JSON.parse(fs.readFileSync('package.json', 'utf8')) as { version: string };
    expect(API_VERSION).toBe(pkg.version);
    const ok = await invoke(health, { path: '/health' });
    const bad = await invoke(elevation, {
      path: '/v1/nope',
      pathParameters: { dataset: 'nope' },
      query: { locations: '1,1' },
    });
    expect(ok.headers['x-elevation-api-version']).toBe(API_VERSION);
    expect(bad.headers['x-elevation-api-version']).toBe(API_VERSION);
  });

  it('answers HEAD like GET with an empty body', async () => {
    const { elevation } = await loadHandlers();
    const request = {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query: { locations: '49.9,10.1' },
    };
    const head = await invoke(elevation, { ...request, method: 'HEAD' });
    const get = await invoke(elevation, request);
    expect(head.status).toBe(200);
    expect(head.body).toBe('');
    expect(head.headers['content-type']).toBe(get.headers['content-type']);
  });

  it('is gzip-encoded when the client accepts gzip and the body is over 1 KB, identical once decoded', async () => {
    const { elevation } = await loadHandlers();
    const request = {
      path: '/v1/plane-point',
      pathParameters: { dataset: 'plane-point' },
      query: { locations: MANY },
    };
    const plain = await invoke(elevation, request);
    const zipped = await invoke(elevation, { ...request, headers: { 'accept-encoding': 'br, gzip;q=0.8' } });
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(zipped.headers['content-encoding']).toBe('gzip');
    expect(gunzipSync(Buffer.from(zipped.body, 'base64')).toString()).toBe(plain.body);
    const refused = await invoke(elevation, { ...request, headers: { 'accept-encoding': 'gzip;q=0' } });
    // Read in one pass: a header of many spaces took n² steps (0.4 s at 32 KB).
    const spaced = { 'accept-encoding': `gzip${' '.repeat(1_000_000)};x` };
    expect(
      (await invoke(elevation, { ...request, headers: spaced })).headers['content-encoding'],
    ).toBeUndefined();
    const spacedOk = { 'accept-encoding': `gzip${' '.repeat(1_000_000)}, br` };
    expect((await invoke(elevation, { ...request, headers: spacedOk })).headers['content-encoding']).toBe(
      'gzip',
    );
    expect(refused.headers['content-encoding']).toBeUndefined();
    // A strong ETag names one encoding: the compressed answer's is its own.
    expect(zipped.headers.etag).toBe(`${String(plain.headers.etag).slice(0, -1)}-gzip"`);
    const head = await invoke(elevation, {
      ...request,
      method: 'HEAD',
      headers: { 'accept-encoding': 'gzip' },
    });
    expect(head.body).toBe('');
    expect(head.headers).toMatchObject({
      'content-encoding': 'gzip',
      vary: 'accept-encoding',
      etag: zipped.headers.etag,
    });
    // A 304 names the ETag of the answer the client holds (a cache freshens the stored answer it names).
    const revalidated = await invoke(elevation, {
      ...request,
      headers: { 'accept-encoding': 'gzip', 'if-none-match': String(zipped.headers.etag) },
    });
    expect(revalidated.status).toBe(304);
    expect(revalidated.headers).toMatchObject({ etag: zipped.headers.etag, vary: 'accept-encoding' });
    expect(revalidated.headers['content-encoding']).toBeUndefined();
    const plainRevalidated = await invoke(elevation, {
      ...request,
      headers: { 'if-none-match': String(plain.headers.etag) },
    });
    expect(plainRevalidated.status).toBe(304);
    expect(plainRevalidated.headers.etag).toBe(plain.headers.etag);
  });

  it('answers OPTIONS with a preflight on a GET-only route too', async () => {
    const { health } = await loadHandlers();
    const preflight = await invoke(health, { path: '/health', method: 'OPTIONS' });
    expect(preflight.status).toBe(204);
    // Its own methods, as its 405's Allow has them (not every route's GET, POST).
    expect(preflight.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
    const refused = await invoke(health, { path: '/health', method: 'POST' });
    expect(refused.headers['access-control-allow-methods']).toBe('GET, OPTIONS');
  });
});

describe("OpenTopoData's help answer", () => {
  it('answers GET / with 404 INVALID_REQUEST and an example URL on a configured dataset', async () => {
    let help: Handler | undefined;
    await jest.isolateModulesAsync(async () => {
      help = (await import('../../functions/help')).handler;
    });
    await loadHandlers(); // the same environment the other handlers get
    const response = await invoke(help as Handler, { path: '/' });
    expect(response.status).toBe(404);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error: expect.stringMatching(
        /^No dataset name provided\. Try a url like '\/v1\/[\w.-]+\?locations=/,
      ) as string,
    });
  });
});

describe('GET /v1 redirects to /v1/ as OpenTopoData does', () => {
  let help: Handler;
  beforeAll(async () => {
    await jest.isolateModulesAsync(async () => {
      help = (await import('../../functions/help')).handler;
    });
    await loadHandlers();
  });

  it.each([
    ['/v1', undefined, '/v1/'],
    ['/prod/v1', undefined, '/prod/v1/'],
    ['/v1', { a: 'b' }, '/v1/?a=b'],
  ])('%s (query %j) answers 308 to %s', async (path, query, location) => {
    const response = await invoke(help, { path, query });
    expect(response.status).toBe(308);
    expect(response.headers.location).toBe(location);
    expect(response.json).toMatchObject({ status: 'INVALID_REQUEST' });
  });

  it.each([
    ['/v1/', {}],
    ['/v1', { 'x-elevation-trailing-slash': '1' }], // the local gateway stripped the slash
    ['//evil.example/v1', {}], // never a Location that leaves this host
    ['/', {}],
  ])('%s %j answers the help message, no redirect', async (path, headers) => {
    const response = await invoke(help, { path, headers });
    expect(response.status).toBe(404);
    expect(response.headers.location).toBeUndefined();
  });
});

describe("OpenTopoData's /datasets", () => {
  it('lists names and child datasets from the config, in its shape', async () => {
    const { datasets } = await loadHandlers();
    const response = await invoke(datasets, { path: '/datasets' });
    expect(response.status).toBe(200);
    const body = response.json as { status: string; results: { name: string; child_datasets: string[] }[] };
    expect(body.status).toBe('OK');
    expect(body.results[0]).toEqual({ name: 'big-endian', child_datasets: [] }); // by name, as OpenTopoData sorts them
    expect(body.results.every((r) => Array.isArray(r.child_datasets))).toBe(true);
  });
});

describe('an answer too large for Lambda to return (6 MB) is a 413 saying what to do instead', () => {
  const event = (headers: Record<string, string> = {}) =>
    httpEvent({ path: '/v1/x/file', method: 'POST', headers });
  const answer = (body: string): Response => ({
    statusCode: 200,
    headers: { 'content-type': 'application/gpx+xml', 'access-control-allow-origin': '*' },
    body,
  });
  /** The body length at which the whole response document is exactly MAX_RESPONSE_BYTES. */
  const fitting = MAX_RESPONSE_BYTES - Buffer.byteLength(JSON.stringify(finishResponse(event(), answer(''))));

  it('passes an answer of exactly the limit, and refuses one byte more, keeping CORS and the version', () => {
    const exact = finishResponse(event(), answer('x'.repeat(fitting)));
    expect(exact.statusCode).toBe(200);
    expect(Buffer.byteLength(JSON.stringify(exact))).toBe(MAX_RESPONSE_BYTES);
    const over = finishResponse(event(), answer('x'.repeat(fitting + 1)));
    expect(over.statusCode).toBe(413);
    expect(over.headers).toEqual({
      'access-control-allow-origin': '*',
      'content-type': 'application/json',
      [VERSION_HEADER]: API_VERSION,
    });
    expect(JSON.parse(String(over.body))).toEqual({
      status: 'INVALID_REQUEST',
      error:
        `The answer would be ${MAX_RESPONSE_BYTES + 1} bytes, over Lambda's limit of ${MAX_RESPONSE_BYTES} bytes ` +
        'for a response: ask for it compressed (Accept-Encoding: gzip; curl --compressed), send the file ' +
        'gzip-compressed (it is answered compressed), or send a shorter track.',
    });
  });

  it.each([
    [
      { 'content-type': 'text/csv; charset=utf-16le' },
      true,
      'send a shorter track, or the file gzip-compressed',
    ],
    [{ 'content-type': 'application/gzip' }, true, 'send a shorter track (split the file).'],
  ])(
    'does not advise asking for compression where it cannot help (%j, base64: %p)',
    (headers, isBase64Encoded, expected) => {
      const binary = {
        statusCode: 200,
        headers,
        isBase64Encoded,
        body: 'QUJD'.repeat(Math.ceil(fitting / 4) + 1024),
      };
      const over = finishResponse(event({ 'accept-encoding': 'identity' }), binary);
      expect(over.statusCode).toBe(413);
      const { error } = JSON.parse(String(over.body)) as { error: string };
      expect(error).toContain(`for a response: ${expected}`);
      expect(error).not.toContain('Accept-Encoding');
    },
  );

  it('counts the body as Lambda does, JSON-escaped: quotes take two bytes', () => {
    const quotes = finishResponse(event(), answer('"'.repeat(Math.ceil(fitting / 2) + 1)));
    expect(quotes.statusCode).toBe(413);
  });

  it('answers the same body gzip-compressed when the client accepts it', () => {
    const text = '<trkpt lat="48.7" lon="9.1"><ele>456.889</ele></trkpt>'.repeat(Math.ceil(fitting / 50));
    expect(finishResponse(event(), answer(text)).statusCode).toBe(413);
    const gzipped = finishResponse(event({ 'accept-encoding': 'gzip' }), answer(text));
    expect(gzipped.statusCode).toBe(200);
    expect(gunzipSync(Buffer.from(String(gzipped.body), 'base64')).toString('utf8')).toBe(text);
  });

  it('refuses a track file whose filled answer would be over it, through the file handler', async () => {
    const point = '<trkpt lat="48.7" lon="9.1"/>';
    const gpx = Buffer.from(`<gpx version="1.1"><trk><trkseg>${point.repeat(160_000)}</trkseg></trk></gpx>`);
    expect(gpx.length).toBeLessThan(MAX_RESPONSE_BYTES);
    const limited = await loadTrackHandlers({
      MAX_FILE_BYTES: String(6 * 1024 * 1024),
      MAX_FILE_COORDINATES: '200000',
    });
    const plain = await postFile(limited, gpx);
    expect(plain.status).toBe(413);
    expect((plain.json as { error: string }).error).toMatch(
      /^The answer would be \d+ bytes, over Lambda's limit/,
    );
    const compressed = await postFile(limited, gpx, {}, { headers: { 'accept-encoding': 'gzip' } });
    expect(compressed.status).toBe(200);
    const gz = await postFile(limited, gzipSync(gpx));
    expect(gz.status).toBe(200);
    expect(gz.headers['content-type']).toBe('application/gzip');
  }, 30_000);
});

describe('a 4xx message', () => {
  it('is cut at MAX_ERROR_MESSAGE_CHARS in the answer and the log line, whichever message forgot to cut a value', () => {
    const set = jest.fn();
    const t = { set, recordServerError: jest.fn() } as unknown as RequestTelemetry;
    const response = errorResponse(
      new InvalidRequestError(`Invalid thing '${'x'.repeat(1_000_000)}'.`),
      null,
      t,
    );
    const { error } = JSON.parse(response.body ?? '') as { error: string };
    expect(error).toHaveLength(MAX_ERROR_MESSAGE_CHARS + 1); // and '…'
    expect(error.endsWith('x…')).toBe(true);
    expect(set).toHaveBeenCalledWith(expect.objectContaining({ errorMessage: error }));
  });
});

describe('a data store addressed wrongly (DataSourceMisconfiguredError)', () => {
  it('says an operator must fix it, without the bucket, region or retry advice; the log keeps them', () => {
    const set = jest.fn();
    const t = { set, recordServerError: jest.fn() } as unknown as RequestTelemetry;
    const cause = 'S3 301 PermanentRedirect for s3://dem-bucket/dem/N48E009.tif (the bucket is in eu-west-1)';
    const response = errorResponse(new DataSourceMisconfiguredError(cause), null, t);
    expect(response.statusCode).toBe(502);
    expect(JSON.parse(response.body ?? '')).toEqual({
      status: 'SERVER_ERROR',
      error:
        'The elevation data store is addressed wrongly (a bucket in another region, or a wrong name); an operator must fix the deployment.',
    });
    expect(set).toHaveBeenCalledWith(
      expect.objectContaining({ error: expect.objectContaining({ message: cause }) }),
    );
  });
});
