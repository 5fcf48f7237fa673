import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type Gateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];

/** A promise and the functions that settle it. */
function deferred(): { promise: Promise<void>; resolve: () => void; reject: (e: Error) => void } {
  let resolve: () => void = () => undefined;
  let reject: (e: Error) => void = () => undefined;
  const promise = new Promise<void>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

describe('the local gateway while serverless-offline starts', () => {
  let upstream: http.Server;
  let upstreamUrl: string;
  const hits: number[] = [];
  const gateways: Gateway[] = [];

  beforeAll(async () => {
    upstream = http.createServer((_request, response) => {
      hits.push(Date.now());
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"OK","results":[]}');
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    upstreamUrl = `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`;
  });
  afterAll(async () => {
    await Promise.all(gateways.map((g) => g.close()));
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  async function gateway(
    upstreamReady: Promise<void> | undefined,
    timeoutMs: number,
    to = upstreamUrl,
  ): Promise<Gateway> {
    const g = await startGateway({
      upstream: to,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 2,
      maxQueued: 10,
      timeoutMs,
      upstreamReady,
    });
    gateways.push(g);
    return g;
  }

  it('holds a request until the upstream is up, then forwards it (not a 502)', async () => {
    const ready = deferred();
    const g = await gateway(ready.promise, 5000);
    hits.length = 0;
    const answer = fetch(`${g.url}/v1/sample?locations=1,1`);
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(hits).toEqual([]); // nothing forwarded before the upstream is up
    const upAt = Date.now();
    ready.resolve();
    const response = await answer;
    expect(response.status).toBe(200);
    expect(await response.json()).toEqual({ status: 'OK', results: [] });
    expect(hits.length).toBe(1);
    expect(hits[0]).toBeGreaterThanOrEqual(upAt);
  });

  it('answers 503 with Retry-After when the upstream is not up within the request timeout', async () => {
    const g = await gateway(deferred().promise, 150);
    const started = Date.now();
    const response = await fetch(`${g.url}/v1/sample?locations=1,1`);
    expect(response.status).toBe(503);
    expect(response.headers.get('retry-after')).toBe('5');
    expect(response.headers.get('content-type')).toBe('application/json');
    expect(await response.json()).toEqual({
      status: 'SERVER_ERROR',
      error: 'The API is still starting; retry in a few seconds.',
    });
    expect(Date.now() - started).toBeGreaterThanOrEqual(140);
  });

  it('does not wait when the start failed: the request fails at once as uninvocable (502)', async () => {
    const closed = http.createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const deadUrl = `http://127.0.0.1:${(closed.address() as AddressInfo).port}`;
    await new Promise((resolve) => closed.close(resolve));
    const failed = deferred();
    failed.reject(new Error('serverless-offline exited'));
    const g = await gateway(failed.promise, 5000, deadUrl);
    const started = Date.now();
    const response = await fetch(`${g.url}/v1/sample?locations=1,1`);
    expect(response.status).toBe(502);
    expect(Date.now() - started).toBeLessThan(2000);
  });

  it('forwards at once when no readiness is given (the upstream is taken to be up)', async () => {
    const g = await gateway(undefined, 5000);
    const response = await fetch(`${g.url}/v1/sample?locations=1,1`);
    expect(response.status).toBe(200);
  });
});
