import { count, runScript, startServer, type LocalServer } from './harness';

describe('VU cap of arrival-rate executors', () => {
  let slow: LocalServer;
  beforeAll(async () => {
    slow = await startServer(200);
  });
  afterAll(() => slow.close());

  it('drops iterations when maxVUs are busy, and started + dropped equals the requested count', async () => {
    // 50/s for 2 s = 100 iterations; 2 VUs × 200 ms responses can start only ~10/s.
    const result = await runScript(
      `import http from 'k6/http';
export const options = { scenarios: { capped: { executor: 'constant-arrival-rate', rate: 50, duration: '2s',
  preAllocatedVUs: 2, maxVUs: 2, gracefulStop: '5s' } } };
export default async function () { await http.asyncRequest('GET', __ENV.BASE_URL + '/slow', null, { tags: { name: 'slow' } }); }`,
      [],
      { BASE_URL: slow.url },
    );
    expect(result.code).toBe(0);
    const iterations = count(result.summary, 'iterations');
    const dropped = count(result.summary, 'dropped_iterations');
    expect(iterations + dropped).toBe(100);
    expect(dropped).toBeGreaterThanOrEqual(70);
    expect(result.summary.metrics.vus_max.values.max).toBeLessThanOrEqual(2);
  }, 60_000);

  it('initialises VUs beyond preAllocatedVUs up to maxVUs, dropping only what arrives meanwhile (as k6)', async () => {
    const result = await runScript(
      `import http from 'k6/http';
export const options = { scenarios: { growing: { executor: 'constant-arrival-rate', rate: 20, duration: '2s',
  preAllocatedVUs: 1, maxVUs: 20 } } };
export default async function () { await http.asyncRequest('GET', __ENV.BASE_URL + '/slow', null, { tags: { name: 'slow' } }); }`,
      [],
      { BASE_URL: slow.url },
    );
    const dropped = count(result.summary, 'dropped_iterations');
    expect(count(result.summary, 'iterations') + dropped).toBe(40);
    // A VU thread initialises in well under a second: a few iterations dropped, then enough VUs.
    expect(dropped).toBeLessThan(15);
    expect(result.summary.metrics.vus_max.values.max).toBeGreaterThan(1);
  }, 60_000);
});
