/**
 * `npm run bench:request-cost`: where one request's CPU goes under `npm start`, thread by thread. Starts the data
 * layer and `npm start` over a bench:scale dataset (built once by bench:scale, see scale/datasets.ts), sends
 * requests one at a time (no overlap, so every CPU tick belongs to the request in flight) and prints, per
 * process and thread of the `npm start` tree, CPU ms per request read from /proc/<pid>/task/<tid>/stat (Linux):
 *  - warm: the same request again and again (its block cached in the worker that answers it);
 *  - cold: uniform random points over the whole dataset (nearly every point a block-cache miss).
 * Node does not name its threads, so they are listed by id; the main thread of each process is marked. The
 * others are serverless-offline's worker threads (one per environment in use), libuv's thread pool (node:zlib's
 * inflate runs there; UV_THREADPOOL_SIZE=1 puts it all on one thread) and V8's platform threads (GC helpers).
 * Env: DATASET (cop1024 | opt256; cop1024), WORKLOAD ("GET-1 uniform"), REQUESTS (per phase; 200, at most 5,000).
 * Any other environment (SLS_LOG_LEVEL, LOCAL_CONCURRENCY, UV_THREADPOOL_SIZE…) reaches `npm start` unchanged.
 */
import fs from 'node:fs';
import path from 'node:path';
import { ensureScaleDatasets, writeConfig } from './scale/datasets';
import { listenForEmf } from './scale/emf-listener';
import { readStat, TICKS_PER_S, treeProcesses } from './scale/process-tree';
import { SCALE_BLOCK_CACHE_MB, scaleApiEnv, startApi, startDataLayer } from './scale/stack';
import type { LoadRequest } from './scale/closed-loop';
import { WORKLOADS } from './scale/workloads';

const REPO_ROOT = path.resolve(__dirname, '..', '..');
const WARMUP_REQUESTS = 100;
/** Threads below this share of a request are summed into one line. */
const SHOWN_MS = 0.1;
const REQUEST_TIMEOUT_MS = 30_000;

interface ThreadCpu {
  label: string;
  ms: number;
}

/** CPU ms of every thread of every process under root, keyed by "pid/tid". */
function threadCpu(root: number): Map<string, ThreadCpu> {
  const out = new Map<string, ThreadCpu>();
  for (const { pid } of treeProcesses(root)) {
    let command: string;
    let tids: string[];
    try {
      command = processLabel(fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8'));
      tids = fs.readdirSync(`/proc/${pid}/task`);
    } catch {
      continue; // exited meanwhile
    }
    for (const tid of tids) {
      const stat = readStat(`/proc/${pid}/task/${tid}/stat`);
      if (!stat) continue;
      const role = String(pid) === tid ? 'main thread' : `thread ${tid}`;
      out.set(`${pid}/${tid}`, {
        label: `${command} (pid ${pid}), ${role}`,
        ms: (stat.cpuTicks * 1000) / TICKS_PER_S,
      });
    }
  }
  return out;
}

function processLabel(cmdline: string): string {
  if (cmdline.includes('scripts/start.ts')) return 'npm start: gateway';
  if (cmdline.includes('serverless.js')) return 'serverless-offline';
  if (cmdline.includes('esbuild')) return 'esbuild service';
  return cmdline.split('\0')[0] || 'process';
}

function printDiff(
  title: string,
  before: Map<string, ThreadCpu>,
  after: Map<string, ThreadCpu>,
  n: number,
): void {
  const rows = [...after]
    .map(([key, t]) => ({ label: t.label, ms: (t.ms - (before.get(key)?.ms ?? 0)) / n }))
    .sort((a, b) => b.ms - a.ms);
  const total = rows.reduce((sum, r) => sum + r.ms, 0);
  const byProcess = new Map<string, number>();
  for (const r of rows) {
    const process = r.label.replace(/, (main thread|thread \d+)$/, '');
    byProcess.set(process, (byProcess.get(process) ?? 0) + r.ms);
  }
  console.log(`\n${title}: ${total.toFixed(2)} ms CPU per request`);
  for (const [process, ms] of [...byProcess].sort((a, b) => b[1] - a[1])) {
    if (ms >= SHOWN_MS) console.log(`  ${ms.toFixed(2).padStart(6)} ms  ${process}, all threads`);
  }
  let rest = 0;
  for (const r of rows) {
    if (r.ms >= SHOWN_MS) console.log(`    ${r.ms.toFixed(2).padStart(6)} ms  ${r.label}`);
    else rest += r.ms;
  }
  console.log(`    ${rest.toFixed(2).padStart(6)} ms  threads below ${SHOWN_MS} ms each`);
}

async function main(): Promise<void> {
  const variant = process.env.DATASET ?? 'cop1024';
  const workloadName = process.env.WORKLOAD ?? 'GET-1 uniform';
  const requests = Number(process.env.REQUESTS ?? 200);
  if (!(Number.isInteger(requests) && requests >= 10 && requests <= 5000)) {
    throw new Error(`REQUESTS must be an integer 10-5000, got ${process.env.REQUESTS}`);
  }
  const workload = WORKLOADS.find((w) => w.name === workloadName);
  if (!workload) throw new Error(`WORKLOAD must be one of ${WORKLOADS.map((w) => w.name).join(', ')}`);
  const datasets = ensureScaleDatasets(false, (line) => console.log(line));
  if (!datasets.variants.some((v) => v.name === variant)) {
    throw new Error(`DATASET must be one of ${datasets.variants.map((v) => v.name).join(', ')}`);
  }
  fs.mkdirSync(path.join(REPO_ROOT, 'results'), { recursive: true });
  const log = fs.openSync(path.join(REPO_ROOT, 'results', 'request-cost-api.log'), 'w');
  const emf = await listenForEmf();
  const data = await startDataLayer(datasets.root);
  try {
    const api = await startApi(
      { ...scaleApiEnv(data.url, emf.endpoint), CONFIG_PATH: writeConfig(datasets, variant) },
      log,
    );
    try {
      const send = async (request: LoadRequest): Promise<void> => {
        const response = await fetch(api.url + request.path, {
          method: request.method,
          body: request.body,
          headers: request.body ? { 'content-type': 'application/json' } : {},
          signal: AbortSignal.timeout(REQUEST_TIMEOUT_MS),
        });
        await response.arrayBuffer();
        if (response.status !== 200) throw new Error(`${request.path} answered ${response.status}`);
      };
      const next = workload.make(datasets, 12_345);
      for (let i = 0; i < WARMUP_REQUESTS; i++) await send(next());
      const fixed = next();
      for (let i = 0; i < 20; i++) await send(fixed);
      console.log(
        `${variant}, ${workloadName}, ${requests} requests per phase, one at a time (npm start, BLOCK_CACHE_MB=${SCALE_BLOCK_CACHE_MB})`,
      );
      let before = threadCpu(api.pid);
      let started = performance.now();
      for (let i = 0; i < requests; i++) await send(fixed);
      let wall = (performance.now() - started) / requests;
      printDiff(
        `warm (the same request; ${wall.toFixed(1)} ms wall each)`,
        before,
        threadCpu(api.pid),
        requests,
      );
      before = threadCpu(api.pid);
      started = performance.now();
      for (let i = 0; i < requests; i++) await send(next());
      wall = (performance.now() - started) / requests;
      printDiff(
        `cold (${workloadName}; ${wall.toFixed(1)} ms wall each)`,
        before,
        threadCpu(api.pid),
        requests,
      );
    } finally {
      await api.stop();
    }
  } finally {
    await data.stop();
    emf.close();
  }
}

main().then(
  () => process.exit(0),
  (error: unknown) => {
    console.error(`bench:request-cost failed: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(2);
  },
);
