/**
 * `npm run bench:loadgen`: how many requests per second the runner generates against a bare
 * node:http server (started here in its own process, so it has its own core), compared with the
 * serverless-offline ceiling measured on this machine (design notes §2: ~3,600 req/s with a trivial
 * handler). The runner must never be the bottleneck: the bound is 11,000 req/s (≥ 3x that ceiling).
 * Env: BENCH_WORKERS (threads, default 2), VUS (128), DURATION (10s). Exit 1 below the bound.
 */
import { spawn } from 'node:child_process';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runTest } from './engine.ts';

const SERVERLESS_OFFLINE_CEILING = 3600;
const REQUIRED_REQ_PER_SEC = 11_000;

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

/** CPU seconds (user + system) a process has used so far, from /proc (Linux). */
function processCpuSeconds(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
    return (Number(fields[11]) + Number(fields[12])) / 100; // utime, stime in clock ticks (USER_HZ = 100)
  } catch {
    return NaN;
  }
}

async function startServer(): Promise<{ url: string; pid: number; stop: () => void }> {
  const child = spawn(process.execPath, ['-e', SERVER], { stdio: ['ignore', 'pipe', 'inherit'] });
  const port = await new Promise<string>((resolve, reject) => {
    child.stdout.once('data', (d: Buffer) => resolve(d.toString().trim()));
    child.once('exit', (code) => reject(new Error(`bench server exited with ${code}`)));
  });
  return { url: `http://127.0.0.1:${port}`, pid: child.pid ?? 0, stop: () => child.kill() };
}

async function main(): Promise<void> {
  const server = await startServer();
  const workers = Number(process.env.BENCH_WORKERS ?? 2);
  const summaryExport = path.resolve('results', 'bench-loadgen-run.json');
  let cpuBefore = process.cpuUsage();
  let serverCpuBefore = processCpuSeconds(server.pid);
  let cpu = { runner: 0, server: 0 };
  // CPU is counted while the scenarios run only (not bundling, not worker start-up).
  const onExecution = (phase: 'start' | 'end') => {
    if (phase === 'start') {
      cpuBefore = process.cpuUsage();
      serverCpuBefore = processCpuSeconds(server.pid);
    } else {
      const used = process.cpuUsage(cpuBefore);
      cpu = {
        runner: (used.user + used.system) / 1e6,
        server: processCpuSeconds(server.pid) - serverCpuBefore,
      };
    }
  };
  try {
    await runTest({
      scriptPath: path.join(__dirname, '..', 'bench', 'bare-get.ts'),
      env: { ...(process.env as Record<string, string>), BASE_URL: server.url },
      tags: { testid: 'bench-loadgen' },
      allowRemote: false,
      overrides: {},
      outputs: [],
      progress: false,
      workers,
      summaryExport,
      log: () => undefined,
      onExecution,
    });
  } finally {
    server.stop();
  }
  const s = JSON.parse(readFileSync(summaryExport, 'utf8')) as {
    metrics: { http_reqs: { values: { count: number } } };
    requests_per_second: number;
    http_req_failed_rate: number;
    http_req_duration_ms: Record<string, number>;
  };
  const ratio = s.requests_per_second / SERVERLESS_OFFLINE_CEILING;
  // CPU cost per request: on a machine shared with other work the wall-clock rate understates what the
  // runner can do; CPU time per request does not (much), so the run also reports the rate the runner's
  // own CPU cost allows on the cores it may use (BENCH_CORES, default 2 minus the server's share).
  const requests = s.metrics.http_reqs.values.count;
  const runnerUsPerRequest = (cpu.runner * 1e6) / requests;
  const serverUsPerRequest = (cpu.server * 1e6) / requests;
  const cores = Number(process.env.BENCH_CORES ?? 2);
  const cpuBoundRate = (cores * 1e6) / (runnerUsPerRequest + serverUsPerRequest);
  const ok = s.requests_per_second >= REQUIRED_REQ_PER_SEC && s.http_req_failed_rate === 0;
  const result = {
    workers,
    requests_per_second: Math.round(s.requests_per_second),
    ratio_to_serverless_offline: Number(ratio.toFixed(2)),
    required_requests_per_second: REQUIRED_REQ_PER_SEC,
    failed_rate: s.http_req_failed_rate,
    p95_ms: s.http_req_duration_ms['p(95)'],
    runner_cpu_us_per_request: Math.round(runnerUsPerRequest),
    server_cpu_us_per_request: Math.round(serverUsPerRequest),
    cpu_bound_requests_per_second: Math.round(cpuBoundRate),
    load_average: os.loadavg()[0],
    ok,
  };
  mkdirSync(path.resolve('results'), { recursive: true });
  writeFileSync(path.resolve('results', 'bench-loadgen.json'), `${JSON.stringify(result, null, 2)}\n`);
  process.stdout.write(
    `load generator: ${result.requests_per_second} req/s with ${workers} worker thread(s) = ` +
      `${result.ratio_to_serverless_offline}x the serverless-offline ceiling (${SERVERLESS_OFFLINE_CEILING} req/s); ` +
      `bound ${REQUIRED_REQ_PER_SEC} req/s: ${ok ? 'PASS' : 'FAIL'}\n` +
      `CPU per request: runner ${result.runner_cpu_us_per_request} µs, server ${result.server_cpu_us_per_request} µs ` +
      `→ ${cores} idle cores would carry ~${result.cpu_bound_requests_per_second} req/s ` +
      `(load average during the run: ${result.load_average.toFixed(1)})\n`,
  );
  process.exit(ok ? 0 : 1);
}

void main();
