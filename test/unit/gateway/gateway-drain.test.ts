/**
 * The gateway's graceful stop (npm start's Ctrl-C / SIGTERM): requests already received are answered, running or
 * queued, on connections that then close; new connections are refused; what is left when the time runs out gets a
 * 503 with Retry-After and is never invoked.
 */
import http from 'node:http';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';
import type { ApiRoute } from '../../../scripts/gateway/routes';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];

interface Reply {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: string;
}

function get(url: string, agent?: http.Agent): Promise<Reply> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { agent }, (response) => {
        let body = '';
        response.setEncoding('utf8');
        response.on('data', (chunk: string) => (body += chunk));
        response.on('end', () =>
          resolve({ status: response.statusCode ?? 0, headers: response.headers, body }),
        );
      })
      .on('error', reject);
  });
}

function slowUpstream(ms: number): {
  handler: http.RequestListener;
  invoked: () => number;
  started: Promise<void>;
} {
  let count = 0;
  let first: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (first = resolve));
  return {
    invoked: () => count,
    started,
    handler: (request, response) => {
      count += 1;
      first();
      setTimeout(() => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ status: 'OK', path: request.url }));
      }, ms);
    },
  };
}

describe('draining the local gateway', () => {
  let harness: GatewayHarness | undefined;
  afterEach(async () => {
    await harness?.close();
    harness = undefined;
  });

  it('answers every request it holds, running and queued, then refuses new connections', async () => {
    const upstream = slowUpstream(200);
    harness = await gatewayOver(upstream.handler, ROUTES, { maxConcurrent: 1, maxQueued: 10 });
    const { url } = harness.gateway;
    // A kept-alive client: its connection must close after the answer, not wait for a next request.
    const agent = new http.Agent({ keepAlive: true });
    const replies = [1, 2, 3].map((i) => get(`${url}/v1/run${i}`, agent));
    await upstream.started; // one runs, two wait for its slot
    const drained = harness.gateway.drain(10_000);
    await expect(get(`${url}/v1/late`)).rejects.toMatchObject({ code: 'ECONNREFUSED' });
    const answered = await Promise.all(replies);
    expect(answered.map((r) => r.status)).toEqual([200, 200, 200]);
    expect(answered.map((r) => (JSON.parse(r.body) as { path: string }).path)).toEqual([
      '/v1/run1',
      '/v1/run2',
      '/v1/run3',
    ]);
    // The queued two were answered after the drain began: each closes its connection.
    expect(answered.slice(1).map((r) => r.headers.connection)).toEqual(['close', 'close']);
    await expect(drained).resolves.toEqual({ cutOff: 0 });
    expect(upstream.invoked()).toBe(3);
    agent.destroy();
  });

  it('resolves at once with nothing in progress', async () => {
    harness = await gatewayOver(slowUpstream(10).handler, ROUTES);
    await expect(harness.gateway.drain(60_000)).resolves.toEqual({ cutOff: 0 });
  });

  it('answers what is left at its deadline 503 with Retry-After, logs it, and never invokes a queued one', async () => {
    const upstream = slowUpstream(1500);
    const logged: Record<string, unknown>[] = [];
    harness = await gatewayOver(upstream.handler, ROUTES, {
      maxConcurrent: 1,
      maxQueued: 10,
      accessLog: (line) => logged.push(JSON.parse(line) as Record<string, unknown>),
    });
    const { url } = harness.gateway;
    const replies = [get(`${url}/v1/running`), get(`${url}/v1/queued`)];
    await upstream.started;
    await expect(harness.gateway.drain(50)).resolves.toEqual({ cutOff: 2 });
    const answered = await Promise.all(replies);
    for (const reply of answered) {
      expect(reply.status).toBe(503);
      expect(reply.headers['retry-after']).toBe('5');
      expect(reply.headers.connection).toBe('close');
      expect(JSON.parse(reply.body)).toEqual({
        status: 'SERVER_ERROR',
        error: 'The API is shutting down; retry in a few seconds.',
      });
    }
    expect(logged.filter((l) => l.status === '503')).toHaveLength(2);
    // The running invocation ends on its own; the queued request, given its slot then, is not sent.
    await new Promise((resolve) => setTimeout(resolve, 1800));
    expect(upstream.invoked()).toBe(1);
  });
});
