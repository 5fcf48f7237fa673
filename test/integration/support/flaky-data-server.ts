/**
 * A tiny range-capable HTTP server over one folder whose behaviour a test switches at will: answer normally,
 * answer 503 for the next N requests, ignore Range, answer 403, or never answer (a hung data layer). Counts requests.
 */
import { readFile } from 'node:fs/promises';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

/**
 * ok: honours Range; whole-file: ignores Range (200 with every byte); hang: never answers; stall-body: sends
 * the headers and a few bytes, then nothing; forbidden: 403; redirect: 307 to the same file under /moved/
 * (served normally there), as a CDN or a bucket's regional endpoint does.
 */
export type FlakyMode = 'ok' | 'whole-file' | 'hang' | 'stall-body' | 'forbidden' | 'redirect';

export interface FlakyServer {
  url: string;
  mode: FlakyMode;
  /** The next this-many requests get 503, then `mode` applies again. */
  failNext: number;
  /** The next this-many requests get their headers and a few bytes, then the connection is reset. */
  resetNext: number;
  requests: number;
  failures: number;
  close(): Promise<void>;
}

export async function startFlakyServer(root: string): Promise<FlakyServer> {
  const state = { mode: 'ok' as FlakyMode, failNext: 0, resetNext: 0, requests: 0, failures: 0 };
  const server = http.createServer((request, response) => {
    state.requests++;
    // A cut-short or stalled body declares the asked range's length (the client refuses a longer one at once).
    const [, first, last] = /bytes=(\d+)-(\d+)/.exec(request.headers.range ?? '') ?? [];
    const asked = first === undefined ? '4096' : String(Number(last) - Number(first) + 1);
    if (state.failNext > 0) {
      state.failNext--;
      state.failures++;
      response.writeHead(503).end('try again');
      return;
    }
    if (state.resetNext > 0) {
      state.resetNext--;
      state.failures++;
      response.writeHead(206, { 'content-length': asked }).write(Buffer.alloc(16));
      setTimeout(() => request.socket.destroy(), 10);
      return;
    }
    if (state.mode === 'hang') return; // never answers; the client's timeout must fire
    if (state.mode === 'stall-body') {
      response.writeHead(206, { 'content-length': asked }).write(Buffer.alloc(16));
      return;
    }
    if (state.mode === 'forbidden') {
      response.writeHead(403).end('forbidden');
      return;
    }
    const { pathname } = new URL(request.url ?? '/', 'http://x');
    const moved = pathname.startsWith('/moved/');
    if (state.mode === 'redirect' && !moved) {
      response.writeHead(307, { location: `/moved${pathname}` }).end();
      return;
    }
    const file = path.join(root, decodeURIComponent(moved ? pathname.slice('/moved'.length) : pathname));
    readFile(file).then(
      (bytes) => {
        const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
        if (!match || state.mode === 'whole-file') {
          response.writeHead(200).end(bytes);
          return;
        }
        const start = Number(match[1]);
        const end = Math.min(Number(match[2]), bytes.length - 1);
        response
          .writeHead(206, { 'content-range': `bytes ${start}-${end}/${bytes.length}` })
          .end(bytes.subarray(start, end + 1));
      },
      () => response.writeHead(404).end('not found'),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  const flaky: FlakyServer = {
    url: `http://127.0.0.1:${port}/`,
    get mode() {
      return state.mode;
    },
    set mode(mode: FlakyMode) {
      state.mode = mode;
    },
    get failNext() {
      return state.failNext;
    },
    set failNext(count: number) {
      state.failNext = count;
    },
    get resetNext() {
      return state.resetNext;
    },
    set resetNext(count: number) {
      state.resetNext = count;
    },
    get requests() {
      return state.requests;
    },
    get failures() {
      return state.failures;
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
  return flaky;
}
