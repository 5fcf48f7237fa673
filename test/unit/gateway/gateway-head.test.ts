// A HEAD answer or a 304 carries no body, so its Content-Length may only be what a 200 to a GET would have (RFC
// 9110 §8.6), and a 204 may have none: the gateway must not write the empty payload's length (0) as if it were the
// answer's. The upstream here answers as serverless-offline does: an empty body with its own Content-Length of 0.
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];
const BODY = JSON.stringify({ status: 'OK', results: [{ elevation: 456.889 }] });

describe('the local gateway and answers without a body', () => {
  let harness: GatewayHarness;

  beforeAll(async () => {
    harness = await gatewayOver((request, response) => {
      const status = request.headers['if-none-match'] ? 304 : request.method === 'OPTIONS' ? 204 : 200;
      const body = request.method === 'HEAD' || status !== 200 ? '' : BODY;
      response.writeHead(status, {
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

  it.each([
    ['a 304 to If-None-Match', { headers: { 'if-none-match': '"tag"' } }, 304],
    ['a 204 preflight', { method: 'OPTIONS' }, 204],
  ] as const)('answers %s without a Content-Length', async (_, init, status) => {
    const answer = await fetch(`${harness.gateway.url}/v1/sample`, init);
    expect(answer.status).toBe(status);
    expect(answer.headers.get('content-length')).toBeNull();
  });
});
