// What serverless-offline's HTTP server (hapi) refuses before any handler runs comes back in hapi's shape
// (`{"statusCode":400,"error":"Bad Request","message":…}`); the local gateway answers it in the API's
// `{"status","error"}` shape, and refuses a path whose percent-encoding is broken itself. The upstream here answers
// as hapi does (its messages copied from serverless-offline 14.x's answers to the same requests).
import http from 'node:http';
import type { Gateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
  {
    functionName: 'google',
    method: 'GET',
    path: '/maps/api/elevation/json',
    segments: ['maps', 'api', 'elevation', 'json'],
  },
];

function hapi(response: http.ServerResponse, statusCode: number, message: string): void {
  response.writeHead(statusCode, { 'content-type': 'application/json; charset=utf-8' });
  response.end(JSON.stringify({ statusCode, error: http.STATUS_CODES[statusCode], message }));
}

describe('the local gateway and refusals made before a handler runs', () => {
  let harness: GatewayHarness;
  let gateway: Gateway;
  let upstreamRequests = 0;

  beforeAll(async () => {
    harness = await gatewayOver((request, response) => {
      upstreamRequests++;
      const type = request.headers['content-type'] ?? '';
      if (type.startsWith('multipart/form-data') && !type.includes('boundary='))
        return hapi(response, 400, 'Invalid content-type header: multipart missing boundary');
      if (request.url?.includes('hapi500')) return hapi(response, 500, 'An internal server error occurred');
      if (request.url?.includes('offline404')) {
        // serverless-offline's router, for a path its routes do not match (its shape, 14.x)
        response.writeHead(404, { 'content-type': 'application/json; charset=utf-8' });
        return response.end(
          JSON.stringify({
            currentRoute: `get - ${request.url}`,
            error: 'Serverless-offline: route not found.',
            existingRoutes: ['get - /v1/{dataset}'],
            statusCode: 404,
          }),
        );
      }
      if (request.url?.includes('ours')) {
        response.writeHead(400, { 'content-type': 'application/json' });
        return response.end(JSON.stringify({ status: 'INVALID_REQUEST', error: 'ours', statusCode: 1 }));
      }
      response.writeHead(200, { 'content-type': 'application/json' });
      response.end('{"status":"OK"}');
    }, ROUTES);
    gateway = harness.gateway;
  });
  afterAll(() => harness.close());

  it("answers hapi's 400 in the API's shape, with hapi's reason", async () => {
    const answer = await fetch(`${gateway.url}/v1/sample`, {
      method: 'POST',
      headers: { 'content-type': 'multipart/form-data' },
      body: 'garbage',
    });
    expect(answer.status).toBe(400);
    expect(await answer.json()).toEqual({
      status: 'INVALID_REQUEST',
      error: 'The request could not be read: Invalid content-type header: multipart missing boundary.',
    });
  });

  it("answers serverless-offline's route-not-found 404 as its own, without serverless-offline's route table", async () => {
    const answer = await fetch(`${gateway.url}/v1/offline404`);
    expect(answer.status).toBe(404);
    const body = await answer.text();
    expect(JSON.parse(body)).toEqual({
      status: 'INVALID_REQUEST',
      error: 'No route for GET /v1/offline404. Routes: ANY /v1/{dataset}, GET /maps/api/elevation/json.',
    });
    expect(body).not.toMatch(/Serverless-offline|existingRoutes/);
  });

  it("answers hapi's 500 as the API's generic 500, and passes the API's own errors on unchanged", async () => {
    const failed = await fetch(`${gateway.url}/v1/hapi500`);
    expect(failed.status).toBe(500);
    expect(await failed.json()).toEqual({ status: 'SERVER_ERROR', error: 'Internal server error.' });
    const ours = await fetch(`${gateway.url}/v1/ours`);
    expect(ours.status).toBe(400);
    expect(await ours.json()).toEqual({ status: 'INVALID_REQUEST', error: 'ours', statusCode: 1 });
  });

  it.each(['%ZZ', '%', '%4', '%FF', '%C3', '%E2%82'])(
    'refuses a path with the escape %p itself, without invoking',
    async (escape) => {
      const before = upstreamRequests;
      const answer = await fetch(`${gateway.url}/v1/a${escape}?locations=48.7,9.1`);
      expect(answer.status).toBe(400);
      expect(await answer.json()).toEqual({
        status: 'INVALID_REQUEST',
        error: `The URL path has an invalid percent-encoding ('${escape}'): escapes must spell UTF-8, and a '%' in a dataset name is written %25.`,
      });
      expect(upstreamRequests).toBe(before);
      expect((await fetch(`${gateway.url}/v1/a%25b`)).status).toBe(200);
      expect((await fetch(`${gateway.url}/v1/a%C3%A9`)).status).toBe(200); // é
    },
  );

  it('answers an overlong URL 414, suggesting a POST body only where the route takes POST', async () => {
    const locations = '48.7,9.1|'.repeat(2_000); // 18,000 bytes
    const v1 = await fetch(`${gateway.url}/v1/sample?locations=${locations}`);
    expect(v1.status).toBe(414);
    expect(await v1.json()).toEqual({
      status: 'INVALID_REQUEST',
      error: 'The URL is longer than 16384 bytes: send many locations as a POST body.',
    });
    const google = await fetch(`${gateway.url}/maps/api/elevation/json?locations=${locations}`);
    expect(google.status).toBe(414);
    expect(await google.json()).toEqual({
      status: 'INVALID_REQUEST',
      error:
        'The URL is longer than 16384 bytes, the most this route takes: send fewer locations per request, or as an enc: polyline.',
    });
  });
});
