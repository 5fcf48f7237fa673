// A HEAD answer carries no body, so its Content-Length may only be what the GET's would be (RFC 9110 §8.6):
// the gateway must not write the empty HEAD payload's length (0) as if it were the answer's. The upstream here
// answers as serverless-offline does: the handler's empty body for HEAD, with its own Content-Length of 0.
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];
const BODY = JSON.stringify({ status: 'OK', results: [{ elevation: 456.889 }] });

describe('the local gateway and HEAD', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await gatewayOver((request, response) => {
      const body = request.method === 'HEAD' ? '' : BODY;
      response.writeHead(200, {
        'content-type': 'application/json',
        'content-length': Buffer.byteLength(body),
      });
      response.end(body);
    }, ROUTES);
  });
  afterAll(() => harness.close());

  it('answers HEAD with the headers but no Content-Length of 0, and GET with its body’s length', async () => {
    const head = await fetch(`${harness.gateway.url}/v1/sample`, { method: 'HEAD' });
    expect(head.status).toBe(200);
    expect(head.headers.get('content-type')).toBe('application/json');
    expect(head.headers.get('content-length')).toBeNull();
    const get = await fetch(`${harness.gateway.url}/v1/sample`);
    expect(get.headers.get('content-length')).toBe(String(Buffer.byteLength(BODY)));
    expect(await get.text()).toBe(BODY);
  });
});
