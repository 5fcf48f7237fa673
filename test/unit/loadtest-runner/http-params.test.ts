/**
 * k6/http's request params and response fields as k6 has them: the VU cookie jar (stored from responses,
 * sent back, emptied each iteration unless noCookiesReset), request-scoped `cookies`, `http.cookieJar()`
 * and `new http.CookieJar()`, `res.cookies`; credentials in the URL as Basic auth; `compression`;
 * `status_text`, `proto` and `res.request`.
 */
import { createHash } from 'node:crypto';
import http from 'node:http';
import zlib from 'node:zlib';
import busboy from 'busboy';
import { closeServer, count, listenLocal, runScript } from './harness';

interface Seen {
  path: string;
  cookie: string;
  authorization: string;
  encoding: string;
  body: string;
}

describe('k6/http params and response fields', () => {
  let server: http.Server;
  let url = '';
  let seen: Seen[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        const raw = Buffer.concat(chunks);
        const encoding = req.headers['content-encoding'] ?? '';
        let body = raw;
        // Undo a stack of encodings, last applied first.
        for (const e of encoding
          .split(',')
          .map((x) => x.trim())
          .filter(Boolean)
          .reverse())
          body =
            e === 'gzip'
              ? zlib.gunzipSync(body)
              : e === 'deflate'
                ? zlib.inflateSync(body)
                : zlib.brotliDecompressSync(body);
        seen.push({
          path: req.url ?? '',
          cookie: req.headers.cookie ?? '',
          authorization: req.headers.authorization ?? '',
          encoding,
          body: body.toString(),
        });
        const headers: Record<string, string | string[]> = { 'content-type': 'text/plain' };
        if (req.url === '/login')
          headers['set-cookie'] = ['session=abc123; Path=/; HttpOnly', 'theme=dark; Path=/app; Max-Age=60'];
        res.writeHead(req.url === '/teapot' ? 418 : 200, headers);
        res.end('ok');
      });
    });
    url = await listenLocal(server);
  });
  beforeEach(() => {
    seen = [];
  });
  afterAll(() => closeServer(server));
  const env = () => ({ BASE_URL: url });
  const cookieOf = (path: string) => seen.filter((s) => s.path === path).map((s) => s.cookie);

  it('stores what a response sets and sends it back; each iteration starts with an empty jar unless noCookiesReset', async () => {
    const script = (option: string) => `import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 1, iterations: 2${option}, thresholds: { checks: ['rate==1'] } };
export default function () {
  http.get(__ENV.BASE_URL + '/before');
  if (__ITER === 0) {
    const login = http.get(__ENV.BASE_URL + '/login');
    check(login, {
      'res.cookies lists what was set': (r) =>
        r.cookies.session[0].value === 'abc123' && r.cookies.session[0].http_only === true &&
        r.cookies.theme[0].path === '/app' && r.cookies.theme[0].max_age === 60,
    });
  }
  http.get(__ENV.BASE_URL + '/app/page');
}`;
    const reset = await runScript(script(''), [], env());
    expect(reset.code).toBe(0);
    expect(cookieOf('/before')).toEqual(['', '']);
    // Longer paths first (RFC 6265 5.4, as Go's cookiejar orders them).
    expect(cookieOf('/app/page')).toEqual(['theme=dark; session=abc123', '']);
    seen = [];
    const kept = await runScript(script(', noCookiesReset: true'), [], env());
    expect(kept.code).toBe(0);
    expect(cookieOf('/before')).toEqual(['', 'session=abc123']);
    expect(cookieOf('/app/page')).toEqual(['theme=dark; session=abc123', 'theme=dark; session=abc123']);
  }, 30_000);

  it('request-scoped cookies, replace, http.cookieJar() and a jar of its own', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
export default function () {
  const base = __ENV.BASE_URL;
  const jar = http.cookieJar();
  jar.set(base, 'lang', 'de');
  http.get(base + '/scoped', { cookies: { extra: '1', lang: 'en' } });
  http.get(base + '/replaced', { cookies: { lang: { value: 'fr', replace: true } } });
  http.get(base + '/after');
  check(jar, { 'cookiesForURL': (j) => JSON.stringify(j.cookiesForURL(base + '/')) === '{"lang":["de"]}' });
  const own = new http.CookieJar();
  own.set(base, 'only', 'mine');
  http.get(base + '/own', { jar: own });
  jar.delete(base, 'lang');
  http.get(base + '/deleted');
  jar.set(base, 'a', '1');
  jar.clear(base);
  http.get(base + '/cleared');
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(seen.map((s) => [s.path, s.cookie])).toEqual([
      ['/scoped', 'extra=1; lang=en; lang=de'],
      ['/replaced', 'lang=fr'],
      ['/after', 'lang=de'],
      ['/own', 'only=mine'],
      ['/deleted', ''],
      ['/cleared', ''],
    ]);
  }, 30_000);

  it("auth: 'digest' answers the server's challenge (the 401 first, not counted as failed)", async () => {
    const realm = 'k6-test';
    const nonce = 'dcd98b7102dd2f0e8b11d0f600bfb0c093';
    const md5 = (t: string) => createHash('md5').update(t).digest('hex');
    const seenAuth: string[] = [];
    const digest = http.createServer((req, res) => {
      const auth = req.headers.authorization ?? '';
      seenAuth.push(auth.split(' ')[0]);
      const f = Object.fromEntries([...auth.matchAll(/(\w+)="?([^",]*)"?/g)].map((m) => [m[1], m[2]]));
      const expected = md5(
        `${md5(`us er:${realm}:pa:ss`)}:${nonce}:${f.nc}:${f.cnonce}:${f.qop}:${md5(`${req.method}:${f.uri}`)}`,
      );
      if (auth.startsWith('Digest ') && f.response === expected && f.uri === req.url && f.opaque === 'op') {
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end('authenticated');
      } else {
        res.writeHead(401, {
          'www-authenticate': `Digest realm="${realm}", qop="auth,auth-int", nonce="${nonce}", opaque="op"`,
        });
        res.end();
      }
    });
    const port = new URL(await listenLocal(digest)).port;
    try {
      const r = await runScript(`import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, thresholds: { checks: ['rate==1'], http_req_failed: ['rate==0'] } };
export default function () {
  const res = http.get('http://us%20er:pa:ss@127.0.0.1:${port}/digest-auth/x?y=1', { auth: 'digest' });
  check(res, { 'authenticated': (r) => r.status === 200 && r.body === 'authenticated' });
}`);
      expect(r.code).toBe(0);
      expect(count(r.summary, 'http_reqs')).toBe(2);
      expect(seenAuth).toEqual(['', 'Digest']);
    } finally {
      await closeServer(digest);
    }
  }, 30_000);

  it('a 307 redirect resends the body as it was sent: compressed once, with its Content-Type', async () => {
    const got: string[] = [];
    const hop = http.createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on('data', (c: Buffer) => chunks.push(c));
      req.on('end', () => {
        if (req.url?.startsWith('/from')) {
          res.writeHead(307, { location: req.url.replace('/from', '/to') });
          res.end();
          return;
        }
        const raw = Buffer.concat(chunks);
        const body = req.headers['content-encoding'] === 'gzip' ? zlib.gunzipSync(raw) : raw;
        got.push(`${req.url} ${req.headers['content-type'] ?? '-'} ${body.toString()}`);
        res.end('ok');
      });
    });
    const base = await listenLocal(hop);
    try {
      const r = await runScript(`import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  http.post('${base}/from/gz', 'squeezed', { compression: 'gzip', headers: { 'Content-Type': 'text/plain' } });
  http.post('${base}/from/form', { a: '1', b: 'x y' });
}`);
      expect(r.code).toBe(0);
      expect(got).toEqual([
        '/to/gz text/plain squeezed',
        '/to/form application/x-www-form-urlencoded a=1&b=x+y',
      ]);
    } finally {
      await closeServer(hop);
    }
  }, 30_000);

  it("credentials in the URL go as Basic auth; auth 'ntlm' is refused, not ignored", async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  http.get(__ENV.BASE_URL.replace('://', '://us%40er:p%3Ass@') + '/basic', { auth: 'basic' });
  http.get(__ENV.BASE_URL.replace('://', '://user:pa:ss@') + '/raw-colon');
  http.get(__ENV.BASE_URL + '/ntlm', { auth: 'ntlm' });
}`,
      [],
      env(),
    );
    expect(seen.map((s) => [s.path, s.authorization])).toEqual([
      ['/basic', `Basic ${Buffer.from('us@er:p:ss').toString('base64')}`],
      ['/raw-colon', `Basic ${Buffer.from('user:pa:ss').toString('base64')}`],
    ]);
    expect(r.stderr).toContain('auth "ntlm" is not supported by this runner');
  }, 30_000);

  it('compression: the body goes compressed with its Content-Encoding, stacks in order', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  const body = JSON.stringify({ locations: '48.7,9.1|'.repeat(50) });
  http.post(__ENV.BASE_URL + '/gzip', body, { compression: 'gzip' });
  http.post(__ENV.BASE_URL + '/stack', body, { compression: 'deflate, br' });
  http.post(__ENV.BASE_URL + '/bad', body, { compression: 'lzma' });
}`,
      [],
      env(),
    );
    const expected = JSON.stringify({ locations: '48.7,9.1|'.repeat(50) });
    expect(seen.map((s) => [s.path, s.encoding, s.body === expected])).toEqual([
      ['/gzip', 'gzip', true],
      ['/stack', 'deflate, br', true],
    ]);
    expect(r.stderr).toContain('unknown compression algorithm "lzma"');
  }, 30_000);

  it('an object body with http.file() goes as multipart/form-data that a multipart parser reads back', async () => {
    const parts: string[] = [];
    const upload = http.createServer((req, res) => {
      const bb = busboy({ headers: req.headers });
      bb.on('field', (name, value) => parts.push(`field ${name}=${value}`));
      bb.on('file', (name, stream, info) => {
        const chunks: Buffer[] = [];
        stream.on('data', (c: Buffer) => chunks.push(c));
        stream.on('end', () =>
          parts.push(
            `file ${name} ${info.filename} ${info.mimeType} ${Buffer.concat(chunks).toString('hex')}`,
          ),
        );
      });
      bb.on('close', () => res.end('ok'));
      req.pipe(bb);
    });
    const uploadUrl = await listenLocal(upload);
    try {
      const r = await runScript(
        `import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  const gpx = '<gpx version="1.1"><trk><trkseg><trkpt lat="48.7" lon="9.1"/></trkseg></trk></gpx>';
  const bytes = new Uint8Array([0, 1, 254, 255]).buffer;
  http.post(__ENV.UPLOAD + '/v1/sample/file', {
    format: 'gpx',
    file: http.file(gpx, 'run "1".gpx', 'application/gpx+xml'),
    raw: http.file(bytes, 'raw.bin'),
  });
}`,
        [],
        { UPLOAD: uploadUrl },
      );
      expect(r.code).toBe(0);
      const gpx = '<gpx version="1.1"><trk><trkseg><trkpt lat="48.7" lon="9.1"/></trkseg></trk></gpx>';
      expect(parts).toEqual([
        'field format=gpx',
        `file file run "1".gpx application/gpx+xml ${Buffer.from(gpx).toString('hex')}`,
        'file raw raw.bin application/octet-stream 0001feff',
      ]);
    } finally {
      await closeServer(upload);
    }
  }, 30_000);

  it('a URL object is requested as its string, an http.url template as its URL', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  const u = new URL(__ENV.BASE_URL + '/object');
  u.searchParams.append('q', 'a b');
  http.get(u);
  http.get(http.url\`\${__ENV.BASE_URL}/template/\${7}\`);
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.path)).toEqual(['/object?q=a+b', '/template/7']);
  }, 30_000);

  it('status_text, proto and the request as sent', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, userAgent: 'probe/1', thresholds: { checks: ['rate==1'] } };
export default function () {
  const res = http.post(__ENV.BASE_URL + '/teapot', 'hello', { headers: { 'x-trace': 't1' } });
  check(res, {
    status_text: (r) => r.status_text === "418 I'm a Teapot" || r.status_text === "418 I'm a teapot",
    proto: (r) => r.proto === 'HTTP/1.1',
    'request headers': (r) => r.request.headers['User-Agent'][0] === 'probe/1' && r.request.headers['X-Trace'][0] === 't1',
    'request body': (r) => r.request.body === 'hello' && r.request.method === 'POST',
  });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
  }, 30_000);
});
