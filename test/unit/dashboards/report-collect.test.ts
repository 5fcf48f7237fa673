// What collectReport takes from the run rather than from fixed defaults, against a stand-in Prometheus and Jaeger.
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { collectReport } from '../../../scripts/report/collect';
import { loadSummaryOf } from '../../../scripts/report/tables';

describe('the report', () => {
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

  // "Slowest traces" are the run's: the charts' window is padded 30 s each side, and setup()'s warm-up (a cold API's
  // slowest requests) falls in that padding, so Jaeger is searched over the run's own span.
  it('searches the slowest traces over the run’s span, not the padded chart window', async () => {
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

  // The load-test charts' SLO lines are the run's thresholds (SLO_P95_MS, spike's 5 % for its spike scenario), not
  // the catalogue's fixed 200 ms and 1 %; one line per distinct bound, named after its scenarios.
  it('draws the load-test charts’ SLO lines from the run’s thresholds', async () => {
    const runSpan = { from: 1_000_000, to: 1_000_015 };
    const load = loadSummaryOf(
      {
        testid: 't',
        exitCode: 0,
        thresholds: [
          { metric: 'http_req_duration{scenario:before}', threshold: 'p(95)<350', observed: 20, ok: true },
          { metric: 'http_req_duration{scenario:recovery}', threshold: 'p(95)<350', observed: 20, ok: true },
          { metric: 'http_req_failed{scenario:recovery}', threshold: 'rate<0.01', observed: 0, ok: true },
          { metric: 'http_req_failed{scenario:spike}', threshold: 'rate<0.05', observed: 0, ok: true },
          { metric: 'http_reqs{scenario:spike}', threshold: 'count>0', observed: 9, ok: true },
        ],
      },
      's.json',
    );
    const data = await collectReport({
      window: { from: runSpan.from - 30, to: runSpan.to + 30 },
      runSpan,
      run: { file: 's.json', load },
      sources: { prometheusUrl: url, jaegerUrl: url, scrapeSeconds: 1 },
      variables: { testid: 't', service: 'svc' },
      tables: [],
    });
    expect(data.panels['load-http-req-duration'].slos).toEqual([
      { value: 0.35, label: 'threshold p95 < 350 ms (before, recovery)', bad: 'above' },
    ]);
    expect(data.panels['load-http-req-failed'].slos).toEqual([
      { value: 0.01, label: 'threshold 1% failed (recovery)', bad: 'above' },
      { value: 0.05, label: 'threshold 5% failed (spike)', bad: 'above' },
    ]);
    // No checks threshold in this run: no line, rather than a bound it was not judged by.
    expect(data.panels['load-checks'].slos).toEqual([]);
    // The API's own charts keep the service's SLO.
    expect(data.panels['api-latency-percentiles'].slos).toEqual([expect.objectContaining({ value: 0.2 })]);
  }, 30_000);
});
