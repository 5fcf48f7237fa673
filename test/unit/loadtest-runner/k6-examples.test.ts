/**
 * Scripts in the shape of k6's documentation examples, run end to end against a local server: request
 * and check counts, thresholds and exit codes as k6's documentation says they must be.
 */
import { count, runScript, startServer, type LocalServer } from './harness';

const EXIT_ABORTED = 108;
const EXIT_SCRIPT_ERROR = 107;

describe("k6's documentation examples", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());
  const env = () => ({ BASE_URL: server.url });

  it('http.batch sends its requests in parallel and returns responses in order (array and object forms)', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 2 };
export default function () {
  const responses = http.batch([
    ['GET', __ENV.BASE_URL + '/a', null, { tags: { ctype: 'html' } }],
    ['GET', __ENV.BASE_URL + '/b', null, { tags: { ctype: 'css' } }],
    __ENV.BASE_URL + '/c',
  ]);
  check(responses[0], { 'main page status was 200': (res) => res.status === 200 });
  const named = http.batch({ one: { method: 'POST', url: __ENV.BASE_URL + '/d', body: 'x' } });
  check(named, { 'object form keeps its keys': (n) => n.one.status === 200 });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'http_reqs')).toBe(8);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 4, fails: 0 });
  }, 30_000);

  it('k6/crypto and k6/encoding give the documented values', async () => {
    const r = await runScript(
      `import crypto from 'k6/crypto';
import encoding from 'k6/encoding';
import { check } from 'k6';
export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
export default function () {
  check(null, {
    sha256: () => crypto.sha256('hello world!', 'hex') === '7509e5bda0c762d2bac7f90d758b5b2263fa01ccbc542ab5e3df163be08e6ca9',
    md5: () => crypto.md5('hello world!', 'hex') === 'fc3ff98e8c6a0d3087d515c0473f8677',
    hmac: () => crypto.hmac('sha256', 'a secret', 'my data', 'hex') === '82f669c8fde13aef6d6977257588dc4953dfac505428f8fd6b52e19cd96d7ea5',
    hasher: () => { const h = crypto.createHash('sha256'); h.update('hello '); h.update('world!'); return h.digest('hex') === crypto.sha256('hello world!', 'hex'); },
    randomBytes: () => crypto.randomBytes(42).byteLength === 42,
    b64: () => encoding.b64encode('hello world') === 'aGVsbG8gd29ybGQ=' && encoding.b64encode('hello world', 'rawstd') === 'aGVsbG8gd29ybGQ',
    b64decode: () => encoding.b64decode('aGVsbG8gd29ybGQ=', 'std', 's') === 'hello world',
  });
}`,
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 7, fails: 0 });
  }, 30_000);

  it('hands setup() data to every VU and to teardown(), each VU its own copy', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { vus: 3, iterations: 6 };
export function setup() {
  const res = http.get(__ENV.BASE_URL + '/setup');
  return { status: res.status, list: [1] };
}
export default function (data) {
  data.list.push(__VU);
  check(data, { 'setup data arrives': (d) => d.status === 200 && d.list[0] === 1 });
}
export function teardown(data) {
  check(data, { 'teardown sees setup data unchanged': (d) => d.list.length === 1 });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'iterations')).toBe(6);
    expect(count(r.summary, 'http_reqs')).toBe(1);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 7, fails: 0 });
  }, 30_000);

  it('test.abort() stops the test with exit code 108', async () => {
    const r = await runScript(
      `import exec from 'k6/execution';
import http from 'k6/http';
export const options = { vus: 2, duration: '30s' };
export default function () {
  http.get(__ENV.BASE_URL + '/');
  if (exec.vu.iterationInScenario === 2) exec.test.abort('enough');
}`,
      [],
      env(),
    );
    expect(r.code).toBe(EXIT_ABORTED);
    expect(r.elapsedMs).toBeLessThan(20_000);
    expect(r.summary.abortReason).toBe('enough');
  }, 60_000);

  it('an exception in setup() exits 107 without running the scenarios', async () => {
    const before = server.requests();
    const r = await runScript(
      `import http from 'k6/http';
export function setup() { throw new Error('setup broke'); }
export default function () { http.get(__ENV.BASE_URL + '/'); }`,
      [],
      env(),
    );
    expect(r.code).toBe(EXIT_SCRIPT_ERROR);
    expect(r.stderr).toContain('setup broke');
    expect(server.requests()).toBe(before);
  }, 30_000);

  it('ends an iteration only after its timers ran, and prints console output as k6 does', async () => {
    const r = await runScript(
      `import { check } from 'k6';
export const options = { iterations: 1 };
export default function () {
  let fired = 0;
  setTimeout(() => { fired++; console.log('timer fired', fired); }, 300);
  const id = setInterval(() => { if (++fired >= 3) clearInterval(id); }, 50);
}`,
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.iteration_duration.values.max).toBeGreaterThanOrEqual(290);
    expect(r.stderr).toMatch(/level=info msg="timer fired \d" source=console/);
  }, 30_000);

  it('custom Counter, Gauge, Rate and Trend with thresholds, and a failed check tag', async () => {
    const r = await runScript(
      `import { Counter, Gauge, Rate, Trend } from 'k6/metrics';
import { check } from 'k6';
const c = new Counter('my_counter');
const g = new Gauge('my_gauge');
const rate = new Rate('my_rate');
const t = new Trend('my_trend', true);
export const options = {
  iterations: 4,
  thresholds: { my_counter: ['count==8'], my_gauge: ['value==3'], my_rate: ['rate==0.5'], my_trend: ['p(50)<1e3', 'max==4'] },
};
export default function () {
  c.add(2);
  g.add(__ITER);
  rate.add(__ITER % 2 === 0);
  t.add(__ITER + 1);
  check(__ITER, { 'is even': (i) => i % 2 === 0 });
}`,
    );
    expect(r.code).toBe(0);
    expect(r.summary.thresholds.every((x) => x.ok)).toBe(true);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 2, fails: 2 });
    expect(r.stdout).toMatch(/✗ is even\n\s+↳ {2}50% — ✓ 2 \/ ✗ 2/);
  }, 30_000);

  it.each([
    [
      'compact',
      /█ TOTAL RESULTS[\s\S]*checks_succeeded\.+: 100\.00% 2 out of 2[\s\S]*HTTP\n\s+http_req_duration/,
    ],
    ['full', /█ GROUP: inner\n\n\s+✓ inside/],
    ['legacy', /█ inner[\s\S]*checks\.+: 100\.00% ✓ 2 ✗ 0/],
  ])(
    'prints the end-of-test summary in --summary-mode %s as k6 v1 lays it out',
    async (mode, layout) => {
      const r = await runScript(
        `import http from 'k6/http';
import { check, group } from 'k6';
export const options = { iterations: 1 };
export default function () {
  check(http.get(__ENV.BASE_URL + '/'), { outside: (res) => res.status === 200 });
  group('inner', () => check(1, { inside: () => true }));
}`,
        ['--summary-mode', mode],
        env(),
      );
      expect(r.code).toBe(0);
      expect(r.stdout).toMatch(layout);
    },
    30_000,
  );

  it('http.url tags requests with their template as name, so ids do not make new series', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 3, thresholds: { 'http_reqs{name:\${}/posts/\${}}': ['count==3'] } };
export default function () {
  http.get(http.url\`\${__ENV.BASE_URL}/posts/\${__ITER}\`);
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.summary.thresholds[0]).toMatchObject({ ok: true, observed: 3 });
  }, 30_000);

  it('runs several scenarios with their own exec, env, tags and startTime', async () => {
    const r = await runScript(
      `import { check } from 'k6';
import exec from 'k6/execution';
export const options = {
  scenarios: {
    a: { executor: 'per-vu-iterations', vus: 1, iterations: 2, exec: 'first', env: { WHO: 'a' }, tags: { kind: 'alpha' } },
    b: { executor: 'shared-iterations', vus: 2, iterations: 3, exec: 'second', env: { WHO: 'b' }, startTime: '200ms' },
  },
  thresholds: { 'iterations{scenario:a}': ['count==2'], 'iterations{scenario:b}': ['count==3'], 'checks{kind:alpha}': ['rate==1'] },
};
export function first() { check(__ENV.WHO, { 'a sees its env': (w) => w === 'a' && exec.scenario.name === 'a' }); }
export function second() { check(__ENV.WHO, { 'b sees its env': (w) => w === 'b' && exec.scenario.name === 'b' }); }`,
    );
    expect(r.code).toBe(0);
    expect(r.summary.thresholds.map((t) => t.ok)).toEqual([true, true, true]);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 5, fails: 0 });
  }, 30_000);

  it('makes no HTTP request from the init context (k6 refuses it)', async () => {
    const r = await runScript(
      `import http from 'k6/http';
http.get(__ENV.BASE_URL + '/');
export default function () {}`,
      [],
      env(),
    );
    expect(r.code).toBe(EXIT_SCRIPT_ERROR);
    expect(r.stderr).toMatch(/init context is not supported/);
  }, 30_000);
});
