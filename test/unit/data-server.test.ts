import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../scripts/data-server';
import { decideRange } from '../../scripts/data-server/byte-range';

// Real HTTP against the real server on an ephemeral port: the data layer is what the handlers read
// DEM blocks through, so its Range behaviour is tested over a socket, byte for byte.
const FILE_SIZE = 10_000;
const content = Buffer.from(Array.from({ length: FILE_SIZE }, (_, i) => i % 251));

let workDir: string;
let server: DataServer;

beforeAll(async () => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'data-server-test-'));
  const root = path.join(workDir, 'root');
  fs.mkdirSync(path.join(root, 'tiles'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tiles', 'N48E009.tif'), content);
  fs.writeFileSync(path.join(root, 'empty.bin'), Buffer.alloc(0));
  fs.writeFileSync(path.join(root, 'config.yaml'), 'datasets: []\n');
  fs.writeFileSync(path.join(workDir, 'secret.txt'), 'outside the data folder');
  server = await startDataServer({ root, port: 0 });
});

afterAll(async () => {
  await server.close();
  fs.rmSync(workDir, { recursive: true, force: true });
});

const tileUrl = (): string => `${server.url}tiles/N48E009.tif`;

async function getRange(range: string, url = tileUrl()): Promise<Response> {
  return fetch(url, { headers: { Range: range } });
}

/** Sends a request path verbatim (fetch would normalise `..` away before it reaches the server). */
function rawGet(rawPath: string): Promise<number> {
  return new Promise((resolve, reject) => {
    const request = http.request({ host: '127.0.0.1', port: server.port, path: rawPath }, (response) => {
      response.resume();
      resolve(response.statusCode ?? 0);
    });
    request.on('error', reject);
    request.end();
  });
}

describe('data layer server', () => {
  it('listens on 127.0.0.1 and reports its URL with a trailing slash', () => {
    expect(server.url).toMatch(/^http:\/\/127\.0\.0\.1:\d+\/$/);
  });

  it('answers a request without Range with 200 and the whole file', async () => {
    const response = await fetch(tileUrl());
    expect(response.status).toBe(200);
    expect(response.headers.get('accept-ranges')).toBe('bytes');
    expect(response.headers.get('content-length')).toBe(String(FILE_SIZE));
    expect(response.headers.get('content-type')).toBe('image/tiff');
    expect(response.headers.get('etag')).toMatch(/^".+"$/);
    expect(new Date(response.headers.get('last-modified') ?? '').getTime()).not.toBeNaN();
    expect(Buffer.from(await response.arrayBuffer()).equals(content)).toBe(true);
  });

  it('gives a file copied over another of the same size, its modification time kept, another ETag', async () => {
    fs.mkdirSync(path.join(workDir, 'root', 'replaced'), { recursive: true });
    const file = path.join(workDir, 'root', 'replaced', 'N48E010.tif');
    const then = new Date('2026-01-01T00:00:00Z');
    fs.writeFileSync(file, content);
    fs.utimesSync(file, then, then);
    const url = `${server.url}replaced/N48E010.tif`;
    const before = (await fetch(url, { method: 'HEAD' })).headers.get('etag');
    await new Promise((resolve) => setTimeout(resolve, 20));
    fs.writeFileSync(file, Buffer.from(content).reverse()); // cp -p: same size, the time set back
    fs.utimesSync(file, then, then);
    const after = await fetch(url, { method: 'HEAD' });
    expect(after.headers.get('last-modified')).toBe(then.toUTCString());
    expect(after.headers.get('etag')).not.toBe(before);
  });

  it('answers bytes=a-b with 206, Content-Range and exactly those bytes', async () => {
    const response = await getRange('bytes=100-199');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 100-199/${FILE_SIZE}`);
    expect(response.headers.get('content-length')).toBe('100');
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(100, 200))).toBe(true);
  });

  it('clamps a range that runs past the end of the file', async () => {
    const response = await getRange('bytes=9990-20000');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 9990-9999/${FILE_SIZE}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(9990))).toBe(true);
  });

  it('answers an open range bytes=a- with the rest of the file', async () => {
    const response = await getRange('bytes=9000-');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 9000-9999/${FILE_SIZE}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(9000))).toBe(true);
  });

  it('answers a suffix range bytes=-n with the last n bytes', async () => {
    const response = await getRange('bytes=-16');
    expect(response.status).toBe(206);
    expect(response.headers.get('content-range')).toBe(`bytes 9984-9999/${FILE_SIZE}`);
    expect(Buffer.from(await response.arrayBuffer()).equals(content.subarray(FILE_SIZE - 16))).toBe(true);
  });

  it('answers 416 with bytes */size when the range starts beyond the end', async () => {
    const response = await getRange(`bytes=${FILE_SIZE}-`);
    expect(response.status).toBe(416);
    expect(response.headers.get('content-range')).toBe(`bytes */${FILE_SIZE}`);
  });

  it('answers 416 for any range of an empty file', async () => {
    const response = await getRange('bytes=0-10', `${server.url}empty.bin`);
    expect(response.status).toBe(416);
  });

  it('ignores a multi-range header and answers the whole file', async () => {
    const response = await getRange('bytes=0-1,5-6');
    expect(response.status).toBe(200);
    expect(response.headers.get('content-length')).toBe(String(FILE_SIZE));
    await response.arrayBuffer();
  });

  it('answers HEAD with the headers of GET and no body', async () => {
    const response = await fetch(tileUrl(), { method: 'HEAD', headers: { Range: 'bytes=0-9' } });
    expect(response.status).toBe(206);
    expect(response.headers.get('content-length')).toBe('10');
    expect((await response.arrayBuffer()).byteLength).toBe(0);
  });

  it('serves the whole file when If-Range names another version', async () => {
    const response = await fetch(tileUrl(), { headers: { Range: 'bytes=0-9', 'If-Range': '"stale"' } });
    expect(response.status).toBe(200);
    await response.arrayBuffer();
  });

  it('answers 404 for a missing file and for a folder', async () => {
    expect((await fetch(`${server.url}tiles/N00E000.tif`)).status).toBe(404);
    expect((await fetch(`${server.url}tiles/`)).status).toBe(404);
    expect((await fetch(`${server.url}tiles/N48E009.tif/`)).status).toBe(404); // a file is no folder
  });

  it('lists a folder recursively at /_list/<folder>/ and answers 404 for a missing one', async () => {
    const listing = await fetch(`${server.url}_list/tiles/`);
    expect(listing.status).toBe(200);
    expect(await listing.json()).toEqual({ files: ['N48E009.tif'] });
    const root = await fetch(`${server.url}_list/`);
    expect(((await root.json()) as { files: string[] }).files).toEqual(
      expect.arrayContaining(['config.yaml', 'empty.bin', 'tiles/N48E009.tif']),
    );
    const missing = await fetch(`${server.url}_list/nowhere/`);
    expect(missing.status).toBe(404);
    expect(missing.headers.get('x-listing')).toBe('no-such-folder');
    expect((await fetch(`${server.url}_list/../`)).status).toBe(404);
  });

  it('answers 400, not 403, to a path that is not percent-encoded UTF-8 (a lone %, %zz, %ff)', async () => {
    for (const target of ['/100%.tif', '/x%zz.tif', '/x%ff.tif']) expect(await rawGet(target)).toBe(400);
  });

  it('serves a file whose name holds a backslash on POSIX, where it is an ordinary letter', async () => {
    const name = 'back\\slash.tif';
    fs.writeFileSync(path.join(workDir, 'root', name), content.subarray(0, 10));
    try {
      const expected = path.sep === '/' ? 200 : 403;
      expect(await rawGet(`/${encodeURIComponent(name)}`)).toBe(expected);
    } finally {
      fs.rmSync(path.join(workDir, 'root', name));
    }
  });

  it('lists a folder holding a subfolder whose name is not UTF-8: the rest listed, no 500 naming paths', async () => {
    const folder = path.join(workDir, 'root', 'latin1');
    fs.mkdirSync(folder);
    // "Archiv älter" in Latin-1: readdir reads it as U+FFFD, a name that cannot be opened again.
    const odd = Buffer.concat([Buffer.from(`${folder}/Archiv `), Buffer.from([0xe4]), Buffer.from('lter')]);
    fs.mkdirSync(odd);
    fs.writeFileSync(Buffer.concat([odd, Buffer.from('/notes.txt')]), 'x');
    fs.writeFileSync(
      Buffer.concat([Buffer.from(`${folder}/H`), Buffer.from([0xf6]), Buffer.from('he.tif')]),
      'x',
    );
    fs.writeFileSync(path.join(folder, 'N48E009.tif'), content.subarray(0, 10));
    try {
      const listing = await fetch(`${server.url}_list/latin1/`);
      const body = await listing.text();
      expect(body).not.toContain(workDir);
      expect(listing.status).toBe(200);
      // The Latin-1 file is listed as read (a tile so named then fails to read, naming itself, not null);
      // the Latin-1 folder cannot be descended and is passed over.
      expect(JSON.parse(body)).toEqual({ files: ['H\uFFFDhe.tif', 'N48E009.tif'] });
    } finally {
      fs.rmSync(folder, { recursive: true, force: true });
    }
  });

  it('answers 405 to methods other than GET and HEAD', async () => {
    const response = await fetch(tileUrl(), { method: 'PUT', body: 'x' });
    expect(response.status).toBe(405);
    expect(response.headers.get('allow')).toBe('GET, HEAD');
  });

  it.each([
    '/../secret.txt',
    '/tiles/../../secret.txt',
    '/%2e%2e/secret.txt',
    '/tiles%2f..%2f..%2fsecret.txt',
  ])('refuses the path traversal %s', async (rawPath) => {
    expect([403, 404]).toContain(await rawGet(rawPath));
  });

  it('reads a target starting with // as a path, not a host, and answers 400 to one that is no path', async () => {
    expect(await rawGet('//tiles/N48E009.tif')).toBe(200);
    expect(await rawGet('//secret.txt')).toBe(404); // the data folder's, which has none
    expect(await rawGet(`http://127.0.0.1:${server.port}/tiles/N48E009.tif`)).toBe(200); // absolute form
    for (const target of ['//[', '//a:b@c:99999/x']) expect(await rawGet(target)).toBe(404); // paths (were 500)
    for (const target of ['*', 'http://[x/a.tif', 'tiles/N48E009.tif'])
      expect(await rawGet(target)).toBe(400);
  });

  it('serves many concurrent range requests, each with its own bytes', async () => {
    const starts = Array.from({ length: 200 }, (_, i) => (i * 37) % (FILE_SIZE - 64));
    const bodies = await Promise.all(
      starts.map(async (start) => {
        const response = await getRange(`bytes=${start}-${start + 63}`);
        return Buffer.from(await response.arrayBuffer());
      }),
    );
    bodies.forEach((body, i) => expect(body.equals(content.subarray(starts[i], starts[i]! + 64))).toBe(true));
  });

  it('counts requests, range requests and bytes at /_stats', async () => {
    const before = server.stats();
    await (await getRange('bytes=0-99')).arrayBuffer();
    await (await getRange('bytes=100-149')).arrayBuffer();
    const response = await fetch(`${server.url}_stats`);
    expect(response.headers.get('content-type')).toBe('application/json');
    const after = (await response.json()) as ReturnType<DataServer['stats']>;
    expect(after.rangeRequests - before.rangeRequests).toBe(2);
    expect(after.requests - before.requests).toBe(2);
    expect(after.bytesSent - before.bytesSent).toBe(150);
    const file = after.files['/tiles/N48E009.tif'];
    expect(file?.rangeRequests).toBe((before.files['/tiles/N48E009.tif']?.rangeRequests ?? 0) + 2);
  });

  it('counts by the file served, not the path asked: the map stays bounded by the data folder', async () => {
    const before = server.stats();
    for (const asked of [
      'tiles//N48E009.tif',
      'tiles///N48E009.tif',
      'tiles/N48E009%2Etif',
      '/tiles/N48E009.tif',
    ])
      await (await fetch(`${server.url}${asked}`, { headers: { range: 'bytes=0-9' } })).arrayBuffer();
    const after = server.stats();
    expect(Object.keys(after.files).length).toBe(Object.keys(before.files).length || 1);
    expect(after.files['/tiles/N48E009.tif']?.rangeRequests).toBe(
      (before.files['/tiles/N48E009.tif']?.rangeRequests ?? 0) + 4,
    );
  });

  it('logs one line per request when given a logger', async () => {
    const lines: string[] = [];
    const logged = await startDataServer({
      root: path.join(workDir, 'root'),
      port: 0,
      log: (l) => lines.push(l),
    });
    try {
      await (await fetch(`${logged.url}config.yaml`, { headers: { Range: 'bytes=0-3' } })).arrayBuffer();
    } finally {
      await logged.close();
    }
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^GET \/config\.yaml 206 bytes=0-3 \d+\.\dms$/);
  });

  it('refuses to start on a root that is not a folder', async () => {
    await expect(startDataServer({ root: path.join(workDir, 'secret.txt') })).rejects.toThrow(/not a folder/);
  });
});

describe('decideRange', () => {
  it.each([
    [undefined, { kind: 'full' }],
    ['bytes=0-0', { kind: 'partial', range: { start: 0, end: 0 } }],
    ['bytes=-200', { kind: 'partial', range: { start: 0, end: 99 } }],
    ['bytes=-0', { kind: 'unsatisfiable' }],
    ['bytes=5-4', { kind: 'full' }],
    ['bytes=100-', { kind: 'unsatisfiable' }],
    ['items=0-5', { kind: 'full' }],
    ['bytes=-', { kind: 'full' }],
  ])('decides %s on a 100-byte file as %j', (header, expected) => {
    expect(decideRange(header, 100)).toEqual(expected);
  });
});
