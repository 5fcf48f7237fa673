/**
 * k6/execution and k6 functions that used to do nothing here: VU tags set by the script
 * (exec.vu.metrics.tags) are on every later sample of that VU, iterations included; randomSeed()
 * makes Math.random reproducible; exec.test.fail() marks the run failed (exit 110) and lets it go on.
 */
import { count, runScript, startServer, type LocalServer } from './harness';

const EXIT_MARKED_AS_FAILED = 110;
const EXIT_THRESHOLDS = 99;

describe('k6/execution and k6 module', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('a tag set on exec.vu.metrics.tags is on the VU samples from then on, across iterations', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import exec from 'k6/execution';
import { check } from 'k6';
export const options = {
  vus: 1,
  iterations: 3,
  thresholds: {
    'http_reqs{phase:warm}': ['count==2'],
    'http_reqs{phase:cold}': ['count==1'],
    'iterations{phase:warm}': ['count==2'],
    'checks{phase:cold}': ['rate==1'],
  },
};
export default function () {
  if (exec.vu.iterationInScenario === 0) exec.vu.metrics.tags.phase = 'cold';
  else exec.vu.metrics.tags['phase'] = 'warm';
  check(exec.vu.tags, { 'tags read back': (t) => t.phase === (exec.vu.iterationInScenario === 0 ? 'cold' : 'warm') && t.scenario === 'default' });
  http.get(__ENV.BASE_URL + '/');
}`,
      [],
      { BASE_URL: server.url },
    );
    expect(r.code).toBe(0);
    expect(r.summary.thresholds.map((t) => [t.metric, t.ok])).toEqual([
      ['http_reqs{phase:warm}', true],
      ['http_reqs{phase:cold}', true],
      ['iterations{phase:warm}', true],
      ['checks{phase:cold}', true],
    ]);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 3, fails: 0 });
  }, 30_000);

  it('a tag value that is not a string, number or boolean is an error, not dropped', async () => {
    const r = await runScript(
      `import exec from 'k6/execution';
export const options = { iterations: 1 };
export default function () { exec.vu.metrics.tags.bad = { a: 1 }; }`,
    );
    expect(r.stderr).toContain('only String, Boolean and Number types are accepted');
  }, 30_000);

  it('randomSeed() makes Math.random reproducible', async () => {
    const script = (seed: number) => `import { randomSeed } from 'k6';
export const options = { iterations: 1 };
export default function () {
  randomSeed(${seed});
  console.log('draws ' + [Math.random(), Math.random(), Math.random()].join(','));
}`;
    const draws = (stderr: string) => /draws ([\d.,e-]+)/.exec(stderr)?.[1];
    const a = draws((await runScript(script(42))).stderr);
    const b = draws((await runScript(script(42))).stderr);
    const c = draws((await runScript(script(7))).stderr);
    expect(a).toMatch(/^0\.\d+,0\.\d+,0\.\d+$/);
    expect(b).toBe(a);
    expect(c).not.toBe(a);
  }, 30_000);

  it('exec.test.fail() lets the run finish and exits 110; failed thresholds still exit 99', async () => {
    const r = await runScript(
      `import exec from 'k6/execution';
import http from 'k6/http';
export const options = { iterations: 3 };
export default function () {
  http.get(__ENV.BASE_URL + '/');
  if (exec.scenario.iterationInTest === 0) exec.test.fail('first iteration saw something wrong');
}`,
      [],
      { BASE_URL: server.url },
    );
    expect(r.code).toBe(EXIT_MARKED_AS_FAILED);
    expect(count(r.summary, 'iterations')).toBe(3);
    expect(r.stderr).toContain('first iteration saw something wrong');
    expect(r.stdout).toContain('test run was marked as failed');
    const both = await runScript(
      `import exec from 'k6/execution';
export const options = { iterations: 1, thresholds: { iterations: ['count>5'] } };
export default function () { exec.test.fail('and thresholds'); }`,
    );
    expect(both.code).toBe(EXIT_THRESHOLDS);
  }, 30_000);
});
