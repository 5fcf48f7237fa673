/**
 * k6's script options beyond scenarios and thresholds, as k6 applies them: userAgent, discardResponseBodies
 * (and responseType), throw, rps, batch/batchPerHost, noConnectionReuse, minIterationDuration,
 * noSetup/noTeardown, setupTimeout/teardownTimeout, summaryTimeUnit, hosts, blockHostnames/blacklistIPs;
 * request headers merged without case;
 * a k6 option the runner does not implement, or one k6 does not know, is a warning, never silently dropped;
 * an option of the wrong type is invalid config (exit 104).
 */
import http from 'node:http';
import { blacklistedRange, blockedPattern, checkOptions } from '../../../loadtests/runner/options';
import { envName, envOverrides, overrideValue } from '../../../loadtests/runner/overrides';
import { closeServer, count, listenLocal, runScript } from './harness';

const EXIT_INVALID_CONFIG = 104;
const EXIT_SETUP_TIMEOUT = 100;
const EXIT_TEARDOWN_TIMEOUT = 101;

interface Seen {
  path: string;
  at: number;
  headers: string[];
  socket: number;
}

describe('k6 options', () => {
  let server: http.Server;
  let url = '';
  let seen: Seen[] = [];
  let inFlight = 0;
  let maxInFlight = 0;
  const sockets = new WeakMap<object, number>();
  let nextSocket = 0;
  beforeAll(async () => {
    server = http.createServer((req, res) => {
      if (!sockets.has(req.socket)) sockets.set(req.socket, ++nextSocket);
      seen.push({
        path: req.url ?? '',
        at: performance.now(),
        headers: req.rawHeaders,
        socket: sockets.get(req.socket) ?? 0,
      });
      inFlight++;
      maxInFlight = Math.max(maxInFlight, inFlight);
      const answer = () => {
        inFlight--;
        if (req.url === '/bytes') {
          res.writeHead(200, { 'content-type': 'application/octet-stream' });
          res.end(Buffer.from(Array.from({ length: 256 }, (_, i) => i)));
        } else {
          res.writeHead(200, { 'content-type': 'application/json' });
          res.end('{"status":"OK"}');
        }
      };
      const slow = /^\/slow\/(\d+)/.exec(req.url ?? '');
      if (slow) setTimeout(answer, Number(slow[1]));
      else answer();
    });
    url = await listenLocal(server);
  });
  beforeEach(() => {
    seen = [];
    maxInFlight = 0;
  });
  afterAll(() => closeServer(server));
  const env = () => ({ BASE_URL: url });
  const headerValues = (s: Seen, name: string) =>
    s.headers.filter((_, i) => i % 2 === 1 && s.headers[i - 1].toLowerCase() === name);

  it('sends one User-Agent (the option, or the request header that replaces it) and one Content-Type', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1, userAgent: 'MyK6UserAgentString/1.0' };
export default function () {
  http.get(__ENV.BASE_URL + '/default');
  http.get(__ENV.BASE_URL + '/own', { headers: { 'User-Agent': 'per-request/2.0' } });
  http.post(__ENV.BASE_URL + '/form', { a: '1' }, { headers: { 'Content-Type': 'application/x-www-form-urlencoded; charset=utf-8' } });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    const byPath = Object.fromEntries(seen.map((s) => [s.path, s]));
    expect(headerValues(byPath['/default'], 'user-agent')).toEqual(['MyK6UserAgentString/1.0']);
    expect(headerValues(byPath['/own'], 'user-agent')).toEqual(['per-request/2.0']);
    expect(headerValues(byPath['/form'], 'content-type')).toEqual([
      'application/x-www-form-urlencoded; charset=utf-8',
    ]);
  }, 30_000);

  it("discardResponseBodies: bodies are null unless a request asks for one; responseType 'binary' gives the bytes", async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, discardResponseBodies: true, thresholds: { checks: ['rate==1'] } };
export default function () {
  const discarded = http.get(__ENV.BASE_URL + '/');
  const text = http.get(__ENV.BASE_URL + '/', { responseType: 'text' });
  const bytes = http.get(__ENV.BASE_URL + '/bytes', { responseType: 'binary' });
  const view = new Uint8Array(bytes.body);
  check(null, {
    'discarded body is null': () => discarded.body === null,
    'text body kept': () => text.json('status') === 'OK',
    'binary body is an ArrayBuffer of every byte': () =>
      bytes.body instanceof ArrayBuffer && bytes.body.byteLength === 256 && view.every((b, i) => b === i),
  });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.checks.values).toMatchObject({ passes: 3, fails: 0 });
  }, 30_000);

  it('throw: a request that gets no response throws (its metrics recorded); without it, it returns the error', async () => {
    const script = (option: string) => `import http from 'k6/http';
import { Counter } from 'k6/metrics';
const thrown = new Counter('thrown');
export const options = { iterations: 1${option} };
export default function () {
  try {
    const res = http.get('http://127.0.0.1:1/closed');
    if (res.error_code !== 1212) throw new Error('expected connection refused, got ' + res.error_code);
  } catch (e) {
    thrown.add(1);
  }
}`;
    const withThrow = await runScript(script(', throw: true'));
    const without = await runScript(script(''));
    expect(withThrow.code).toBe(0);
    expect(count(withThrow.summary, 'thrown')).toBe(1);
    expect(count(withThrow.summary, 'http_reqs')).toBe(1);
    expect(withThrow.summary.metrics.http_req_failed.values).toMatchObject({ passes: 1 });
    expect(without.code).toBe(0);
    expect(count(without.summary, 'thrown')).toBe(0);
    expect(without.stderr).toContain('Request Failed');
  }, 30_000);

  it('rps: requests of all VUs together are spaced 1/rps apart', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { vus: 4, iterations: 12, rps: 20 };
export default function () { http.get(__ENV.BASE_URL + '/'); }`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(seen).toHaveLength(12);
    const at = seen.map((s) => s.at).sort((a, b) => a - b);
    const gaps = at.slice(1).map((t, i) => t - at[i]);
    // 50 ms apart, less the timer's and the sockets' jitter (a full run on a loaded machine saw a 21.7 ms gap); 4 VUs
    // without the limit send at once, 0-2 ms apart.
    expect(Math.min(...gaps)).toBeGreaterThan(10);
    // Each VU's first request opens its connection and arrives late by its setup (a CI run saw the first 17 ms
    // late, 532.6 ms over 11 gaps): the average spacing is judged from the fifth on, all over open connections.
    expect(at[11] - at[4]).toBeGreaterThanOrEqual(7 * 50 - 25);
  }, 30_000);

  it("http.batch() runs at most batchPerHost (default 6) of one host's requests at a time, and at most batch", async () => {
    const script = (option: string) => `import http from 'k6/http';
export const options = { iterations: 1${option} };
export default function () {
  http.batch(Array.from({ length: 12 }, (_, i) => __ENV.BASE_URL + '/slow/150?' + i));
}`;
    const runs: [string, number][] = [
      ['', 6],
      [', batchPerHost: 2', 2],
      [', batch: 3, batchPerHost: 0', 3],
      [', batch: 0, batchPerHost: 0', 12],
    ];
    for (const [option, limit] of runs) {
      maxInFlight = 0;
      const r = await runScript(script(option), [], env());
      expect(r.code).toBe(0);
      expect(count(r.summary, 'http_reqs')).toBe(12);
      expect({ option, maxInFlight }).toEqual({ option, maxInFlight: limit });
    }
  }, 60_000);

  it('noConnectionReuse: every request on its own connection (one kept-alive connection without it)', async () => {
    const script = (option: string) => `import http from 'k6/http';
export const options = { iterations: 5${option} };
export default function () { http.get(__ENV.BASE_URL + '/'); }`;
    await runScript(script(''), [], env());
    expect(new Set(seen.map((s) => s.socket)).size).toBe(1);
    seen = [];
    await runScript(script(', noConnectionReuse: true'), [], env());
    expect(seen).toHaveLength(5);
    expect(new Set(seen.map((s) => s.socket)).size).toBe(5);
  }, 30_000);

  it('minIterationDuration pads short iterations (the pause not in iteration_duration)', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { vus: 1, iterations: 2, minIterationDuration: '1s' };
export default function () { http.get(__ENV.BASE_URL + '/?started=' + Date.now()); }`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'iterations')).toBe(2);
    // When each iteration started (its first statement), not when its request arrived: the first
    // request also opens the connection, so arrivals are closer than the iterations' starts. The engine pads
    // from when it starts an iteration (performance.now()); the script's Date.now() in the VU's thread sees
    // that start a message's latency later, which varies by a millisecond or so (CI once read 999). Unpadded,
    // the two would be milliseconds apart.
    const started = seen.map((s) => Number(new URL(s.path, 'http://x').searchParams.get('started')));
    expect(started[1] - started[0]).toBeGreaterThanOrEqual(990);
    expect(r.summary.metrics.iteration_duration.values.max).toBeLessThan(990);
  }, 30_000);

  it('noSetup and noTeardown skip those functions', async () => {
    const r = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1, noSetup: true, noTeardown: true };
export function setup() { http.get(__ENV.BASE_URL + '/setup'); return { from: 'setup' }; }
export default function (data) { http.get(__ENV.BASE_URL + '/iteration?' + (data === undefined)); }
export function teardown() { http.get(__ENV.BASE_URL + '/teardown'); }`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
    expect(seen.map((s) => s.path)).toEqual(['/iteration?true']);
  }, 30_000);

  it('setupTimeout and teardownTimeout end the run with exit codes 100 and 101', async () => {
    const setup = await runScript(
      `import { sleep } from 'k6';
export const options = { setupTimeout: '1s' };
export function setup() { sleep(100); }
export default function () {}`,
    );
    expect(setup.code).toBe(EXIT_SETUP_TIMEOUT);
    expect(setup.stderr).toContain('setup() execution timed out after 1 seconds');
    expect(setup.elapsedMs).toBeLessThan(20_000);
    const teardown = await runScript(
      `import http from 'k6/http';
export const options = { iterations: 1, teardownTimeout: '500ms' };
export default function () {}
export function teardown() { http.get(__ENV.BASE_URL + '/slow/5000'); }`,
      [],
      env(),
    );
    expect(teardown.code).toBe(EXIT_TEARDOWN_TIMEOUT);
    expect(teardown.stderr).toContain('teardown() execution timed out');
  }, 60_000);

  it('after a setup() timeout, prints the text summary in place of handleSummary(), without waiting for setup', async () => {
    // VU 0 is still in setup(): calling handleSummary() there took setup's late answer as its own (nothing was
    // printed) or, with setup() in a CPU loop, waited for the loop.
    const r = await runScript(
      `export const options = { setupTimeout: '1s' };
export function setup() { const end = Date.now() + 15000; while (Date.now() < end) {} }
export default function () {}
export function handleSummary() { return { stdout: 'HANDLED' }; }`,
    );
    expect(r.code).toBe(EXIT_SETUP_TIMEOUT);
    expect(r.stderr).toContain('handleSummary() not run: VU 0 is still in the call that timed out');
    expect(r.stdout).not.toContain('HANDLED');
    expect(r.stdout).toContain('iterations');
    expect(r.elapsedMs).toBeLessThan(12_000); // the loop runs 15 s
  }, 60_000);

  it('summaryTimeUnit prints every time of the summary in that unit', async () => {
    const script = (unit: string) => `import http from 'k6/http';
export const options = { iterations: 3, summaryTimeUnit: '${unit}' };
export default function () { http.get(__ENV.BASE_URL + '/'); }`;
    const line = (stdout: string) => stdout.split('\n').find((l) => l.includes('http_req_duration')) ?? '';
    const seconds = line((await runScript(script('s'), [], env())).stdout);
    const micro = line((await runScript(script('us'), [], env())).stdout);
    expect(seconds).toMatch(/avg=\d+\.\d\ds /);
    expect(seconds.match(/=[\d.]+(µs|ms|s)\b/g)?.every((v) => v.endsWith('s') && !/ms$|µs$/.test(v))).toBe(
      true,
    );
    expect(micro.match(/=[\d.]+(µs|ms|s)\b/g)?.every((v) => v.endsWith('µs'))).toBe(true);
  }, 30_000);

  it('a request timeout is a Go duration ("1m30s") or milliseconds, and a late answer is error 1050', async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = { iterations: 1, thresholds: { checks: ['rate==1'] } };
export default function () {
  const long = http.get(__ENV.BASE_URL + '/', { timeout: '1m30s' });
  const late = http.get(__ENV.BASE_URL + '/slow/2000', { timeout: 300 });
  check(null, { 'long timeout accepted': () => long.status === 200, 'late answer timed out': () => late.error_code === 1050 });
}`,
      [],
      env(),
    );
    expect(r.code).toBe(0);
  }, 30_000);

  it('warns about an option k6 does not know and about one this runner does not implement', async () => {
    const r = await runScript(
      `export const options = { iterations: 1, gracefulStop: '5s', dns: { ttl: '1m' }, ext: {} };
export default function () {}`,
    );
    expect(r.code).toBe(0);
    expect(r.stderr).toContain(
      'There were unknown fields in the options exported in the script  error="json: unknown field \\"gracefulStop\\""',
    );
    expect(r.stderr).toContain('option "dns" is not implemented by this runner and has no effect');
    expect(r.stderr).not.toContain('"ext"');
  }, 30_000);

  it('an option of the wrong type or value is invalid config (exit 104)', async () => {
    for (const [option, message] of [
      ["rps: '10'", 'option "rps" must be an integer, got "10"'],
      ["summaryTimeUnit: 'min'", 'option "summaryTimeUnit" must be one of s, ms, us'],
      ["minIterationDuration: 'soon'", 'option "minIterationDuration" must be a duration'],
      ['batchPerHost: -1', 'option "batchPerHost" must not be negative'],
      [
        "hosts: { 'test.k6.io': 'localhost' }",
        'option "hosts": "test.k6.io" must map to an IP address or IP:port',
      ],
    ]) {
      const r = await runScript(`export const options = { iterations: 1, ${option} };
export default function () {}`);
      expect({ option, code: r.code }).toEqual({ option, code: EXIT_INVALID_CONFIG });
      expect(r.stderr).toContain(message);
    }
  }, 60_000);

  it("hosts sends a public name's requests to a loopback address, URL and Host header unchanged", async () => {
    const port = new URL(url).port;
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = {
  iterations: 1,
  hosts: { 'test.k6.io': '127.0.0.1:${port}', '*.grafana.com:8080': '127.0.0.1:${port}' },
  thresholds: { checks: ['rate==1'] },
};
export default function () {
  const exact = http.get('http://test.k6.io/contacts.php');
  const wildcard = http.get('http://quickpizza.grafana.com:8080/api');
  check(null, {
    'exact name answered': () => exact.status === 200 && exact.url === 'http://test.k6.io/contacts.php',
    'wildcard answered': () => wildcard.status === 200,
  });
}`,
    );
    expect(r.code).toBe(0);
    expect(seen.map((s) => [s.path, headerValues(s, 'host')])).toEqual([
      ['/contacts.php', ['test.k6.io']],
      ['/api', ['quickpizza.grafana.com:8080']],
    ]);
    // Not mapped: a public name stays refused (no load leaves loopback without --allow-remote).
    const refused = await runScript(`import http from 'k6/http';
export const options = { iterations: 1, hosts: { 'test.k6.io': '127.0.0.1:${port}' } };
export default function () { http.get('http://other.k6.io/'); }`);
    expect(refused.stderr).toContain('refusing to send load to http://other.k6.io');
  }, 30_000);

  it('blockHostnames and blacklistIPs: a request k6 would not send fails unsent (errors 1111 and 1110)', async () => {
    const port = new URL(url).port;
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
export const options = {
  iterations: 1,
  // The name is checked before hosts maps it, as k6's dialer does; ::1 covered, 127.0.0.1 not.
  hosts: { 'test.k6.io': '127.0.0.1:${port}' },
  blockHostnames: ['*.k6.io'],
  blacklistIPs: ['127.0.0.2/32', '::1/128'],
};
export default function () {
  const named = http.get('http://test.k6.io/named');
  const ip = http.get('http://127.0.0.2:${port}/ip');
  const ok = http.get('http://127.0.0.1:${port}/ok');
  // localhost resolves to ::1 and 127.0.0.1: the transport connects to the one not covered.
  const local = http.get('http://localhost:${port}/local');
  const [b1, b2] = http.batch(['http://127.0.0.2:${port}/batch-ip', 'http://127.0.0.1:${port}/batch-ok']);
  check(null, {
    named: () => named.status === 0 && named.error_code === 1111 &&
      named.error === 'hostname (test.k6.io) is in a blocked pattern (*.k6.io)',
    ip: () => ip.status === 0 && ip.error_code === 1110 &&
      ip.error === 'IP (127.0.0.2) is in a blacklisted range (127.0.0.2/32)',
    ok: () => ok.status === 200,
    local: () => local.status === 200,
    batch: () => b1.error_code === 1110 && b2.status === 200,
  });
}`,
    );
    expect(r.summary.root_group.checks.map((c) => [c.name, c.passes])).toEqual([
      ['named', 1],
      ['ip', 1],
      ['ok', 1],
      ['local', 1],
      ['batch', 1],
    ]);
    expect(seen.map((s) => s.path).sort()).toEqual(['/batch-ok', '/local', '/ok']);
    expect(r.summary.metrics.http_req_failed.values.passes).toBe(3);
    expect(r.stderr).not.toContain('not implemented');

    // A name whose every address is covered is refused where it is resolved; `throw` makes it an exception.
    const covered = (flags: string[]) =>
      runScript(
        `import http from 'k6/http';
export const options = { iterations: 1, blacklistIPs: ['127.0.0.0/8', '::1/128'] };
export default function () {
  const res = http.get('http://localhost:${port}/covered');
  console.log(JSON.stringify([res.error_code, res.error]));
}`,
        flags,
      );
    const refused = await covered([]);
    expect(refused.stderr).toMatch(
      /\[1110,\\?"IP \((127\.0\.0\.1|::1)\) is in a blacklisted range \((127\.0\.0\.0\/8|::1\/128)\)/,
    );
    const thrown = await covered(['--throw']);
    expect(thrown.stderr).toMatch(/GET http:\/\/localhost:\d+\/covered: IP .* is in a blacklisted range/);
    expect(thrown.stderr).not.toContain('[1110');
    expect(seen.map((s) => s.path)).not.toContain('/covered');

    // Their variables and flags, as k6 names them.
    expect(
      envOverrides({ K6_BLACKLIST_IPS: '10.0.0.0/8,::1/128', K6_BLOCK_HOSTNAMES: '*.k6.io' }).options,
    ).toEqual({
      blacklistIPs: ['10.0.0.0/8', '::1/128'],
      blockHostnames: ['*.k6.io'],
    });
  }, 60_000);

  it('blockedPattern and blacklistedRange match as k6 does; a bad entry is invalid config', async () => {
    expect(blockedPattern(['*.k6.io'], 'test.k6.io')).toBe('*.k6.io');
    expect(blockedPattern(['*.k6.io'], 'k6.io')).toBeUndefined();
    expect(blockedPattern(['*k6.io'], 'k6.io')).toBe('*k6.io');
    expect(blockedPattern(['k6.io'], 'K6.IO')).toBe('k6.io');
    expect(blockedPattern(['k6.io'], 'test.k6.io')).toBeUndefined();
    // `*` blocks every name, not an address.
    expect(blockedPattern(['*'], 'example.com')).toBe('*');
    expect(blockedPattern(['*'], '1.2.3.4')).toBeUndefined();
    expect(blockedPattern(['*'], '[::1]')).toBeUndefined();
    expect(blacklistedRange(['10.0.0.0/8'], '10.255.0.1')).toBe('10.0.0.0/8');
    expect(blacklistedRange(['10.0.0.0/8'], '11.0.0.1')).toBeUndefined();
    expect(blacklistedRange(['::/24'], '[::1]')).toBe('::/24');
    expect(blacklistedRange(['10.0.0.0/8'], 'localhost')).toBeUndefined();
    expect(checkOptions({ blockHostnames: ['*.K6.io'] }).settings.blockHostnames).toEqual(['*.k6.io']);
    for (const [option, message] of [
      ["blockHostnames: ['bad host']", 'option "blockHostnames": invalid entry "bad host"'],
      ["blockHostnames: ['a.*.io']", 'option "blockHostnames": invalid entry "a.*.io"'],
      ["blacklistIPs: ['10.0.0.0']", 'option "blacklistIPs": invalid entry "10.0.0.0"'],
      ["blacklistIPs: '10.0.0.0/8'", 'option "blacklistIPs" must be an array of strings'],
    ]) {
      const r = await runScript(`export const options = { iterations: 1, ${option} };
export default function () {}`);
      expect({ option, code: r.code }).toEqual({ option, code: EXIT_INVALID_CONFIG });
      expect(r.stderr).toContain(message);
    }
  }, 60_000);

  it('K6_* variables override the script, flags override both; duration/iterations replace its scenarios', async () => {
    const script = `import http from 'k6/http';
export const options = { scenarios: { one: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } }, userAgent: 'script/1' };
export default function () { http.get(__ENV.BASE_URL + '/'); }`;
    const fromEnv = await runScript(script, [], {
      ...env(),
      K6_VUS: '3',
      K6_ITERATIONS: '6',
      K6_USER_AGENT: 'env/1',
    });
    expect(fromEnv.code).toBe(0);
    expect(count(fromEnv.summary, 'iterations')).toBe(6);
    expect(fromEnv.stdout).toContain('1 scenario, 3 max VUs');
    expect(new Set(seen.map((s) => headerValues(s, 'user-agent')[0]))).toEqual(new Set(['env/1']));
    seen = [];
    const fromFlags = await runScript(script, ['--user-agent', 'flag/1', '--iterations', '2'], {
      ...env(),
      K6_USER_AGENT: 'env/1',
    });
    expect(fromFlags.code).toBe(0);
    expect(count(fromFlags.summary, 'iterations')).toBe(2);
    expect(new Set(seen.map((s) => headerValues(s, 'user-agent')[0]))).toEqual(new Set(['flag/1']));
  }, 30_000);

  it('--vus alone keeps the script duration (as k6), and with scenarios says it has no effect', async () => {
    const timed = await runScript(
      `import http from 'k6/http';
import { sleep } from 'k6';
export const options = { vus: 1, duration: '1s' };
export default function () { http.get(__ENV.BASE_URL + '/'); sleep(0.1); }`,
      ['--vus', '2'],
      env(),
    );
    expect(timed.code).toBe(0);
    expect(timed.stdout).toContain('1 scenario, 2 max VUs');
    expect(count(timed.summary, 'iterations')).toBeGreaterThan(4);
    const scenarios = await runScript(
      `export const options = { scenarios: { one: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } } };
export default function () {}`,
      ['--vus', '4'],
    );
    expect(scenarios.code).toBe(0);
    expect(count(scenarios.summary, 'iterations')).toBe(1);
    expect(scenarios.stderr).toContain('vus=4 has no effect: the script defines scenarios');
  }, 30_000);

  it('--no-thresholds and --no-summary; a K6_* value of the wrong type is invalid config; K6_HOSTS is named', async () => {
    const script = `export const options = { iterations: 1, thresholds: { iterations: ['count>5'] } };
export default function () {}`;
    expect((await runScript(script)).code).toBe(99);
    const noThresholds = await runScript(script, ['--no-thresholds']);
    expect(noThresholds.code).toBe(0);
    expect(noThresholds.stdout).toContain('TOTAL RESULTS');
    const noSummary = await runScript(script, ['--no-summary'], { K6_NO_THRESHOLDS: 'true' });
    expect(noSummary.code).toBe(0);
    expect(noSummary.stdout).not.toContain('TOTAL RESULTS');
    const badBool = await runScript(script, [], { K6_THROW: 'maybe' });
    expect(badBool.code).toBe(EXIT_INVALID_CONFIG);
    expect(badBool.stderr).toContain('K6_THROW: "maybe" is not a boolean');
    const hosts = await runScript(`export default function () {}`, [], { K6_HOSTS: '{"a":"127.0.0.1"}' });
    expect(hosts.stderr).toContain('K6_HOSTS is not read by this runner');
  }, 60_000);

  it('override values as k6 reads them: Go booleans, stages, lists; K6_ names', () => {
    expect(envName('batchPerHost')).toBe('K6_BATCH_PER_HOST');
    expect(overrideValue('K6_THROW', 'boolean', 'T')).toBe(true);
    expect(overrideValue('K6_THROW', 'boolean', '0')).toBe(false);
    expect(overrideValue('K6_STAGES', 'stages', '30s:10,1m:0')).toEqual([
      { duration: '30s', target: 10 },
      { duration: '1m', target: 0 },
    ]);
    expect(overrideValue('--stage', 'stages', '5s:2', [{ duration: '1s', target: 1 }])).toEqual([
      { duration: '1s', target: 1 },
      { duration: '5s', target: 2 },
    ]);
    expect(overrideValue('--summary-trend-stats', 'list', 'avg, p(99)')).toEqual(['avg', 'p(99)']);
    expect(() => overrideValue('K6_VUS', 'integer', '2.5')).toThrow('K6_VUS: "2.5" is not an integer');
    expect(() => overrideValue('K6_STAGES', 'stages', '30s')).toThrow('is not a stage');
  });

  it('checkOptions: defaults as k6, every unknown or unimplemented option named once', () => {
    const { settings, warnings } = checkOptions({
      vus: 2,
      thresholds: {},
      noCookiesReset: true,
      tlsVersion: 'tls1.2',
      timeout: '30s',
      throw: undefined,
    });
    expect(settings).toMatchObject({
      batch: 20,
      batchPerHost: 6,
      rps: 0,
      setupTimeoutMs: 60_000,
      throw: false,
    });
    expect(warnings).toEqual([
      'option "tlsVersion" is not implemented by this runner and has no effect: no TLS options',
      'There were unknown fields in the options exported in the script  error="json: unknown field \\"timeout\\""',
    ]);
  });
});
