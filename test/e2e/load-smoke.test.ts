import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { freePort } from '../../scripts/start/free-port';
import { REPO_ROOT, startStack, type Stack } from './support/stack';

// The smoke settings of every load profile against serverless-offline, thresholds enforced (exit 0),
// in the order CI runs them; then a deliberately impossible SLO (exit 99), and the runs' metrics read
// back from a real Prometheus under k6's remote-write names.
const PROFILES = ['baseline', 'stress', 'spike', 'soak', 'batch-sizes'];

let stack: Stack;
let prometheus: { url: string; process: ChildProcess; dir: string } | undefined;
const workDir = mkdtempSync(path.join(os.tmpdir(), 'load-smoke-'));

async function startPrometheus(): Promise<typeof prometheus> {
  if (spawnSync('prometheus', ['--version']).status !== 0) {
    console.warn(`${PROMETHEUS_MISSING} (apt-get install prometheus)`);
    return undefined;
  }
  const dir = mkdtempSync(path.join(os.tmpdir(), 'load-smoke-prom-'));
  writeFileSync(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 15s\n');
  const port = await freePort();
  const child = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${path.join(dir, 'data')}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--web.enable-remote-write-receiver',
    ],
    { stdio: 'ignore' },
  );
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 100; i++) {
    const ready = await fetch(`${url}/-/ready`).then(
      (r) => r.ok,
      () => false,
    );
    if (ready) return { url, process: child, dir };
    await new Promise((resolve) => setTimeout(resolve, 200));
  }
  throw new Error('prometheus did not become ready');
}

const PROMETHEUS_MISSING = 'prometheus not installed: remote-write check skipped';

/** Which of the series a run must leave in Prometheus are there (k6's remote-write names). */
async function k6SeriesIn(url: string): Promise<Record<string, boolean>> {
  const query = async (q: string) => {
    const res = await fetch(`${url}/api/v1/query?query=${encodeURIComponent(q)}`);
    return ((await res.json()) as { data: { result: { metric: Record<string, string> }[] } }).data.result;
  };
  const reqs = await query('k6_http_reqs_total{scenario="baseline"}');
  return {
    reqs: reqs.length > 0,
    testid: /^baseline-/.test(reqs[0]?.metric.testid ?? ''),
    elevations: (await query('k6_elevations_total')).length > 0,
    p95: (await query('k6_http_req_duration_p95')).length > 0,
    checks: (await query('k6_checks_rate')).length > 0,
  };
}

interface Run {
  code: number;
  output: string;
  summary: { elevations_per_minute: number; thresholds: { metric: string; ok: boolean }[] };
}

async function load(profile: string, env: Record<string, string> = {}): Promise<Run> {
  const summaryFile = path.join(workDir, `${profile}-${Date.now()}.json`);
  const child = spawn(
    'bash',
    ['loadtests/k6.sh', `loadtests/${profile}.ts`, '-q', '-e', `SUMMARY_FILE=${summaryFile}`],
    {
      cwd: REPO_ROOT,
      env: {
        ...process.env,
        SMOKE: '1',
        BASE_URL: stack.baseUrl,
        K6_RUNNER: 'ours', // k6 itself is never installed here; the profile's handleSummary writes the file
        ...(prometheus ? { K6_PROMETHEUS_RW_SERVER_URL: `${prometheus.url}/api/v1/write` } : {}),
        ...env,
      },
    },
  );
  let output = '';
  child.stdout.on('data', (d: Buffer) => (output += d.toString()));
  child.stderr.on('data', (d: Buffer) => (output += d.toString()));
  const code = await new Promise<number>((resolve) => child.on('exit', (c) => resolve(c ?? -1)));
  let summary = { elevations_per_minute: 0, thresholds: [] } as Run['summary'];
  try {
    summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as Run['summary'];
  } catch {
    // No summary: the exit code and output say why.
  }
  return { code, output, summary };
}

beforeAll(async () => {
  [stack, prometheus] = await Promise.all([
    startStack({ env: { POWERTOOLS_LOG_LEVEL: 'WARN' } }),
    startPrometheus(),
  ]);
}, 180_000);

afterAll(async () => {
  await stack?.stop();
  prometheus?.process.kill();
  if (prometheus) rmSync(prometheus.dir, { recursive: true, force: true });
  rmSync(workDir, { recursive: true, force: true });
});

describe('load profiles, smoke settings, against serverless-offline', () => {
  it.each(PROFILES)(
    '%s meets its thresholds (exit 0) and reports elevations per minute',
    async (profile) => {
      const run = await load(profile, { K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s' });
      if (run.code !== 0) console.log(run.output.slice(-6000));
      expect(run.code).toBe(0);
      expect(run.summary.thresholds.length).toBeGreaterThan(0);
      expect(run.summary.elevations_per_minute).toBeGreaterThan(0);
    },
    120_000,
  );

  it('exits 99 when the latency SLO is impossible', async () => {
    const run = await load('baseline', { SLO_P95_MS: '0.001', DURATION: '3s' });
    expect(run.code).toBe(99);
    expect(
      run.summary.thresholds.some((t) => t.metric === 'http_req_duration{scenario:baseline}' && !t.ok),
    ).toBe(true);
  }, 60_000);

  it("leaves the runs' results in Prometheus under k6's metric names", async () => {
    const found = prometheus ? await k6SeriesIn(prometheus.url) : PROMETHEUS_MISSING;
    const all = { reqs: true, testid: true, elevations: true, p95: true, checks: true };
    expect(found).toEqual(prometheus ? all : PROMETHEUS_MISSING);
  }, 30_000);
});
