/**
 * A script in k6's own synchronous style runs unchanged: http.get blocks the VU, sleep(1) blocks it,
 * module state is per VU, SharedArray comes from open(), groups and custom counters are reported.
 * 5 VUs × 5 s with a 1 s sleep per iteration make 25 ± 2 requests in k6.
 */
import { runScript, startServer, type LocalServer } from './harness';

const REQUEST_TOLERANCE = 2;

const SCRIPT = `import http from 'k6/http';
import { check, group, sleep } from 'k6';
import { Counter } from 'k6/metrics';
import { SharedArray } from 'k6/data';

const users = new SharedArray('users', function () {
  return JSON.parse(open('./users.json'));
});
const pages = new Counter('pages');
let iterationsOfThisVU = 0;

export const options = { vus: 5, duration: '5s' };

export default function () {
  iterationsOfThisVU++;
  group('home', function () {
    const res = http.get(__ENV.BASE_URL + '/?user=' + users[__VU % users.length].name);
    check(res, { 'status is 200': (r) => r.status === 200, 'body is JSON': (r) => r.json('status') === 'OK' });
  });
  pages.add(1);
  // Per-VU module state: this VU's counter equals its own iteration number, as in k6.
  check(iterationsOfThisVU, { 'module state is per VU': (n) => n === __ITER + 1 });
  sleep(1);
}
`;

describe("k6's synchronous style", () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('runs 5 VUs for 5 s with sleep(1): 25 ± 2 requests, per-VU state, group checks and a Counter', async () => {
    const before = server.requests();
    const r = await runScript(
      SCRIPT,
      [],
      { BASE_URL: server.url },
      {
        files: { 'users.json': JSON.stringify([{ name: 'ada' }, { name: 'bo' }, { name: 'cy' }]) },
      },
    );
    expect(r.code).toBe(0);
    const requests = r.summary.metrics.http_reqs.values.count;
    expect(Math.abs(requests - 25)).toBeLessThanOrEqual(REQUEST_TOLERANCE);
    expect(server.requests() - before).toBe(requests);
    expect(r.summary.metrics.pages.values.count).toBe(requests);
    const checks = r.summary.metrics.checks.values;
    expect(checks.fails).toBe(0);
    expect(checks.passes).toBe(3 * requests);
    const home = (
      r.summary.root_group as unknown as { groups: { name: string; checks: { name: string }[] }[] }
    ).groups.find((g) => g.name === 'home');
    expect(home?.checks.map((c) => c.name).sort()).toEqual(['body is JSON', 'status is 200']);
    expect(r.summary.metrics.iteration_duration.values.min).toBeGreaterThanOrEqual(1000);
  }, 60_000);
});

describe('async lifecycle functions', () => {
  it.each([
    ['an async setup() that throws', 'export async function setup() { throw new Error("boom async"); }'],
    [
      'a setup() whose promise rejects',
      'export function setup() { return Promise.reject(new Error("boom promise")); }',
    ],
  ])(
    "%s fails at once with the script's error and k6's exit code 107",
    async (_, setup) => {
      const r = await runScript(
        `export const options = { vus: 1, iterations: 1, setupTimeout: '30s' };\n${setup}\nexport default function () {}\n`,
      );
      expect(r.code).toBe(107);
      expect(r.stderr).toMatch(/setup\(\) failed: Error: boom (async|promise)/);
      expect(r.stderr).not.toMatch(/DataCloneError|timed out/);
      expect(r.elapsedMs).toBeLessThan(20_000); // not the 30 s setupTimeout
    },
    60_000,
  );
});

describe('Ctrl-C', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('ends the run as k6 does: teardown() and handleSummary() still run with the figures so far, exit 105', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 10, duration: '60s', preAllocatedVUs: 2 } } };
let told = false;
export default function () { if (!told) { told = true; console.log('iterating'); } http.get(__ENV.BASE_URL + '/'); }
export function teardown() { console.log('teardown ran'); }
export function handleSummary(data) { return { stdout: 'requests=' + data.metrics.http_reqs.values.count + '\\n' }; }
`,
      [],
      { BASE_URL: server.url },
      // Ctrl-C 2 s into the iterations (from the start, a loaded machine's CLI start took the whole delay).
      { fileName: 'script.js', interruptAfterMs: 2000, interruptAfterOutput: 'iterating' },
    );
    expect(r.code).toBe(105);
    expect(r.elapsedMs).toBeLessThan(30_000); // not the 60 s planned
    expect(r.stderr).toContain('teardown ran');
    expect(r.stdout).toMatch(/requests=[1-9]\d*\n/);
    expect(r.summary.abortReason).toBe("test run was aborted because k6 received a 'interrupt' signal");
  }, 60_000);
});
