/**
 * `npm run bench:loadgen`: the requests per second the runner generates, in k6's synchronous style
 * and in the asynchronous style, against a bare node:http server in its own process, and
 * serverless-offline's own ceiling (the project's /health route) measured in the same run. The runner
 * must never be the bottleneck: both styles must reach 3x serverless-offline. Writes
 * results/bench-loadgen.json. Env: VUS (32), DURATION (10s), OFFLINE_VUS (16), BENCH_SKIP_OFFLINE=1 (use
 * design.md's 3,600 req/s instead of measuring). Exit 1 below the bound.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import { createServer } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { runTest } from '../runner/engine.ts';

const ROOT = path.resolve(__dirname, '..', '..');
const DESIGN_CEILING = 3600;
const REQUIRED_RATIO = 3;

const SERVER = `
const http = require('node:http');
const body = '{"status":"OK"}';
const server = http.createServer((req, res) => {
  res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
  res.end(body);
});
server.keepAliveTimeout = 65000;
server.listen(0, '127.0.0.1', () => console.log(server.address().port));
`;

async function startBareServer(): Promise<{ url: string; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.once('error', reject);
    s.listen(0, '127.0.0.1', () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
  });
}

/** The project's API under serverless-offline (worker mode, as `npm start`), until /health answers. */
async function startOffline(): Promise<{ url: string; stop: () => void }> {
  const port = await freePort();
  const child: ChildProcess = spawn(process.execPath, ['--import', 'tsx', 'scripts/start.ts'], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), DATA_PORT: '0', POWERTOOLS_LOG_LEVEL: 'WARN' },
    stdio: 'ignore',
    detached: true,
  });
  const url = `http://127.0.0.1:${port}`;
  const stop = () => {
    try {
      process.kill(-(child.pid ?? 0), 'SIGTERM');
    } catch {
      // already gone
    }
  };
  for (let i = 0; i < 120; i++) {
    const ok = await fetch(`${url}/health`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) return { url, stop };
    await new Promise((r) => setTimeout(r, 1000));
  }
  stop();
  throw new Error('serverless-offline did not answer /health within 120 s');
}

interface Measured {
  requests_per_second: number;
  failed_rate: number;
  p95_ms: number;
}

async function measure(
  script: string,
  baseUrl: string,
  benchPath: string,
  extraEnv: Record<string, string> = {},
): Promise<Measured> {
  const record = path.join(mkdtempSync(path.join(os.tmpdir(), 'bench-loadgen-')), 'run.json');
  let started = 0;
  let executionMs = 0;
  await runTest({
    scriptPath: path.join(__dirname, '..', 'bench', script),
    env: {
      ...(process.env as Record<string, string>),
      BASE_URL: baseUrl,
      BENCH_PATH: benchPath,
      ...extraEnv,
    },
    tags: { testid: 'bench-loadgen' },
    allowRemote: false,
    overrides: {},
    outputs: [],
    progress: false,
    summaryMode: 'compact',
    runRecord: record,
    log: () => undefined,
    onExecution: (phase) => {
      if (phase === 'start') started = performance.now();
      else executionMs = performance.now() - started;
    },
  });
  const r = JSON.parse(readFileSync(record, 'utf8')) as {
    metrics: Record<string, { values: Record<string, number> }>;
  };
  return {
    requests_per_second: Math.round(r.metrics.http_reqs.values.count / (executionMs / 1000)),
    failed_rate: r.metrics.http_req_failed?.values.rate ?? 1,
    p95_ms: Number((r.metrics.http_req_duration?.values['p(95)'] ?? NaN).toFixed(2)),
  };
}

async function main(): Promise<void> {
  let offline: Measured | undefined;
  if (process.env.BENCH_SKIP_OFFLINE !== '1') {
    const api = await startOffline();
    try {
      // serverless-offline starts one worker (a cold start) per concurrent request: a first pass
      // starts them, the second measures the warm ceiling.
      const vus = { VUS: process.env.OFFLINE_VUS ?? '16' };
      await measure('bare-get.ts', api.url, '/health', { ...vus, DURATION: '5s' });
      offline = await measure('bare-get.ts', api.url, '/health', vus);
    } finally {
      api.stop();
    }
  }
  const server = await startBareServer();
  let sync: Measured;
  let asyncStyle: Measured;
  try {
    sync = await measure('bare-get-sync.ts', server.url, '/bench');
    asyncStyle = await measure('bare-get.ts', server.url, '/bench');
  } finally {
    server.stop();
  }
  const ceiling = offline?.requests_per_second ?? DESIGN_CEILING;
  const required = REQUIRED_RATIO * ceiling;
  const ok = [sync, asyncStyle].every((m) => m.requests_per_second >= required && m.failed_rate === 0);
  const result = {
    serverless_offline: offline ?? {
      requests_per_second: DESIGN_CEILING,
      source: 'design.md (not measured)',
    },
    runner_sync_style: sync,
    runner_async_style: asyncStyle,
    required_requests_per_second: required,
    load_average: os.loadavg()[0],
    ok,
  };
  mkdirSync(path.resolve('results'), { recursive: true });
  writeFileSync(path.resolve('results', 'bench-loadgen.json'), `${JSON.stringify(result, null, 2)}\n`);
  const ratio = (m: Measured) => (m.requests_per_second / ceiling).toFixed(1);
  process.stdout.write(
    `serverless-offline ceiling (/health): ${ceiling} req/s${offline ? '' : ' (design.md, not measured)'}\n` +
      `runner, synchronous style (http.get):    ${sync.requests_per_second} req/s = ${ratio(sync)}x\n` +
      `runner, asynchronous style (asyncRequest): ${asyncStyle.requests_per_second} req/s = ${ratio(asyncStyle)}x\n` +
      `bound ${REQUIRED_RATIO}x = ${required} req/s: ${ok ? 'PASS' : 'FAIL'} (load average ${result.load_average.toFixed(1)})\n`,
  );
  process.exit(ok ? 0 : 1);
}

void main();
