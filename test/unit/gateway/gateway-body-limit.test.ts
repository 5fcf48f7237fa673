/** The local gateway's body limit: Lambda's 6 MiB, counted as the body reaches Lambda (binary: base64). */
import {
  bodyLimit,
  MAX_BINARY_BODY_BYTES,
  MAX_BODY_BYTES,
  type Gateway,
} from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'file', method: 'POST', path: '/v1/{dataset}/file', segments: ['v1', '{dataset}', 'file'] },
];

let harness: GatewayHarness;
let gateway: Gateway;
beforeAll(async () => {
  // The upstream answers with the number of body bytes it received.
  harness = await gatewayOver(
    (request, response) => {
      let size = 0;
      request.on('data', (chunk: Buffer) => (size += chunk.length));
      request.on('end', () => {
        response.writeHead(200, { 'content-type': 'application/json' });
        response.end(JSON.stringify({ size }));
      });
    },
    ROUTES,
    { timeoutMs: 10_000 },
  );
  gateway = harness.gateway;
});
afterAll(() => harness.close());

const post = (size: number, contentType: string) =>
  fetch(`${gateway.url}/v1/sample/file`, {
    method: 'POST',
    headers: { 'content-type': contentType },
    body: Buffer.alloc(size, 0x61),
  });

it('holds binary bodies (octet-stream, multipart) to what fits Lambda once base64-encoded', () => {
  expect(MAX_BINARY_BODY_BYTES).toBe(4_718_592);
  expect(Math.ceil(MAX_BINARY_BODY_BYTES / 3) * 4).toBeLessThanOrEqual(MAX_BODY_BYTES);
  expect(bodyLimit('application/octet-stream')).toBe(MAX_BINARY_BODY_BYTES);
  expect(bodyLimit('multipart/form-data; boundary=x')).toBe(MAX_BINARY_BODY_BYTES);
  expect(bodyLimit('Application/Octet-Stream')).toBe(MAX_BINARY_BODY_BYTES);
  expect(bodyLimit('application/gpx+xml')).toBe(MAX_BODY_BYTES);
  expect(bodyLimit(undefined)).toBe(MAX_BODY_BYTES);
});

it('passes a binary body of exactly the limit and refuses one byte more with a 413 saying why', async () => {
  const fits = await post(MAX_BINARY_BODY_BYTES, 'application/octet-stream');
  expect(fits.status).toBe(200);
  expect(await fits.json()).toEqual({ size: MAX_BINARY_BODY_BYTES });
  const over = await post(MAX_BINARY_BODY_BYTES + 1, 'application/octet-stream');
  expect(over.status).toBe(413);
  expect(await over.json()).toEqual({
    status: 'INVALID_REQUEST',
    error:
      `The request body is larger than ${MAX_BINARY_BODY_BYTES} bytes: a binary body reaches Lambda base64-encoded, ` +
      `and would be over its ${MAX_BODY_BYTES}-byte request limit. Send a smaller or gzip-compressed file.`,
  });
});

it('passes a text body of that size (it reaches Lambda as it is) up to Lambda’s limit', async () => {
  const text = await post(MAX_BINARY_BODY_BYTES + 1, 'application/gpx+xml');
  expect(text.status).toBe(200);
  const over = await post(MAX_BODY_BYTES + 1, 'application/gpx+xml');
  expect(over.status).toBe(413);
  expect(((await over.json()) as { error: string }).error).toBe(
    `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
  );
});
