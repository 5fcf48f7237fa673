/**
 * A real HTTP server on 127.0.0.1 (port 0) in front of one handler, translating each request into an API
 * Gateway HTTP API (v2) event the way API Gateway does (repeated query parameters joined by commas, binary
 * bodies base64-encoded), so HTTP clients that cannot be pointed at a function can be tested in-process.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { httpEvent, lambdaContext, type Handler } from './api-gateway';

export interface LambdaHttpServer {
  url: string;
  close(): Promise<void>;
}

const TEXT_TYPES = /^(text\/|application\/(json|xml|[\w.+-]+\+(xml|json)|x-www-form-urlencoded))/;

export async function startLambdaHttpServer(
  handler: Handler,
  pathParameters: (path: string) => Record<string, string> = () => ({}),
): Promise<LambdaHttpServer> {
  const server = http.createServer((request, response) => {
    const chunks: Buffer[] = [];
    request.on('data', (chunk: Buffer) => chunks.push(chunk));
    request.on('end', () => {
      const url = new URL(request.url ?? '/', 'http://127.0.0.1');
      const query: Record<string, string> = {};
      for (const key of new Set(url.searchParams.keys())) query[key] = url.searchParams.getAll(key).join(',');
      const raw = Buffer.concat(chunks);
      const contentType = String(request.headers['content-type'] ?? '');
      const binary = raw.length > 0 && !TEXT_TYPES.test(contentType);
      const headers = Object.fromEntries(
        Object.entries(request.headers).map(([k, v]) => [k, Array.isArray(v) ? v.join(',') : String(v)]),
      );
      const event = httpEvent({
        method: request.method,
        path: url.pathname,
        query: Object.keys(query).length > 0 ? query : undefined,
        pathParameters: pathParameters(url.pathname),
        headers,
        body: raw.length === 0 ? undefined : raw.toString(binary ? 'base64' : 'utf8'),
        isBase64Encoded: binary,
      });
      handler(event, lambdaContext()).then(
        (result) => {
          const body = Buffer.from(String(result.body ?? ''), result.isBase64Encoded ? 'base64' : 'utf8');
          response.writeHead(result.statusCode ?? 200, (result.headers ?? {}) as http.OutgoingHttpHeaders);
          response.end(body);
        },
        (error: unknown) => response.writeHead(502).end(String(error)),
      );
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections(); // clients with keep-alive agents would hold close() open
      }),
  };
}
