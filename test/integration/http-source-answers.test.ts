/**
 * How one HTTP range read classifies what a real (loopback) server answers: every answer that could carry wrong
 * bytes is refused or retried, never passed up as data. Verification of the bytes themselves against the asked
 * range is range-answer.ts's (test/unit/elevation/range-answer.test.ts); whole datasets over flaky servers are
 * in range-reads.test.ts.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import {
  DataSourceAccessDeniedError,
  DataSourceUnavailableError,
  SourceNotFoundError,
} from '../../layers/elevation';
import { TransientSourceError } from '../../layers/elevation/data/byte-source';
import { HttpSource, WHOLE_OBJECT_CAP_BYTES } from '../../layers/elevation/data/http-source';

const OBJECT = Buffer.from(Array.from({ length: 1000 }, (_, i) => i % 251));
type Behaviour = (request: http.IncomingMessage, response: http.ServerResponse) => void;
const behaviours: Record<string, Behaviour> = {
  '/no-content-range': (_q, r) => r.writeHead(206, { 'content-length': '10' }).end(OBJECT.subarray(0, 10)),
  '/wrong-length': (_q, r) =>
    r
      .writeHead(206, { 'content-range': 'bytes 0-19/1000', 'content-length': '10' })
      .end(OBJECT.subarray(0, 10)),
  '/unsatisfiable': (_q, r) => r.writeHead(416, { 'content-range': 'bytes */1000' }).end(),
  '/teapot': (_q, r) => r.writeHead(418).end('short and stout'),
  '/busy': (_q, r) => r.writeHead(429).end(),
  '/gone': (_q, r) => r.writeHead(404).end(),
  '/denied': (_q, r) => r.writeHead(401).end(),
  '/whole-chunked': (_q, r) => {
    r.writeHead(200); // no Content-Length: chunked
    r.write(OBJECT.subarray(0, 500));
    r.end(OBJECT.subarray(500));
  },
  '/huge-chunked': (_q, r) => {
    r.writeHead(200);
    const chunk = Buffer.alloc(1024 * 1024);
    let sent = 0;
    const more = (): void => {
      while (sent <= WHOLE_OBJECT_CAP_BYTES && r.write(chunk)) sent += chunk.length;
      if (sent <= WHOLE_OBJECT_CAP_BYTES) r.once('drain', more);
      else r.end();
    };
    r.on('error', () => undefined);
    more();
  },
  '/huge-declared': (_q, r) => {
    r.on('error', () => undefined);
    r.writeHead(200, { 'content-length': String(WHOLE_OBJECT_CAP_BYTES + 1) });
    r.write(Buffer.alloc(1024));
  },
  '/longer-than-declared': (q, r) => {
    r.on('error', () => undefined);
    q.socket.write(
      'HTTP/1.1 206 Partial Content\r\ncontent-range: bytes 0-9/1000\r\ncontent-length: 10\r\n\r\n',
    );
    q.socket.end(OBJECT.subarray(0, 20));
  },
  '/loop': (_q, r) => r.writeHead(302, { location: '/loop' }).end(),
  '/bad-content-range': (_q, r) =>
    r
      .writeHead(206, { 'content-range': 'bytes 9-0/1000', 'content-length': '10' })
      .end(OBJECT.subarray(0, 10)),
  '/forbidden': (_q, r) => r.writeHead(403).end(),
  '/server-error': (_q, r) => r.writeHead(500).end(),
  '/versioned': (q, r) => {
    const [, from, to] = /bytes=(\d+)-(\d+)/.exec(q.headers.range ?? '') ?? [];
    r.writeHead(206, {
      'content-range': `bytes ${from}-${to}/1000`,
      'content-length': String(Number(to) - Number(from) + 1),
      etag: '"abc"',
      'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT',
    }).end(OBJECT.subarray(Number(from), Number(to) + 1));
  },
  '/at-cap-declared': (_q, r) => {
    const object = Buffer.alloc(WHOLE_OBJECT_CAP_BYTES, 7);
    r.writeHead(200, { 'content-length': String(object.length) }).end(object);
  },
  '/redirect-without-location': (_q, r) => r.writeHead(302).end(),
  // A 206 far longer than the asked range, declared or streamed: refused, not read whole and then compared.
  '/long-206-declared': (_q, r) => {
    const body = Buffer.alloc(8 * 1024 * 1024, 7);
    r.writeHead(206, {
      'content-range': `bytes 0-${body.length - 1}/${body.length}`,
      'content-length': String(body.length),
    }).end(body);
  },
  '/long-206-chunked': (_q, r) => {
    r.writeHead(206, { 'content-range': 'bytes 0-9/1000' });
    r.write(Buffer.alloc(64 * 1024, 7));
    r.end(Buffer.alloc(64 * 1024, 7));
  },
};

let server: http.Server;
let base: string;
beforeAll(async () => {
  server = http.createServer((request, response) => {
    const { pathname } = new URL(request.url ?? '/', 'http://x');
    // /hops/<n>: n redirects (relative, each to /hops/<n - 1>), then the asked range.
    const hops = /^\/hops\/(\d+)$/.exec(pathname);
    if (hops && hops[1] !== '0') {
      response.writeHead(307, { location: `${Number(hops[1]) - 1}` }).end();
      return;
    }
    const behaviour = hops ? behaviours['/versioned'] : behaviours[pathname];
    if (behaviour) behaviour(request, response);
    else response.writeHead(500).end();
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(async () => {
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

const read = (where: string, offset = 0, length = 10) =>
  new HttpSource(`${base}${where}`).readRange(offset, length, new AbortController().signal);

describe('an HTTP range read', () => {
  it.each([
    ['/no-content-range', /without a valid Content-Range/],
    ['/wrong-length', /Content-Range bytes 0-19\/1000 but 10 bytes/],
    ['/busy', /HTTP 429/],
    ['/long-206-declared', /HTTP 206 from .*: 8388608 bytes for a 10-byte range/],
    ['/long-206-chunked', /HTTP 206 body without Content-Length longer than the 10-byte range/],
  ])('retries %s (a transient answer, never data)', async (where, message) => {
    const answer = read(where);
    await expect(answer).rejects.toBeInstanceOf(TransientSourceError);
    await expect(answer).rejects.toThrow(message);
  });

  it('answers 416 as past the end, with the size the server states', async () => {
    await expect(read('/unsatisfiable', 2000)).resolves.toMatchObject({
      bytes: new Uint8Array(0),
      total: 1000,
    });
  });

  it.each([
    ['/gone', SourceNotFoundError],
    ['/denied', DataSourceAccessDeniedError],
    ['/teapot', DataSourceUnavailableError],
  ])('classifies %s as %p', async (where, type) => {
    await expect(read(where)).rejects.toBeInstanceOf(type);
  });

  it('keeps the asked slice of a whole object sent chunked, without Content-Length', async () => {
    const answer = await read('/whole-chunked', 100, 50);
    expect(Buffer.from(answer.bytes)).toEqual(OBJECT.subarray(100, 150));
    expect(answer.total).toBe(1000);
  });

  it('refuses a whole object over the cap, declared or streamed without a length', async () => {
    await expect(read('/huge-declared')).rejects.toThrow(/ignores Range and answers the whole object/);
    await expect(read('/huge-chunked')).rejects.toThrow(/without Content-Length over the size cap/);
  });

  it('a body longer than its Content-Length is an error (Node refuses it), never data', async () => {
    await expect(read('/longer-than-declared')).rejects.toThrow(/Parse Error/);
  });

  it('follows up to five redirects, relative ones too', async () => {
    const answer = await read('/hops/5', 20, 10);
    expect(Buffer.from(answer.bytes)).toEqual(OBJECT.subarray(20, 30));
    await expect(read('/hops/6')).rejects.toThrow(
      new DataSourceUnavailableError(`HTTP 307 from ${base}/hops/6`),
    );
  });

  it('says what was wrong with a Content-Range it cannot use', async () => {
    await expect(read('/bad-content-range')).rejects.toThrow(
      new TransientSourceError(
        `HTTP 206 from ${base}/bad-content-range without a valid Content-Range (bytes 9-0/1000)`,
      ),
    );
  });

  it.each([
    ['/forbidden', DataSourceAccessDeniedError, 'HTTP 403'],
    ['/server-error', TransientSourceError, 'HTTP 500'],
  ])('answers %s as %p, saying the status', async (where, type, status) => {
    const answer = read(where);
    await expect(answer).rejects.toBeInstanceOf(type);
    await expect(answer).rejects.toThrow(`${status} from ${base}${where}`);
  });

  it('keeps the ETag and Last-Modified that pin the object version', async () => {
    await expect(read('/versioned', 5, 10)).resolves.toEqual({
      bytes: new Uint8Array(OBJECT.subarray(5, 15)),
      start: 5,
      total: 1000,
      identity: { etag: '"abc"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' },
    });
  });

  it('reads a whole object of exactly the cap, and names the size of one over it', async () => {
    const answer = await read('/at-cap-declared', 1000, 4);
    expect([...answer.bytes]).toEqual([7, 7, 7, 7]);
    await expect(read('/huge-declared')).rejects.toThrow(
      `${base}/huge-declared ignores Range and answers the whole object (${WHOLE_OBJECT_CAP_BYTES + 1} bytes, over the ${WHOLE_OBJECT_CAP_BYTES}-byte cap)`,
    );
  });

  it('stops following redirects after five hops, and does not follow one without a Location', async () => {
    await expect(read('/loop')).rejects.toThrow(/HTTP 302/);
    await expect(read('/redirect-without-location')).rejects.toThrow(/HTTP 302/);
  });
});
