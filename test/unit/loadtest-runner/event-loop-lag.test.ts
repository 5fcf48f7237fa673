/**
 * A saturated load generator reports latency that is its own: when the engine's event loop lags, the
 * summary says so and the metric runner_event_loop_lag shows it (as k6 warns about insufficient VUs).
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { runScript } from './harness';

/** Lag the runner must report (its warning threshold). */
const LAG_WARNING_MS = 10;
/** 16 MiB bodies: concatenating, decoding and handing each to the VU blocks the engine for tens of ms. */
const BODY = 'x'.repeat(16 * 1024 * 1024);

describe('event loop lag of the load generator', () => {
  let server: http.Server;
  let url = '';
  beforeAll(async () => {
    server = http.createServer((_req, res) => {
      res.writeHead(200, { 'content-type': 'text/plain' });
      res.end(BODY);
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(
    () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  );

  it('warns in the summary and records runner_event_loop_lag when the engine thread is saturated', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { vus: 2, duration: '3s' };
export default function () { http.get(__ENV.BASE_URL + '/big'); }`,
      [],
      { BASE_URL: url },
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.runner_event_loop_lag.values.max).toBeGreaterThan(LAG_WARNING_MS);
    expect(r.stdout).toMatch(/event loop lagged up to \d+ ms \(metric runner_event_loop_lag\)/);
  }, 60_000);
});
