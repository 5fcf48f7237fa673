import { Registry } from '../../../loadtests/runner/metrics/registry';
import {
  evaluateThresholds,
  parseThresholds,
  validateThresholds,
} from '../../../loadtests/runner/thresholds';
import { runScript, startServer, type LocalServer } from './harness';

function registryWith(durations: number[], failures: number[]): Registry {
  const r = new Registry();
  const d = r.define('http_req_duration', 'trend', 'time');
  const f = r.define('http_req_failed', 'rate');
  const reqs = r.define('http_reqs', 'counter');
  durations.forEach((v, i) => r.add(d, v, { name: i % 2 ? 'odd' : 'even' }));
  failures.forEach((v) => r.add(f, v, {}));
  durations.forEach(() => r.add(reqs, 1, {}));
  return r;
}

describe('threshold expressions', () => {
  const registry = registryWith([10, 20, 30, 40, 50, 60, 70, 80, 90, 100], [0, 0, 0, 1]);

  it('evaluates trend, rate and counter aggregations like k6', () => {
    const groups = parseThresholds({
      http_req_duration: ['p(95)<100', 'avg==55', 'med<=55', 'max<100'],
      http_req_failed: ['rate<0.3'],
      http_reqs: ['count>=10', 'rate>1'],
    });
    const results = evaluateThresholds(groups, registry, 5000);
    const byText = Object.fromEntries(results.map((r) => [r.threshold.source, r]));
    expect(byText['p(95)<100'].observed).toBeCloseTo(95.5);
    expect(byText['p(95)<100'].ok).toBe(true);
    expect(byText['avg==55'].ok).toBe(true);
    expect(byText['med<=55'].ok).toBe(true);
    expect(byText['max<100'].ok).toBe(false);
    expect(byText['rate<0.3'].observed).toBeCloseTo(0.25);
    expect(byText['count>=10'].ok).toBe(true);
    expect(byText['rate>1'].observed).toBeCloseTo(2);
  });

  it('restricts a submetric to series carrying its tags', () => {
    const groups = parseThresholds({ 'http_req_duration{name:odd}': ['max<=100', 'min>=20'] });
    const results = evaluateThresholds(groups, registry, 1000);
    expect(results.map((r) => r.ok)).toEqual([true, true]);
    expect(results[1].observed).toBe(20);
  });

  it('reads abortOnFail and delayAbortEval from the object form', () => {
    const [group] = parseThresholds({
      http_req_failed: [{ threshold: 'rate<0.01', abortOnFail: true, delayAbortEval: '1m30s' }],
    });
    expect(group.thresholds[0]).toMatchObject({ abortOnFail: true, delayAbortEvalMs: 90_000, limit: 0.01 });
  });

  it('reads threshold values as Go strconv.ParseFloat does (1e3, .5)', () => {
    const [group] = parseThresholds({ http_req_duration: ['p(95)<1e3', 'avg>.5', 'min>=-2.5E-1'] });
    expect(group.thresholds.map((t) => t.limit)).toEqual([1000, 0.5, -0.25]);
    const results = evaluateThresholds(parseThresholds({ http_req_duration: ['p(95)<1e3'] }), registry, 1000);
    expect(results[0].ok).toBe(true);
  });

  it('passes a threshold on a Rate that got no samples, as k6 does', () => {
    const r = new Registry();
    r.define('checks', 'rate');
    const [result] = evaluateThresholds(parseThresholds({ checks: ['rate>0.99'] }), r, 1000);
    expect(result.ok).toBe(true);
    expect(result.observed).toBe(0);
  });

  it('rejects malformed expressions and aggregations the metric type lacks', () => {
    expect(() => parseThresholds({ http_req_duration: ['p95 < 200'] })).toThrow(
      /invalid threshold expression/,
    );
    expect(() => validateThresholds(parseThresholds({ http_req_failed: ['p(95)<1'] }), registry)).toThrow(
      /rate/,
    );
    expect(() => validateThresholds(parseThresholds({ no_such_metric: ['count>1'] }), registry)).toThrow(
      /unknown metric/,
    );
  });
});

describe('threshold outcomes of a run', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  const script = (thresholds: string, duration = '2s') => `import http from 'k6/http';
import { check } from 'k6';
export const options = {
  scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, duration: '${duration}', preAllocatedVUs: 2, maxVUs: 10 } },
  thresholds: ${thresholds},
};
export default async function () {
  const res = await http.asyncRequest('GET', __ENV.BASE_URL + '/', null, { tags: { name: 'root' } });
  check(res, { 'status is 200': (r) => r.status === 200 });
}`;

  it('exits 0 when every threshold holds', async () => {
    const r = await runScript(
      script(`{ http_req_failed: ['rate<0.01'], http_req_duration: ['p(95)<2000'], checks: ['rate>0.99'] }`),
      [],
      {
        BASE_URL: server.url,
      },
    );
    expect(r.code).toBe(0);
    expect(r.summary.thresholds.every((t) => t.ok)).toBe(true);
    // k6 v1's compact summary: the THRESHOLDS block lists each expression with its observed value.
    expect(r.stdout).toMatch(/█ THRESHOLDS[\s\S]*http_req_duration\n {4}✓ 'p\(95\)<2000' p\(95\)=/);
  }, 30_000);

  it('exits 104 (invalid config) on a malformed threshold expression, before any request', async () => {
    const before = server.requests();
    const r = await runScript(script(`{ http_req_duration: ['p95 < 200'] }`), [], { BASE_URL: server.url });
    expect(r.code).toBe(104);
    expect(r.stderr).toMatch(/invalid threshold expression "p95 < 200"/);
    expect(server.requests()).toBe(before);
  }, 30_000);

  it('judges a declared custom Counter that got no sample at the end, as k6 does: count>0 fails', async () => {
    const r = await runScript(`import { Counter } from 'k6/metrics';
const never = new Counter('never');
export const options = { vus: 1, iterations: 1, thresholds: { never: ['count>0'], 'checks{x:y}': ['rate>0.99'] } };
export default function () {}`);
    expect(r.code).toBe(99);
    expect(r.summary.thresholds).toEqual([
      expect.objectContaining({ metric: 'never', threshold: 'count>0', observed: 0, ok: false }),
      expect.objectContaining({ metric: 'checks{x:y}', ok: true }), // an empty Rate passes (k6 cannot divide)
    ]);
  }, 30_000);

  it('exits 99 and reports the crossed threshold when one fails', async () => {
    const r = await runScript(script(`{ http_req_duration: ['p(95)<0.001'], checks: ['rate>0.99'] }`), [], {
      BASE_URL: server.url,
    });
    expect(r.code).toBe(99);
    expect(r.summary.thresholds.find((t) => t.threshold === 'p(95)<0.001')?.ok).toBe(false);
    expect(r.stdout).toMatch(/thresholds on metrics 'http_req_duration' have been crossed/);
  }, 30_000);

  it('stops the test early with exit 99 when an abortOnFail threshold fails', async () => {
    const r = await runScript(
      script(
        `{ http_req_duration: [{ threshold: 'p(95)<0.001', abortOnFail: true, delayAbortEval: '1s' }] }`,
        '60s',
      ),
      [],
      { BASE_URL: server.url },
    );
    expect(r.code).toBe(99);
    expect(r.summary.abortReason).toMatch(/http_req_duration/);
    // Evaluated every 2 s after a 1 s delay: stops long before the 60 s duration.
    expect(r.elapsedMs).toBeLessThan(20_000);
  }, 90_000);
});
