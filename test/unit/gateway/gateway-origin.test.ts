// The local gateway does not pass a request's Origin on to serverless-offline, which would otherwise answer it with
// that origin and credentials allowed (see NOT_FORWARDED in scripts/gateway/gateway.ts); the upstream here echoes
// the headers it received.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type Gateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];

describe('the local gateway and the Origin header', () => {
  let upstream: http.Server;
  let gateway: Gateway;

  beforeAll(async () => {
    upstream = http.createServer((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.headers));
    });
    await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
    gateway = await startGateway({
      upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 2,
      maxQueued: 10,
      timeoutMs: 5000,
    });
  });
  afterAll(async () => {
    await gateway.close();
    upstream.closeAllConnections();
    await new Promise((resolve) => upstream.close(resolve));
  });

  it.each(['GET', 'OPTIONS', 'POST'])(
    'keeps Origin from serverless-offline on %s, and passes the rest',
    async (method) => {
      const answer = await fetch(`${gateway.url}/v1/sample`, {
        method,
        headers: {
          origin: 'https://elsewhere.example',
          'access-control-request-method': 'POST',
          'x-client-header': 'kept',
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: '{"locations":[]}' } : {}),
      });
      expect(answer.status).toBe(200);
      const received = (await answer.json()) as Record<string, string>;
      expect(received.origin).toBeUndefined();
      expect(received['x-client-header']).toBe('kept');
      expect(received['access-control-request-method']).toBe('POST');
      expect(received['content-type']).toBe(method === 'POST' ? 'application/json' : undefined);
    },
  );
});
