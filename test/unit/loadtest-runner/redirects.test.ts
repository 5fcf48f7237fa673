/**
 * k6 follows redirects (at most options.maxRedirects, default 10; params.redirects per request), each
 * hop a request of its own in the metrics, 307/308 keeping method and body, 301/302/303 becoming GET.
 */
import http from 'node:http';
import { closeServer, count, listenLocal, runScript } from './harness';

describe('redirects', () => {
  let server: http.Server;
  let url = '';
  const seen: string[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      let body = '';
      req.on('data', (c: Buffer) => (body += c.toString()));
      req.on('end', () => {
        seen.push(`${req.method} ${req.url} ${body}`);
        const to = (status: number, location: string) => {
          res.writeHead(status, { location });
          res.end();
        };
        if (req.url === '/old') return to(302, '/new');
        if (req.url === '/loop') return to(302, '/loop');
        if (req.url === '/keep') return to(307, '/new');
        res.writeHead(200, { 'content-type': 'text/plain' });
        res.end(`arrived by ${req.method} with "${body}"`);
      });
    });
    url = await listenLocal(server);
  });
  afterAll(() => closeServer(server));

  it('follows them as k6 does: every hop counted, method kept on 307, a limit of 10 hops', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
export default function () {
  const moved = http.get(__ENV.BASE_URL + '/old');
  check(moved, { 'ends at the target': (res) => res.status === 200 && res.url.endsWith('/new') });
  const kept = http.post(__ENV.BASE_URL + '/keep', 'payload');
  check(kept, { '307 keeps POST and body': (res) => res.body === 'arrived by POST with "payload"' });
  const turned = http.post(__ENV.BASE_URL + '/old', 'payload');
  check(turned, { '302 turns POST into GET': (res) => res.body === 'arrived by GET with ""' });
  check(http.get(__ENV.BASE_URL + '/old', { redirects: 0 }), { 'redirects: 0 stops': (res) => res.status === 302 });
  check(http.get(__ENV.BASE_URL + '/loop'), { 'gives up after 10 hops': (res) => res.status === 302 });
}`,
      [],
      { BASE_URL: url },
    );
    expect(r.code).toBe(0);
    // 2 + 2 + 2 + 1 + 11 requests.
    expect(count(r.summary, 'http_reqs')).toBe(18);
    expect(seen.filter((s) => s.startsWith('GET /loop')).length).toBe(11);
  }, 30_000);
});
