import path from 'node:path';
import { offlineErrorOf } from '../../../scripts/gateway/gateway';
import { ConcurrencyLimit } from '../../../layers/elevation';
import { loadRoutes, matchRoute } from '../../../scripts/gateway/routes';

const routes = loadRoutes(path.resolve(__dirname, '../../../serverless.yml'));

describe('routes from serverless.yml', () => {
  it('matches literal routes before parameter routes, as API Gateway does', () => {
    expect(matchRoute(routes, 'GET', '/v1/datasets')?.functionName).toBe('datasets');
    expect(matchRoute(routes, 'GET', '/v1/srtm90m')?.functionName).toBe('elevation');
    expect(matchRoute(routes, 'DELETE', '/v1/srtm90m')?.functionName).toBe('elevation'); // ANY: the handler says 405
    expect(matchRoute(routes, 'GET', '/health')?.functionName).toBe('health');
    expect(matchRoute(routes, 'GET', '/')?.functionName).toBe('help');
    expect(matchRoute(routes, 'GET', '/v1/')?.functionName).toBe('help');
  });

  it('finds no route for unknown paths or methods a route does not take', () => {
    expect(matchRoute(routes, 'GET', '/v1/a/b/c/d')).toBeNull();
    // An empty segment is no dataset name or literal: serverless-offline's router would answer it with its own 404.
    for (const empty of [
      '/v1//sample',
      '//v1/sample',
      '/v1/sample//profile',
      '//health',
      '/maps//api/elevation/json',
    ])
      expect(matchRoute(routes, 'GET', empty)).toBeNull();
    expect(matchRoute(routes, 'GET', '/v1/sample//')?.functionName).toBe('elevation'); // trailing slashes only
    // In one pass: /\/+$/ tried every slash of a run (n² steps on '////…x': 3 s at 100,000).
    expect(matchRoute(routes, 'GET', `/v1/${'/'.repeat(1_000_000)}x`)).toBeNull();
    expect(matchRoute(routes, 'GET', `/v1/sample${'/'.repeat(1_000_000)}`)?.functionName).toBe('elevation');
    expect(matchRoute(routes, 'DELETE', '/v1/datasets/x')).toBeNull();
  });

  // OpenTopoData's other routes (/health, /datasets, /, /v1) too: its 405, its CORS preflight.
  it.each([
    ['/app', 'app'],
    ['/maps/api/elevation/json', 'google'],
    ['/maps/api/elevation/xml', 'google'],
    ['/v1/sample/file', 'file'],
    ['/v1/sample/profile', 'profile'],
    ['/api/elevation', 'legacy'],
    ['/api/v1/lookup', 'openelevation'],
    ['/health', 'health'],
    ['/datasets', 'datasets'],
    ['/', 'help'],
    ['/v1', 'help'],
  ])(
    'sends any method of %s to its handler %s, whose 405 names the allowed ones (not a 404)',
    (path, name) => {
      expect(matchRoute(routes, 'DELETE', path)?.functionName).toBe(name);
      expect(matchRoute(routes, 'OPTIONS', path)?.functionName).toBe(name);
    },
  );

  it('sends /v1/datasets preflights to its handler, and its POST to /v1/{dataset}', () => {
    expect(matchRoute(routes, 'OPTIONS', '/v1/datasets')?.functionName).toBe('datasets');
    // POST /v1/datasets is /v1/{dataset}'s: a dataset may be named "datasets".
    expect(matchRoute(routes, 'POST', '/v1/datasets')?.functionName).toBe('elevation');
  });
});

describe('offlineErrorOf', () => {
  const answer = (body: unknown) => ({ status: 200, headers: {}, body: Buffer.from(JSON.stringify(body)) });

  it("recognises serverless-offline's timeout and error payloads", () => {
    expect(
      offlineErrorOf(
        answer({ errorMessage: '[504] - Lambda timeout.', errorType: 'LambdaTimeoutError', stackTrace: [] }),
      ),
    ).toBe('timeout');
    expect(
      offlineErrorOf(answer({ errorMessage: 'boom', errorType: 'TypeError', stackTrace: ['at x'] })),
    ).toBe('error');
  });

  it('passes our own answers through', () => {
    expect(offlineErrorOf(answer({ status: 'OK', results: [] }))).toBeNull();
    expect(offlineErrorOf({ status: 200, headers: {}, body: Buffer.from('<svg/>') })).toBeNull();
    // The key inside an answer of ours (a dataset so named) passes the byte search and is judged by the shape.
    expect(
      offlineErrorOf(answer({ status: 'OK', results: [{ dataset: 'errorType', elevation: 1 }] })),
    ).toBeNull();
    expect(offlineErrorOf(answer({ errorType: 'x', status: 'OK' }))).toBeNull();
  });

  it('still finds the payload when the key is not first, and refuses a body over 256 KiB unparsed', () => {
    expect(offlineErrorOf(answer({ stackTrace: [], errorMessage: 'boom', errorType: 'Error' }))).toBe(
      'error',
    );
    const big = { errorMessage: 'x'.repeat(300 * 1024), errorType: 'Error', stackTrace: [] };
    expect(offlineErrorOf(answer(big))).toBeNull();
  });
});

describe('ConcurrencyLimit as per-function slots', () => {
  it('queues beyond its concurrency and refuses beyond its queue', async () => {
    const slots = new ConcurrencyLimit(1, 1);
    const first = await slots.acquire();
    const second = slots.acquire();
    expect(await slots.acquire()).toBeNull(); // queue of one is full
    expect(slots.queued).toBe(1);
    first?.();
    const granted = await second;
    expect(slots.inFlight).toBe(1);
    granted?.();
    expect(slots.inFlight).toBe(0);
  });
});
