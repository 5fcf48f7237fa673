// "Slowest traces" are the run's: the charts' window is padded 30 s each side, and setup()'s warm-up (a cold API's
// slowest requests) falls in that padding, so Jaeger is searched over the run's own span.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectReport } from '../../../scripts/report/collect';

describe('the report’s slowest traces', () => {
  let server: http.Server;
  let url = '';
  const searches: URLSearchParams[] = [];
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      const u = new URL(req.url ?? '/', 'http://x');
      if (u.pathname === '/api/traces') searches.push(u.searchParams);
      const body =
        u.pathname === '/api/services'
          ? { data: ['svc'] }
          : u.pathname === '/api/operations'
            ? { data: [{ name: 'fn' }] }
            : u.pathname.startsWith('/api/v1/')
              ? { status: 'success', data: { resultType: 'matrix', result: [] } }
              : { data: [] };
      res.setHeader('content-type', 'application/json');
      res.end(JSON.stringify(body));
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => new Promise<void>((resolve) => server.close(() => resolve())));

  it('are searched over the run’s span, not the padded chart window', async () => {
    const runSpan = { from: 1_000_000, to: 1_000_015 };
    await collectReport({
      window: { from: runSpan.from - 30, to: runSpan.to + 30 },
      runSpan,
      sources: { prometheusUrl: url, jaegerUrl: url, scrapeSeconds: 1 },
      variables: { testid: 't', service: 'svc' },
      tables: [],
    });
    expect(searches.length).toBeGreaterThan(0);
    for (const s of searches) {
      expect(Number(s.get('start'))).toBe(runSpan.from * 1e6);
      expect(Number(s.get('end'))).toBe(runSpan.to * 1e6);
    }
  }, 30_000);
});
