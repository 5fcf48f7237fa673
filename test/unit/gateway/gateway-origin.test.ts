// The local gateway does not pass a request's Origin on to serverless-offline, which would otherwise answer it with
// that origin and credentials allowed, nor Range, which hapi would serve a part of the answer for (see NOT_FORWARDED
// in scripts/gateway/gateway.ts); the upstream here echoes the headers it received.
import type { Gateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];

describe('the local gateway and the Origin header', () => {
  let harness: GatewayHarness;
  let gateway: Gateway;

  beforeAll(async () => {
    harness = await gatewayOver((request, response) => {
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end(JSON.stringify(request.headers));
    }, ROUTES);
    gateway = harness.gateway;
  });
  afterAll(() => harness.close());

  it.each(['GET', 'OPTIONS', 'POST'])(
    'keeps Origin and Range from serverless-offline on %s, and passes the rest',
    async (method) => {
      const answer = await fetch(`${gateway.url}/v1/sample`, {
        method,
        headers: {
          origin: 'https://elsewhere.example',
          range: 'bytes=0-5',
          'if-range': '"etag"',
          'access-control-request-method': 'POST',
          'x-client-header': 'kept',
          ...(method === 'POST' ? { 'content-type': 'application/json' } : {}),
        },
        ...(method === 'POST' ? { body: '{"locations":[]}' } : {}),
      });
      expect(answer.status).toBe(200);
      const received = (await answer.json()) as Record<string, string>;
      expect(received.origin).toBeUndefined();
      expect([received.range, received['if-range']]).toEqual([undefined, undefined]);
      expect(received['x-client-header']).toBe('kept');
      expect(received['access-control-request-method']).toBe('POST');
      expect(received['content-type']).toBe(method === 'POST' ? 'application/json' : undefined);
    },
  );
});
