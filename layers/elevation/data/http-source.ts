/**
 * HTTP(S) Range requests: the local data-layer server, a CDN, or a public bucket over HTTPS.
 *
 * Built on node:http(s) with keep-alive agents rather than fetch: reading a 2.3 MB block over loopback takes
 * ~7 ms this way against ~15 ms through fetch's web-stream body (measured with `npm run bench`, whose cold-block
 * figure is mostly this transfer plus inflate). The body is copied straight into one buffer sized from
 * Content-Length, with no chunk list to concatenate.
 */
import http from 'node:http';
import https from 'node:https';
import { DataSourceUnavailableError, SourceNotFoundError } from '../errors';
import { TransientSourceError, type RangeReader } from './byte-source';

/** Sockets stay open between invocations (module scope), as the SDK's S3 client keeps its own. */
const agents = {
  'http:': new http.Agent({ keepAlive: true, scheduling: 'lifo' }),
  'https:': new https.Agent({ keepAlive: true, scheduling: 'lifo' }),
};
const MAX_REDIRECTS = 5;

interface RangeResponse {
  status: number;
  location?: string;
  body: Uint8Array;
}

export class HttpSource implements RangeReader {
  constructor(readonly url: string) {}

  async readRange(offset: number, length: number, signal: AbortSignal): Promise<Uint8Array> {
    const range = `bytes=${offset}-${offset + length - 1}`;
    let target = new URL(this.url);
    let response = await get(target, range, signal);
    for (let hops = 0; isRedirect(response) && hops < MAX_REDIRECTS; hops++) {
      target = new URL(response.location ?? '', target);
      response = await get(target, range, signal);
    }
    const { status, body } = response;
    if (status === 206) return body;
    if (status === 416) return new Uint8Array(0);
    // A server that ignores Range sends the whole file: correct, but slow; keep only what was asked.
    if (status === 200) return body.subarray(offset, offset + length);
    if (status === 404) throw new SourceNotFoundError(this.url);
    if (status >= 500 || status === 429) throw new TransientSourceError(`HTTP ${status} from ${this.url}`);
    throw new DataSourceUnavailableError(`HTTP ${status} from ${this.url}`);
  }
}

function isRedirect(response: RangeResponse): boolean {
  return [301, 302, 303, 307, 308].includes(response.status) && Boolean(response.location);
}

/** One GET; resolves with the whole body, rejects on a network error, a cut-short body or the signal. */
function get(url: URL, range: string, signal: AbortSignal): Promise<RangeResponse> {
  const transport = url.protocol === 'https:' ? https : http;
  const agent = agents[url.protocol as keyof typeof agents];
  return new Promise((resolve, reject) => {
    // After an abort the socket's own error ("aborted", ECONNRESET) may come first; the timeout is the cause.
    const fail = (error: unknown) => reject(signal.aborted ? (signal.reason as Error) : error);
    const request = transport.get(url, { agent, headers: { Range: range }, signal }, (response) => {
      const status = response.statusCode ?? 0;
      const location = response.headers.location;
      if (status !== 200 && status !== 206) {
        response.resume(); // drain so the socket can be reused
        response.once('end', () => resolve({ status, location, body: new Uint8Array(0) }));
        response.once('error', fail);
        return;
      }
      readBody(response, Number(response.headers['content-length'] ?? NaN)).then(
        (body) => resolve({ status, body }),
        fail,
      );
    });
    request.once('error', fail);
  });
}

function readBody(response: http.IncomingMessage, declared: number): Promise<Uint8Array> {
  return new Promise((resolve, reject) => {
    const sized = Number.isSafeInteger(declared) && declared >= 0;
    let body = new Uint8Array(sized ? declared : 64 * 1024);
    let received = 0;
    response.on('data', (chunk: Buffer) => {
      if (received + chunk.length > body.length) {
        if (sized) {
          response.destroy();
          return reject(new TransientSourceError('HTTP body longer than its Content-Length'));
        }
        const grown = new Uint8Array(Math.max(body.length * 2, received + chunk.length));
        grown.set(body.subarray(0, received));
        body = grown;
      }
      body.set(chunk, received);
      received += chunk.length;
    });
    response.once('error', reject);
    response.once('end', () => {
      if (sized && received !== declared) {
        reject(new TransientSourceError(`HTTP body cut short: ${received} of ${declared} bytes`));
      } else resolve(body.subarray(0, received));
    });
  });
}
