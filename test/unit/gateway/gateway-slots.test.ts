import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type Gateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';

/** The upstream takes this long per invocation: far longer than the gateway's timeout below. */
const INVOCATION_MS = 600;
const GATEWAY_TIMEOUT_MS = 150;
const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];

describe('the local gateway bounds running invocations, not answered ones', () => {
  let upstream: http.Server;
  let gateway: Gateway;
  let running = 0;
  let peakRunning = 0;
  let invocations = 0;
  const logged: Record<string, string>[] = [];

  beforeAll(async () => {
    upstream = http.createServer((_request, response) => {
      running += 1;
      invocations += 1;
      peakRunning = Math.max(peakRunning, running);
      setTimeout(() => {
        running -= 1;
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end('{"status":"OK"}');
      }, INVOCATION_MS);
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 1,
      maxQueued: 10,
      timeoutMs: GATEWAY_TIMEOUT_MS,
      accessLog: (line) => logged.push(JSON.parse(line) as Record<string, string>),
    });
  });
  afterAll(async () => {
    await gateway.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it('answers 504 at its timeout but keeps the slot until the invocation ends', async () => {
    const first = await fetch(`${gateway.url}/v1/sample`);
    expect(first.status).toBe(504);
    // The first invocation still runs: the second request waits for it rather than running beside it.
    const second = await fetch(`${gateway.url}/v1/sample`);
    await second.arrayBuffer();
    expect(peakRunning).toBe(1);
  });

  it('logs a client gone while its request waited for a slot as such (no status, not a 504), and never invokes it', async () => {
    await new Promise((resolve) => setTimeout(resolve, INVOCATION_MS * 2)); // let earlier invocations end
    [logged.length, invocations] = [0, 0];
    const first = fetch(`${gateway.url}/v1/sample`); // holds the slot past its own 504
    const leaving = new AbortController();
    const second = fetch(`${gateway.url}/v1/sample`, { signal: leaving.signal }).catch(() => 'gone');
    setTimeout(() => leaving.abort(), 50);
    expect((await first).status).toBe(504);
    expect(await second).toBe('gone');
    await new Promise((resolve) => setTimeout(resolve, INVOCATION_MS + 200)); // the slot frees, the waiter looks
    expect(invocations).toBe(1);
    expect(logged.map((line) => [line.status, line.integrationError])).toEqual([
      ['504', 'The request timed out.'],
      ['-', 'The client closed the connection while the request waited for a function instance.'],
    ]);
  });

  it('answers a request beyond the queue 429 with a Retry-After, invoking nothing for it', async () => {
    await new Promise((resolve) => setTimeout(resolve, INVOCATION_MS * 2)); // let earlier invocations end
    const full = await startGateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 1,
      maxQueued: 1,
      timeoutMs: INVOCATION_MS * 4,
    });
    try {
      invocations = 0;
      const running = fetch(`${full.url}/v1/sample`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const queued = fetch(`${full.url}/v1/sample`);
      await new Promise((resolve) => setTimeout(resolve, 50));
      const refused = await fetch(`${full.url}/v1/sample`);
      expect(refused.status).toBe(429);
      expect(refused.headers.get('retry-after')).toBe('2');
      expect(await refused.json()).toEqual({
        status: 'SERVER_ERROR',
        error: 'Too many requests are waiting for this function; retry in 2 s or more.',
      });
      expect([(await running).status, (await queued).status]).toEqual([200, 200]);
      expect(invocations).toBe(2);
    } finally {
      await full.close();
    }
  });

  it('passes an answer that arrives in time through unchanged', async () => {
    await new Promise((resolve) => setTimeout(resolve, INVOCATION_MS * 2)); // let earlier invocations end
    const quick = await startGateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 1,
      maxQueued: 10,
      timeoutMs: INVOCATION_MS * 4,
    });
    try {
      const answer = await fetch(`${quick.url}/v1/sample`);
      expect(answer.status).toBe(200);
      expect(await answer.json()).toEqual({ status: 'OK' });
    } finally {
      await quick.close();
    }
  });
});
