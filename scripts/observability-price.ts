/**
 * `npm run price:observability` — the price of observability, as the original system measured it:
 * the same bounded POST-50 load against serverless-offline with tracing on/off × logging on/off
 * (metrics stay on: they are one EMF document per request in every configuration). Writes
 * results/observability-price.{md,json} and prints the table; target: full ≤ 5% below none.
 *
 * Toggles: tracing = POWERTOOLS_TRACE_ENABLED (true/false), logging = POWERTOOLS_LOG_LEVEL (INFO/SILENT).
 * Traces are sampled as X-Ray samples in AWS by default (first request each second + 5%); set
 * PRICE_XRAY_SAMPLE_RATE=1 to price tracing every request.
 *
 * A shared 2-core machine swings by ±20% from minute to minute, far more than the 5% being measured. So the
 * four configurations run side by side as four serverless-offline instances, and the load visits them in
 * short slices, round after round, each round in a rotated order: every configuration sees the same
 * machine. Ratios are medians over rounds of full ÷ none within the round, printed with their quartiles:
 * single rounds still differ by ±20%, so read the result as an estimate with that spread.
 * Settings: PRICE_ROUNDS (12), PRICE_SLICE_S (3 s of load per configuration and round), PRICE_WARMUP_S (3),
 * PRICE_CONCURRENCY (4), PRICE_POINTS (50). Ports: BRIDGE_METRICS_PORT, XRAY_PORT (a stand-in daemon that counts
 * X-Ray datagrams), EMF_PORT, as for the stack; unset ones are free ports.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createSocket } from 'node:dgram';
import fs from 'node:fs';
import path from 'node:path';
import { startDataServer } from './data-server';
import { runPostLoad, type LoadResult } from './observability-price/post-load';
import { freePort, parsePort } from './start/free-port';
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

interface Slice {
  round: number;
  config: string;
  result: LoadResult;
  cpuMs: number;
  xrayDocuments: number;
  logLines: number;
}

async function main(): Promise<void> {
  const sliceMs = num('PRICE_SLICE_S', 3) * 1000;
  const warmupMs = num('PRICE_WARMUP_S', 3) * 1000;
  const concurrency = num('PRICE_CONCURRENCY', 4);
  const points = num('PRICE_POINTS', 50);
  const rounds = num('PRICE_ROUNDS', 12);
  const dataServer = await startDataServer({ root: path.join(ROOT, 'layers/dem-sample'), port: 0 });
  const bridge = await startBridgeChild();
  const instances = await Promise.all(
    CONFIGS.map((config, index) => startInstance(config, index, dataServer.url, bridge)),
  );
  const slices: Slice[] = [];
  try {
    await Promise.all(instances.map((i) => i.offline.ready));
    const load = (baseUrl: string) => ({
      baseUrl,
      dataset: 'sample',
      points,
      concurrency,
      bounds: SAMPLE_BOUNDS,
    });
    for (const instance of instances)
      await runPostLoad({ ...load(instance.offline.baseUrl), durationMs: warmupMs, seed: 1 });
    for (let round = 0; round < rounds; round++) {
      // Rotate the order each round so no configuration always follows the same one.
      const order = CONFIGS.map((_, k) => instances[(k + round) % instances.length]);
      for (const instance of order) {
        const documentsBefore = await bridge.xrayDocuments();
        const linesBefore = instance.logLines;
        const cpuBefore = processCpuMs(instance.offline.pid);
        const result = await runPostLoad({
          ...load(instance.offline.baseUrl),
          durationMs: sliceMs,
          seed: 2 + round,
        });
        const cpuMs = processCpuMs(instance.offline.pid) - cpuBefore;
        await new Promise((r) => setTimeout(r, 200)); // the slice's last datagrams and log lines
        const xrayDocuments = (await bridge.xrayDocuments()) - documentsBefore;
        const logLines = instance.logLines - linesBefore;
        slices.push({ round, config: instance.config.name, result, cpuMs, xrayDocuments, logLines });
      }
      process.stderr.write(`price: round ${round + 1}/${rounds}: ${roundSummary(slices, round)}\n`);
    }
  } finally {
    await Promise.all(instances.map((i) => i.stop()));
    bridge.stop();
    await dataServer.close();
  }
  report(aggregate(slices), pairedRatios(slices), { sliceMs, concurrency, points, rounds });
}

interface Instance {
  config: (typeof CONFIGS)[number];
  offline: ReturnType<typeof spawnServerlessOffline>;
  logLines: number;
  stop(): Promise<void>;
}

async function startInstance(
  config: (typeof CONFIGS)[number],
  index: number,
  dataUrl: string,
  bridge: { xrayPort: number; emfPort: number },
): Promise<Instance> {
  const workFolder = `.build/price-${process.pid}-${index}`;
  const instance: Instance = {
    config,
    logLines: 0,
    offline: spawnServerlessOffline({
      serviceDir: ROOT,
      httpPort: await freePort(),
      lambdaPort: await freePort(),
      startTimeoutMs: 120_000,
      env: {
        CONFIG_PATH: 'layers/dem-sample/config.yaml',
        DATA_ROOT: dataUrl,
        ESBUILD_WORK_FOLDER: workFolder,
        POWERTOOLS_TRACE_ENABLED: String(config.tracing),
        POWERTOOLS_LOG_LEVEL: config.logging ? 'INFO' : 'SILENT',
        XRAY_SAMPLE_RATE: process.env.PRICE_XRAY_SAMPLE_RATE ?? '',
        AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${bridge.xrayPort}`,
        AWS_EMF_AGENT_ENDPOINT: `udp://127.0.0.1:${bridge.emfPort}`,
      },
      output: (text) => (instance.logLines += text.split('"message":"request"').length - 1),
    }),
    stop: async () => {
      await instance.offline.stop();
      fs.rmSync(path.join(ROOT, workFolder), { recursive: true, force: true });
    },
  };
  return instance;
}

function roundSummary(slices: Slice[], round: number): string {
  return slices
    .filter((s) => s.round === round)
    .map((s) => `${s.config} ${s.result.elevationsPerMin}/min`)
    .join(', ');
}

/** One row per configuration over all its slices: totals for counts, time-weighted rates, mean percentiles. */
function aggregate(slices: Slice[]): Row[] {
  return CONFIGS.map(({ name }) => {
    const mine = slices.filter((s) => s.config === name);
    const total = (pick: (s: Slice) => number): number => mine.reduce((a, s) => a + pick(s), 0);
    const requests = total((s) => s.result.requests);
    const failures = total((s) => s.result.failures);
    return {
      config: name,
      requests,
      failures,
      elevations: total((s) => s.result.elevations),
      elevationsPerMin: Math.round(total((s) => s.result.elevationsPerMin) / mine.length),
      p50Ms: total((s) => s.result.p50Ms) / mine.length,
      p95Ms: total((s) => s.result.p95Ms) / mine.length,
      cpuMsPerRequest: total((s) => s.cpuMs) / Math.max(1, requests - failures),
      xrayDocuments: total((s) => s.xrayDocuments),
      logLines: total((s) => s.logLines),
    };
  });
}

interface Ratios {
  /** Per round, full's throughput ÷ none's. */
  throughput: number[];
  /** Per round, none's CPU per request ÷ full's (capacity when CPU-bound). */
  cpu: number[];
}

function pairedRatios(slices: Slice[]): Ratios {
  const ratios: Ratios = { throughput: [], cpu: [] };
  const rounds = new Set(slices.map((s) => s.round));
  const cpuPerRequest = (s: Slice) => s.cpuMs / Math.max(1, s.result.requests - s.result.failures);
  for (const round of rounds) {
    const none = slices.find((s) => s.round === round && s.config === 'none');
    const full = slices.find((s) => s.round === round && s.config === 'full');
    if (!none || !full) continue;
    ratios.throughput.push(full.result.elevationsPerMin / none.result.elevationsPerMin);
    ratios.cpu.push(cpuPerRequest(none) / cpuPerRequest(full));
  }
  return ratios;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
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

/**
 * The EMF bridge as its own process (as in the stack), on free ports, and a stand-in X-Ray daemon that only
 * counts datagrams (what the collector does with them costs the collector, not the function being priced).
 */
async function startBridgeChild(): Promise<{
  child: ChildProcess;
  stop(): void;
  xrayPort: number;
  emfPort: number;
  xrayDocuments(): Promise<number>;
}> {
  // The stack's variables choose the ports when set (e.g. to stay clear of a running stack); free ones otherwise.
  const fromEnv = async (name: string): Promise<number> =>
    parsePort(name, process.env[name], 0) || (await freePort());
  const [metricsPort, xrayPort, emfPort] = [
    await fromEnv('BRIDGE_METRICS_PORT'),
    await fromEnv('XRAY_PORT'),
    await fromEnv('EMF_PORT'),
  ];
  let datagrams = 0;
  const daemon = createSocket('udp4').on('message', () => (datagrams += 1));
  await new Promise<void>((resolve) => daemon.bind(xrayPort, '127.0.0.1', resolve));
  const child = spawn(process.execPath, ['--import', 'tsx', path.join(ROOT, 'stack/bridge/main.ts')], {
    cwd: ROOT,
    env: {
      ...process.env,
      BRIDGE_METRICS_PORT: String(metricsPort),
      EMF_PORT: String(emfPort),
    },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const xrayDocuments = (): Promise<number> => Promise.resolve(datagrams);
  const stop = (): void => {
    child.kill('SIGTERM');
    daemon.close();
  };
  for (let i = 0; ; i++) {
    if (
      await fetch(`http://127.0.0.1:${metricsPort}/health`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    if (i > 100) throw new Error('bridge did not start');
    await new Promise((r) => setTimeout(r, 200));
  }
  return { child, stop, xrayPort, emfPort, xrayDocuments };
}

function report(
  rows: Row[],
  ratios: Ratios,
  setup: { sliceMs: number; concurrency: number; points: number; rounds: number },
): void {
  const ratio = median(ratios.throughput);
  const cpuRatio = median(ratios.cpu);
  const verdict = (r: number) => `${1 - r <= TARGET_MAX_COST ? 'met' : 'NOT met'}`;
  const quartiles = (values: number[]) => {
    const sorted = [...values].sort((x, y) => x - y);
    const at = (q: number) => sorted[Math.round(q * (sorted.length - 1))];
    return `middle half of rounds ${((1 - at(0.75)) * 100).toFixed(1)} to ${((1 - at(0.25)) * 100).toFixed(1)} %`;
  };
  const lines = [
    `# Price of observability (POST-${setup.points}, ${setup.concurrency} clients, ${setup.rounds} rounds × ${setup.sliceMs / 1000} s per configuration, interleaved)`,
    '',
    `Measured ${new Date().toISOString()} against four serverless-offline instances side by side on this machine, visited in rotating order each round; metrics (EMF) on in every row; trace sampling ${process.env.PRICE_XRAY_SAMPLE_RATE ? `fixed ${process.env.PRICE_XRAY_SAMPLE_RATE}` : "X-Ray's default rule (1 request/s per worker + 5%)"}; elevations/min and p50/p95 are means over rounds.`,
    '',
    '| configuration | elevations/min | p50 ms | p95 ms | CPU ms/request | requests | failures | X-Ray documents | wide log lines |',
    '|---|---:|---:|---:|---:|---:|---:|---:|---:|',
    ...rows.map(
      (r) =>
        `| ${r.config} | ${r.elevationsPerMin} | ${r.p50Ms.toFixed(1)} | ${r.p95Ms.toFixed(1)} | ${r.cpuMsPerRequest.toFixed(2)} | ${r.requests} | ${r.failures} | ${r.xrayDocuments} | ${r.logLines} |`,
    ),
    '',
    `throughput full / none = ${ratio.toFixed(3)}, median of ${ratios.throughput.length} paired rounds (cost ${((1 - ratio) * 100).toFixed(1)} %, ${quartiles(ratios.throughput)}; target ≤ ${TARGET_MAX_COST * 100} %: ${verdict(ratio)})`,
    `CPU-bound capacity full / none = ${cpuRatio.toFixed(3)}, median of paired rounds (cost ${((1 - cpuRatio) * 100).toFixed(1)} %: none's CPU per request / full's, ${quartiles(ratios.cpu)})`,
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
    `${JSON.stringify({ setup, rows, ratio, cpuRatio, roundRatios: ratios }, null, 2)}\n`,
  );
  process.stdout.write(text);
}

main().catch((error: Error) => {
  process.stderr.write(`price: ${error.stack ?? error.message}\n`);
  process.exit(1);
});
