/**
 * `npm run price:observability` — the price of observability, as the original system measured it:
 * the same bounded POST-50 load against serverless-offline with tracing on/off × logging on/off
 * (metrics stay on: they are one EMF document per request in every configuration). Writes
 * results/observability-price.{md,json} and prints the table; target: full ≤ 5% below none.
 *
 * Toggles: tracing = POWERTOOLS_TRACE_ENABLED (true/false), logging = POWERTOOLS_LOG_LEVEL (INFO/SILENT).
 * Traces are sampled as X-Ray samples in AWS by default (first request each second + 5%); set
 * PRICE_XRAY_SAMPLE_RATE=1 to price tracing every request.
 * Settings: PRICE_DURATION_S (20), PRICE_WARMUP_S (3), PRICE_CONCURRENCY (4), PRICE_POINTS (50),
 * PRICE_ROUNDS (2: the configurations run in order, then in reverse, and rows are the means, so slow
 * drift of a shared machine does not favour whichever configuration ran first),
 * OTLP_HTTP_ENDPOINT (where the bridge sends spans; default: a closed port, so export fails fast and
 * is counted — the API-side cost is the same).
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { startDataServer } from './data-server';
import { runPostLoad, type LoadResult } from './observability-price/post-load';
import { freePort } from './start/free-port';
import { spawnServerlessOffline } from './start/serverless-offline';

const ROOT = path.resolve(__dirname, '..');
const CONFIGS = [
  { name: 'none', tracing: false, logging: false },
  { name: 'tracing only', tracing: true, logging: false },
  { name: 'logging only', tracing: false, logging: true },
  { name: 'full', tracing: true, logging: true },
] as const;
const SAMPLE_BOUNDS = { south: 48.6, north: 48.9, west: 9.0, east: 9.3 }; // the bundled sample dataset
const TARGET_MAX_COST = 0.05;

const num = (name: string, fallback: number): number => {
  const value = Number(process.env[name] ?? fallback);
  if (!Number.isFinite(value) || value <= 0) throw new Error(`${name} must be a positive number`);
  return value;
};

interface Row extends LoadResult {
  config: string;
  /** CPU time serverless-offline (and its worker threads) spent per answered request. */
  cpuMsPerRequest: number;
  xrayDocuments: number;
  logLines: number;
}

async function main(): Promise<void> {
  const durationMs = num('PRICE_DURATION_S', 20) * 1000;
  const warmupMs = num('PRICE_WARMUP_S', 3) * 1000;
  const concurrency = num('PRICE_CONCURRENCY', 4);
  const points = num('PRICE_POINTS', 50);
  const rounds = num('PRICE_ROUNDS', 2);
  const dataServer = await startDataServer({ root: path.join(ROOT, 'layers/dem-sample'), port: 0 });
  const bridge = await startBridgeChild();
  const runs: Row[] = [];
  const schedule = Array.from({ length: rounds }, (_, round) =>
    round % 2 === 0 ? CONFIGS : [...CONFIGS].reverse(),
  ).flat();
  try {
    for (const [index, config] of schedule.entries()) {
      let logLines = 0;
      const workFolder = `.build/price-${process.pid}-${index}`;
      const offline = spawnServerlessOffline({
        serviceDir: ROOT,
        httpPort: await freePort(),
        lambdaPort: await freePort(),
        env: {
          CONFIG_PATH: 'layers/dem-sample/config.yaml',
          DATA_ROOT: dataServer.url,
          ESBUILD_WORK_FOLDER: workFolder,
          POWERTOOLS_TRACE_ENABLED: String(config.tracing),
          POWERTOOLS_LOG_LEVEL: config.logging ? 'INFO' : 'SILENT',
          XRAY_SAMPLE_RATE: process.env.PRICE_XRAY_SAMPLE_RATE ?? '',
          AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${bridge.xrayPort}`,
          AWS_EMF_AGENT_ENDPOINT: `udp://127.0.0.1:${bridge.emfPort}`,
        },
        output: (text) => (logLines += text.split('"message":"request"').length - 1),
      });
      try {
        await offline.ready;
        const load = {
          baseUrl: offline.baseUrl,
          dataset: 'sample',
          points,
          concurrency,
          bounds: SAMPLE_BOUNDS,
        };
        await runPostLoad({ ...load, durationMs: warmupMs, seed: 1 });
        const before = await bridge.xrayDocuments();
        logLines = 0;
        const cpuBefore = processCpuMs(offline.pid);
        const result = await runPostLoad({ ...load, durationMs, seed: 2 });
        const cpuMs = processCpuMs(offline.pid) - cpuBefore;
        await new Promise((r) => setTimeout(r, 500)); // let the last datagrams and log lines arrive
        runs.push({
          config: config.name,
          ...result,
          cpuMsPerRequest: cpuMs / Math.max(1, result.requests - result.failures),
          xrayDocuments: (await bridge.xrayDocuments()) - before,
          logLines,
        });
        process.stderr.write(`price: ${config.name}: ${result.elevationsPerMin} elevations/min\n`);
      } finally {
        await offline.stop();
        fs.rmSync(path.join(ROOT, workFolder), { recursive: true, force: true });
      }
    }
  } finally {
    bridge.child.kill('SIGTERM');
    await dataServer.close();
  }
  report(meanRows(runs), { durationMs, concurrency, points, rounds });
}

function meanRows(runs: Row[]): Row[] {
  return CONFIGS.map(({ name }) => {
    const mine = runs.filter((r) => r.config === name);
    const mean = (key: keyof LoadResult): number => mine.reduce((a, r) => a + r[key], 0) / mine.length;
    const sum = (key: 'requests' | 'failures' | 'elevations' | 'xrayDocuments' | 'logLines'): number =>
      mine.reduce((a, r) => a + r[key], 0);
    return {
      config: name,
      requests: sum('requests'),
      failures: sum('failures'),
      elevations: sum('elevations'),
      elevationsPerMin: Math.round(mean('elevationsPerMin')),
      p50Ms: mean('p50Ms'),
      p95Ms: mean('p95Ms'),
      cpuMsPerRequest: mine.reduce((a, r) => a + r.cpuMsPerRequest, 0) / mine.length,
      xrayDocuments: sum('xrayDocuments'),
      logLines: sum('logLines'),
    };
  });
}

/**
 * user+system CPU of a process (all its threads) from /proc, in ms. Throughput on a shared machine
 * swings with other people's load; CPU spent per request does not, so the cost ratio uses both.
 */
function processCpuMs(pid: number): number {
  try {
    const stat = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / 100; // utime + stime, USER_HZ = 100
  } catch {
    return NaN;
  }
}

/** The telemetry bridge as its own process (as in the stack), on free ports. */
async function startBridgeChild(): Promise<{
  child: ChildProcess;
  xrayPort: number;
  emfPort: number;
  xrayDocuments(): Promise<number>;
}> {
  const [metricsPort, xrayPort, emfPort, closedPort] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'stack/bridge/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      BRIDGE_METRICS_PORT: String(metricsPort),
      XRAY_PORT: String(xrayPort),
      EMF_PORT: String(emfPort),
      OTLP_HTTP_ENDPOINT: process.env.OTLP_HTTP_ENDPOINT || `http://127.0.0.1:${closedPort}`,
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const xrayDocuments = async (): Promise<number> => {
    const text = await (await fetch(`http://127.0.0.1:${metricsPort}/metrics`)).text();
    return Number(/telemetry_bridge_xray_documents_total\{result="accepted"\} (\d+)/.exec(text)?.[1] ?? 0);
  };
  for (let i = 0; ; i++) {
    if (
      await xrayDocuments().then(
        () => true,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('bridge did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, xrayPort, emfPort, xrayDocuments };
}

function report(
  rows: Row[],
  setup: { durationMs: number; concurrency: number; points: number; rounds: number },
): void {
  const none = rows.find((r) => r.config === 'none');
  const full = rows.find((r) => r.config === 'full');
  const ratio = none && full ? full.elevationsPerMin / none.elevationsPerMin : NaN;
  const cpuRatio = none && full ? none.cpuMsPerRequest / full.cpuMsPerRequest : NaN;
  const lines = [
    `# Price of observability (POST-${setup.points}, ${setup.concurrency} clients, ${setup.rounds} × ${setup.durationMs / 1000} s per configuration)`,
    '',
    `Measured ${new Date().toISOString()} against serverless-offline on this machine; metrics (EMF) on in every row; trace sampling ${process.env.PRICE_XRAY_SAMPLE_RATE ? `fixed ${process.env.PRICE_XRAY_SAMPLE_RATE}` : "X-Ray's default rule (1 request/s per worker + 5%)"}; rows are means over rounds (p50/p95 are means of per-round percentiles).`,
    '',
    '| configuration | elevations/min | p50 ms | p95 ms | CPU ms/request | requests | failures | X-Ray documents | wide log lines |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.config} | ${r.elevationsPerMin} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.requests} | ${r.failures} | ${r.xrayDocuments} | ${r.logLines} |`,
    ),
    '',
    `throughput full / none = ${ratio.toFixed(3)} (cost ${((1 - ratio) * 100).toFixed(1)} %; target ≤ ${TARGET_MAX_COST * 100} %: ${1 - ratio <= TARGET_MAX_COST ? 'met' : 'NOT met'})`,
    `CPU-bound capacity full / none = ${cpuRatio.toFixed(3)} (cost ${((1 - cpuRatio) * 100).toFixed(1)} %: none's CPU per request / full's; robust to other load on the machine)`,
  ];
  // A toggle that did not reach the handlers would make the comparison meaningless: say so.
  for (const r of rows) {
    const tracing = r.config === 'full' || r.config === 'tracing only';
    const logging = r.config === 'full' || r.config === 'logging only';
    if (tracing !== r.xrayDocuments > 0 || logging !== r.logLines > 0) {
      lines.push(
        `WARNING: ${r.config}: toggles not applied (X-Ray documents ${r.xrayDocuments}, log lines ${r.logLines})`,
      );
    }
  }
  const text = `${lines.join('\n')}\n`;
  fs.mkdirSync(path.join(ROOT, 'results'), { recursive: true });
  fs.writeFileSync(path.join(ROOT, 'results/observability-price.md'), text);
  fs.writeFileSync(
    path.join(ROOT, 'results/observability-price.json'),
    `${JSON.stringify({ setup, rows, ratio, cpuRatio }, null, 2)}\n`,
  );
  process.stdout.write(text);
}

main().catch((error: Error) => {
  process.stderr.write(`price: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
