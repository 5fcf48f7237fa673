/**
 * A fault-injecting HTTP proxy between the API and its data layer. Each mode breaks answers the way a real
 * faulty origin, proxy or CDN does; `ok` passes everything through unchanged.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export type Fault =
  | 'ok'
  | 'latency' // answers only after `latencyMs` (beyond the API's read timeout)
  | 'status-500'
  | 'status-503'
  | 'reset' // headers and half the body, then a connection reset
  | 'truncated' // headers with the full Content-Length, half the body, then a clean close
  | 'short-206' // a self-consistent 206 for the first half of the asked range
  | 'wrong-range' // the asked length, but a Content-Range for other bytes
  | 'whole-object' // Range ignored: 200 with every byte of the file
  | 'changed'; // the object's ETag and Last-Modified change (as after a re-upload)

export interface FaultProxy {
  url: string;
  fault: Fault;
  latencyMs: number;
  requests: number;
  close(): Promise<void>;
}

interface Upstream {
  status: number;
  headers: http.IncomingHttpHeaders;
  body: Buffer;
}

export async function startFaultProxy(upstreamUrl: string): Promise<FaultProxy> {
  const upstream = new URL(upstreamUrl);
  const agent = new http.Agent({ keepAlive: true });
  const state = { fault: 'ok' as Fault, latencyMs: 1500, requests: 0 };
  const server = http.createServer((request, response) => {
    state.requests++;
    const fault = state.fault;
    if (fault === 'status-500' || fault === 'status-503') {
      response.writeHead(fault === 'status-500' ? 500 : 503).end('injected failure');
      return;
    }
    const headers = { ...request.headers, host: upstream.host };
    if (fault === 'whole-object') delete headers.range;
    fetchUpstream(agent, upstream, request.url ?? '/', headers)
      .then(async (answer) => {
        if (fault === 'latency') await delay(state.latencyMs);
        if (response.destroyed) return;
        applyFault(fault, answer, response);
      })
      .catch(() => response.destroy());
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const proxy: FaultProxy = {
    url: `http://127.0.0.1:${port}/`,
    get fault() {
      return state.fault;
    },
    set fault(value: Fault) {
      state.fault = value;
    },
    get latencyMs() {
      return state.latencyMs;
    },
    set latencyMs(value: number) {
      state.latencyMs = value;
    },
    get requests() {
      return state.requests;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
        agent.destroy();
      }),
  };
  return proxy;
}

function applyFault(fault: Fault, answer: Upstream, response: http.ServerResponse): void {
  const headers: http.OutgoingHttpHeaders = { ...answer.headers };
  delete headers['transfer-encoding'];
  delete headers.connection;
  const { body } = answer;
  const half = body.subarray(0, Math.floor(body.length / 2));
  const range = /^bytes (\d+)-(\d+)\/(\d+)$/.exec(String(answer.headers['content-range'] ?? ''));
  switch (fault) {
    case 'reset':
      response.writeHead(answer.status, headers);
      response.write(half);
      setTimeout(() => response.socket?.resetAndDestroy(), 5);
      return;
    case 'truncated':
      response.writeHead(answer.status, headers);
      response.write(half);
      setTimeout(() => response.socket?.end(), 5);
      return;
    case 'short-206':
      if (answer.status === 206 && range && half.length > 0) {
        const start = Number(range[1]);
        headers['content-range'] = `bytes ${start}-${start + half.length - 1}/${range[3]}`;
        headers['content-length'] = String(half.length);
        response.writeHead(206, headers).end(half);
        return;
      }
      break;
    case 'wrong-range':
      if (answer.status === 206 && range) {
        const total = Number(range[3]);
        const shift = Number(range[1]) > 0 ? -1 : 1;
        const start = Math.max(0, Number(range[1]) + shift);
        const end = Math.min(total - 1, start + body.length - 1);
        headers['content-range'] = `bytes ${start}-${end}/${total}`;
        response.writeHead(206, headers).end(body.subarray(0, end - start + 1));
        return;
      }
      break;
    case 'changed':
      headers.etag = '"replaced-object"';
      headers['last-modified'] = new Date(0).toUTCString();
      break;
    default:
      break;
  }
  response.writeHead(answer.status, headers).end(body);
}

function fetchUpstream(
  agent: http.Agent,
  upstream: URL,
  path: string,
  headers: http.IncomingHttpHeaders,
): Promise<Upstream> {
  return new Promise((resolve, reject) => {
    const request = http.get(
      { host: upstream.hostname, port: upstream.port, path, headers, agent },
      (incoming) => {
        const chunks: Buffer[] = [];
        incoming.on('data', (chunk: Buffer) => chunks.push(chunk));
        incoming.once('end', () =>
          resolve({
            status: incoming.statusCode ?? 502,
            headers: incoming.headers,
            body: Buffer.concat(chunks),
          }),
        );
        incoming.once('error', reject);
      },
    );
    request.once('error', reject);
  });
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
