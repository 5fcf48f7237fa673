/**
 * `npm run load:capacity`: for each batch-size scenario, the highest arrival rate at which the API
 * meets the SLO (p95 < 200 ms, failures < 1%, every requested iteration started): double the rate
 * until it fails, then bisect between the last pass and the first failure. Writes the table the
 * original system reported (elevations per minute per scenario) plus req/s and p50/p95/p99 to
 * results/capacity.{json,md}.
 * Env: BASE_URL, SMOKE=1 (short steps: ~2 min in all), CAPACITY_SCENARIOS (comma list),
 * CAPACITY_START_RATE, CAPACITY_STEP (duration of each trial), CAPACITY_DOUBLINGS, CAPACITY_BISECTIONS,
 * CAPACITY_COOLDOWN_MS (pause after a failed trial, then /health must answer fast), FORMAT (opentopo|legacy|both).
 */
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { runTest } from '../runner/engine.ts';
import { TargetGuard } from '../runner/target-guard.ts';

const SMOKE = process.env.SMOKE === '1' || process.env.SMOKE === 'true';
const SCRIPT = path.join(__dirname, '..', 'batch-sizes.ts');
const ALL = ['get_1', 'get_2', 'get_5', 'post_5', 'post_10', 'post_25', 'post_50', 'post_100', 'post_random'];
const P95_LIMIT_MS = 200;
const FAILED_LIMIT = 0.01;
/** Fewer requests than this share of the requested rate means the API (or VUs) could not keep up. */
const MIN_ACHIEVED = 0.95;

const setting = (name: string, full: number, smoke: number) =>
  Number(process.env[name] ?? (SMOKE ? smoke : full));
const step = process.env.CAPACITY_STEP ?? (SMOKE ? '2s' : '30s');
const stepSeconds = Number(/^(\d+(?:\.\d+)?)s$/.exec(step)?.[1] ?? NaN);
if (!Number.isFinite(stepSeconds))
  throw new Error(`CAPACITY_STEP must be in seconds, e.g. 30s (got ${step})`);
const startRate = setting('CAPACITY_START_RATE', 20, 40);
const doublings = setting('CAPACITY_DOUBLINGS', 8, 3);
const bisections = setting('CAPACITY_BISECTIONS', 4, 1);
const scenarios = (process.env.CAPACITY_SCENARIOS ?? ALL.join(',')).split(',').map((s) => s.trim());
const outDir = path.resolve('results');

interface Trial {
  rate: number;
  pass: boolean;
  reqPerSec: number;
  elevationsPerMinute: number;
  p50: number;
  p95: number;
  p99: number;
  failedRate: number;
  dropped: number;
}

async function trial(scenario: string, rate: number, warmUp = false): Promise<Trial> {
  const summaryExport = path.join(outDir, 'capacity-runs', `${scenario}-${rate}.json`);
  await runTest({
    scriptPath: SCRIPT,
    env: {
      ...(process.env as Record<string, string>),
      SCENARIOS: scenario,
      RATE: String(rate),
      SCALE: '1',
      DURATION: step,
      GAP: '2s',
      // setup()'s warm-up once, in the discarded first trial; later trials find the workers warm.
      WARMUP: warmUp ? '2' : '0',
      // VUs for 0.5 s of responses up front: a trial measures the API, not iterations dropped while
      // new VUs initialise (k6 drops those too).
      VUS_PER_RATE: process.env.VUS_PER_RATE ?? '0.5',
      // The profile's own summary of each trial goes beside its run record, not into results/load.
      SUMMARY_FILE: summaryExport.replace(/\.json$/, '-summary.json'),
    },
    tags: { testid: `capacity-${scenario}-${rate}` },
    allowRemote: false,
    overrides: {},
    outputs: process.env.K6_PROMETHEUS_RW_SERVER_URL ? ['experimental-prometheus-rw'] : [],
    progress: false,
    summaryMode: 'compact',
    runRecord: summaryExport,
    log: () => undefined,
  });
  // The scenario's own submetrics (its SLO thresholds make the summary carry them), so setup()'s
  // requests do not count; rates are per second of the trial's duration.
  const s = JSON.parse(readFileSync(summaryExport, 'utf8')) as {
    metrics: Record<string, { values: Record<string, number> } | undefined>;
  };
  const dropped = s.metrics.dropped_iterations?.values.count ?? 0;
  const failed = s.metrics[`http_req_failed{scenario:${scenario}}`]?.values ?? {
    rate: 1,
    passes: 0,
    fails: 0,
  };
  const d = s.metrics[`http_req_duration{scenario:${scenario}}`]?.values ?? {};
  const requests = failed.passes + failed.fails;
  const reqPerSec = requests / stepSeconds;
  const pass =
    requests > 0 &&
    d['p(95)'] < P95_LIMIT_MS &&
    failed.rate < FAILED_LIMIT &&
    dropped === 0 &&
    reqPerSec >= rate * MIN_ACHIEVED;
  const t: Trial = {
    rate,
    pass,
    reqPerSec,
    elevationsPerMinute: ((s.metrics.elevations?.values.count ?? 0) / stepSeconds) * 60,
    p50: d.med ?? NaN,
    p95: d['p(95)'] ?? NaN,
    p99: d['p(99)'] ?? NaN,
    failedRate: failed.rate,
    dropped,
  };
  process.stdout.write(
    `  ${scenario} @ ${rate} req/s: ${pass ? 'pass' : 'FAIL'} (p95 ${t.p95.toFixed(1)} ms, ` +
      `failed ${(t.failedRate * 100).toFixed(2)}%, ${t.reqPerSec.toFixed(1)} req/s, dropped ${t.dropped})\n`,
  );
  return t;
}

const BASE_URL = (process.env.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');
const cooldownMs = setting('CAPACITY_COOLDOWN_MS', 10_000, 2000);
const HEALTHY_MS = 100;

/**
 * After an overloaded trial the API still works off its backlog (and serverless-offline its extra
 * workers): wait, then until /health answers quickly three times in a row (at most 60 s), so the next
 * trial does not inherit the last one's queue.
 */
async function coolDown(): Promise<void> {
  await new Promise((resolve) => setTimeout(resolve, cooldownMs));
  let quick = 0;
  for (let i = 0; i < 120 && quick < 3; i++) {
    const start = performance.now();
    const ok = await fetch(`${BASE_URL}/health`).then(
      (r) => r.ok,
      () => false,
    );
    quick = ok && performance.now() - start < HEALTHY_MS ? quick + 1 : 0;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
}

interface Row {
  scenario: string;
  best?: Trial;
  /** No trial failed: the capacity is at least `best.rate` (the search stopped at its last doubling). */
  atLeast: boolean;
  trials: Trial[];
}

async function searchScenario(scenario: string): Promise<Row> {
  const trials: Trial[] = [];
  let best: Trial | undefined;
  let failed: number | undefined;
  let rate = startRate;
  for (let i = 0; i <= doublings; i++) {
    const t = await trial(scenario, rate);
    trials.push(t);
    if (!t.pass) {
      failed = rate;
      await coolDown();
      break;
    }
    best = t;
    rate *= 2;
  }
  for (let i = 0; i < bisections && failed !== undefined; i++) {
    const low = best?.rate ?? 0;
    const mid = Math.round((low + failed) / 2);
    if (mid <= low || mid >= failed) break;
    const t = await trial(scenario, mid);
    trials.push(t);
    if (t.pass) best = t;
    else {
      failed = mid;
      await coolDown();
    }
  }
  return { scenario, best, atLeast: failed === undefined, trials };
}

function markdown(rows: Row[]): string {
  const lines = [
    `# Capacity (${SMOKE ? 'smoke' : 'full'} search, ${step} per trial, ${new Date().toISOString()})`,
    '',
    `Highest arrival rate meeting p95 < ${P95_LIMIT_MS} ms and < ${FAILED_LIMIT * 100}% failures, per scenario`,
    `(≥: no trial failed up to the search's last doubling; raise CAPACITY_DOUBLINGS to look further).`,
    `Target: ${process.env.BASE_URL ?? 'http://127.0.0.1:3000'}.`,
    '',
    '| scenario | max req/s | elevations/min | p50 ms | p95 ms | p99 ms | failed | trials |',
    '|---|---:|---:|---:|---:|---:|---:|---:|',
  ];
  for (const r of rows) {
    const b = r.best;
    lines.push(
      b
        ? `| ${r.scenario} | ${r.atLeast ? '≥ ' : ''}${b.reqPerSec.toFixed(1)} | ${Math.round(b.elevationsPerMinute)} | ${b.p50.toFixed(1)} | ${b.p95.toFixed(1)} | ${b.p99.toFixed(1)} | ${(b.failedRate * 100).toFixed(2)}% | ${r.trials.length} |`
        : `| ${r.scenario} | below ${startRate} | – | – | – | – | – | ${r.trials.length} |`,
    );
  }
  return `${lines.join('\n')}\n`;
}

async function main(): Promise<void> {
  new TargetGuard(false).check(new URL(process.env.BASE_URL ?? 'http://127.0.0.1:3000').origin);
  // Serverless-offline starts a worker per concurrent request: one discarded trial warms them up, so the
  // first scenario is not measured against cold starts the later ones never see.
  process.stdout.write('warm-up trial (not recorded):\n');
  await trial(scenarios[0], startRate, true);
  const rows = [];
  for (const scenario of scenarios) rows.push(await searchScenario(scenario));
  mkdirSync(outDir, { recursive: true });
  writeFileSync(
    path.join(outDir, 'capacity.json'),
    `${JSON.stringify({ smoke: SMOKE, step, rows }, null, 2)}\n`,
  );
  const md = markdown(rows);
  writeFileSync(path.join(outDir, 'capacity.md'), md);
  process.stdout.write(
    `\n${md}\nwritten: ${path.join(outDir, 'capacity.json')}, ${path.join(outDir, 'capacity.md')}\n`,
  );
}

// Exit explicitly once the results are written: the runner's keep-alive sockets and VU threads would otherwise
// keep the process alive after the search (CI waited on it).
main().then(
  () => process.exit(0),
  (err: Error) => {
    process.stderr.write(`capacity search failed: ${err.message}\n`);
    process.exit(1);
  },
);
