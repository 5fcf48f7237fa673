/**
 * k6/execution and k6 functions that used to do nothing here: VU tags set by the script
 * (exec.vu.metrics.tags) are on every later sample of that VU, iterations included; randomSeed()
 * makes Math.random reproducible; exec.test.fail() marks the run failed (exit 110) and lets it go on.
 * And what k6's own examples showed: console output of a VU is never lost at the end of the test,
 * data_sent counts the bytes on the wire, Metric.add() returns true, a Hasher digests more than once,
 * console.assert logs at error level.
 */
import { createHash } from 'node:crypto';
import net from 'node:net';
import { closeServer, count, listenLocal, runScript, startServer, type LocalServer } from './harness';

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

  it("a VU's console output is all there when the test ends (written before the call returns)", async () => {
    const script = `export const options = { iterations: 1 };
export default function () {
  for (let i = 0; i < 2000; i++) console.log('line ' + i + ' ' + 'x'.repeat(200));
}`;
    // Through the worker's stderr stream, a run in three lost lines at exit; four runs at once.
    const runs = await Promise.all([1, 2, 3, 4].map(() => runScript(script)));
    expect(runs.map((r) => r.stderr.split('source=console').length - 1)).toEqual([2000, 2000, 2000, 2000]);
  }, 60_000);

  it('data_sent is what went on the wire', async () => {
    let received = 0;
    const raw = net.createServer((socket) => {
      socket.on('data', (chunk: Buffer) => {
        received += chunk.length;
        // One answer per request (each request here fits in one chunk and has a small body).
        for (let i = 0; i < chunk.toString('latin1').split(/^(?:GET|POST) /m).length - 1; i++)
          socket.write('HTTP/1.1 200 OK\r\ncontent-length: 2\r\n\r\nok');
      });
    });
    const port = new URL(await listenLocal(raw)).port;
    try {
      const r = await runScript(`import http from 'k6/http';
export const options = { iterations: 1 };
export default function () {
  http.get('http://127.0.0.1:${port}/a?b=c');
  http.post('http://127.0.0.1:${port}/p', 'hello', { headers: { 'X-Trace': 'ü1' } });
  http.get('http://127.0.0.1:${port}/n', { headers: { Host: 'example.test' } });
}`);
      expect(r.code).toBe(0);
      expect(received).toBeGreaterThan(300);
      expect(count(r.summary, 'data_sent')).toBe(received);
    } finally {
      await closeServer(raw);
    }
  }, 30_000);

  it('Metric.add() returns true, a Hasher digests again after more updates, console.assert logs an error', async () => {
    const r = await runScript(
      `import { check } from 'k6';
import crypto from 'k6/crypto';
import { Rate, Counter } from 'k6/metrics';
const rate = new Rate('my_rate');
const counter = new Counter('my_counter');
export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
export default function () {
  const h = crypto.createHash('sha256');
  h.update('hello ');
  const first = h.digest('hex');
  h.update('world!');
  const hmac = crypto.createHMAC('sha256', 'a secret');
  hmac.update('my data');
  const once = hmac.digest('hex');
  check(null, {
    'add returns true': () => rate.add(false) === true && counter.add(1) === true,
    'digest again': () => first === crypto.sha256('hello ', 'hex') && h.digest('hex') === crypto.sha256('hello world!', 'hex'),
    'hmac digest again': () => hmac.digest('hex') === once && once === crypto.hmac('sha256', 'a secret', 'my data', 'hex'),
  });
  console.assert(1 === 2, 'one is not two');
  console.assert(true, 'never printed');
}`,
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 3, fails: 0 });
    expect(r.stderr).toContain('level=error msg="Assertion failed: one is not two"');
    expect(r.stderr).not.toContain('never printed');
  }, 30_000);

  it("an exception's stack trace names the script's own files and lines, not the bundle's", async () => {
    const r = await runScript(
      `import { explode } from './lib.ts';
export const options = { iterations: 1 };

export default function () {
  explode(3);
}`,
      [],
      {},
      {
        fileName: 'main.ts',
        files: {
          'lib.ts':
            '// a helper\nexport function explode(n: number): never {\n  throw new Error(`exploded ${n}`);\n}\n',
        },
      },
    );
    const trace = r.stderr.slice(r.stderr.indexOf('ERRO Error: exploded 3'));
    expect(trace).toMatch(
      /^ERRO Error: exploded 3\n\s+at explode \(.*\/lib\.ts:3:9\)\n\s+at main_default \(.*\/main\.ts:5:3\)/,
    );
    expect(trace.split('source=stacktrace')[0]).not.toContain('worker eval');
  }, 30_000);

  it("handleSummary's groups and checks carry k6's ids (the MD5 of their path)", async () => {
    const r = await runScript(
      `import { check, group } from 'k6';
export const options = { iterations: 1 };
export default function () { group('g', () => check(1, { c: () => true })); }
export function handleSummary(data) { return { stdout: JSON.stringify(data.root_group) }; }`,
    );
    const md5 = (t: string) => createHash('md5').update(t).digest('hex');
    const root = JSON.parse(r.stdout.slice(r.stdout.indexOf('{"'))) as {
      id: string;
      groups: { path: string; id: string; checks: { path: string; id: string }[] }[];
    };
    expect(root.id).toBe('d41d8cd98f00b204e9800998ecf8427e');
    expect(root.groups[0]).toMatchObject({ path: '::g', id: md5('::g') });
    expect(root.groups[0].checks[0]).toMatchObject({ path: '::g::c', id: md5('::g::c') });
  }, 30_000);

  it('vus and vus_max are sampled for a run shorter than a second; vus_max counts the VUs initialised', async () => {
    const r = await runScript(`export const options = { vus: 3, iterations: 3 };
export default function () {}`);
    expect(r.code).toBe(0);
    expect(r.summary.metrics.vus.values).toMatchObject({ max: 3 });
    expect(r.summary.metrics.vus_max.values).toMatchObject({ min: 3, max: 3 });
  }, 30_000);
});
