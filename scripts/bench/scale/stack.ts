/**
 * The processes bench:scale measures, each its own process tree so their CPU can be told apart: the data layer
 * (scripts/data-server.ts over the dataset folder) and `npm start` (scripts/start.ts: gateway, serverless-offline
 * and its worker threads) reading through it via DATA_ROOT. Both listen on 127.0.0.1 only.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import path from 'node:path';
import type { DataServerStats } from '../../data-server';
import { freePort } from '../../start/free-port';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const START_TIMEOUT_MS = 180_000;
const STOP_GRACE_MS = 10_000;

export interface RunningProcess {
  pid: number;
  url: string;
  stop(): Promise<void>;
}

export interface DataLayer extends RunningProcess {
  stats(): Promise<DataServerStats>;
}

export async function startDataLayer(root: string): Promise<DataLayer> {
  const port = await freePort();
  const child = spawnTsx('scripts/data-server.ts', { DATA_DIR: root, DATA_PORT: String(port) }, 'ignore');
  const url = `http://127.0.0.1:${port}/`;
  await waitFor(`${url}_stats`, child);
  return {
    pid: child.pid as number,
    url,
    stop: () => stopGroup(child),
    stats: async () => (await (await fetch(`${url}_stats`)).json()) as DataServerStats,
  };
}

/** The block cache bench:scale and bench:request-cost give `npm start` (issue 12's setting). */
export const SCALE_BLOCK_CACHE_MB = '128';
/** Settings passed on to `npm start` from the bench's own environment when set. */
export const PASSED_LOCAL_SETTINGS = ['LOCAL_CONCURRENCY', 'LOCAL_QUEUE'] as const;

/**
 * The environment both benches start `npm start` with (CONFIG_PATH added per dataset): reading through the data
 * layer, the bench's block cache, WARN logs (one JSON line per request at INFO is priced separately, by
 * price:observability), EMF to the bench's listener, and PASSED_LOCAL_SETTINGS from `env` when set.
 */
export function scaleApiEnv(
  dataUrl: string,
  emfEndpoint: string,
  env: NodeJS.ProcessEnv = process.env,
): Record<string, string> {
  const apiEnv: Record<string, string> = {
    DATA_ROOT: dataUrl,
    BLOCK_CACHE_MB: SCALE_BLOCK_CACHE_MB,
    POWERTOOLS_LOG_LEVEL: 'WARN',
    AWS_EMF_AGENT_ENDPOINT: emfEndpoint,
  };
  for (const name of PASSED_LOCAL_SETTINGS) {
    const value = env[name];
    if (value !== undefined) apiEnv[name] = value;
  }
  return apiEnv;
}

/** `npm start` over one config; extra env (BLOCK_CACHE_MB, LOCAL_CONCURRENCY…) is passed through. */
export async function startApi(env: Record<string, string>, logFile: number): Promise<RunningProcess> {
  const port = await freePort();
  const child = spawnTsx('scripts/start.ts', { ...env, PORT: String(port), DATA_PORT: '0' }, logFile);
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/health`, child);
  return { pid: child.pid as number, url, stop: () => stopGroup(child) };
}

function spawnTsx(script: string, env: Record<string, string>, output: 'ignore' | number): ChildProcess {
  return spawn(process.execPath, ['--import', 'tsx', script], {
    cwd: REPO_ROOT,
    env: { ...process.env, ...env },
    stdio: ['ignore', output, output],
    detached: true, // its own process group: stop() ends everything it started
  });
}

async function waitFor(url: string, child: ChildProcess): Promise<void> {
  let exited: number | null | undefined;
  child.once('exit', (code) => (exited = code));
  const deadline = Date.now() + START_TIMEOUT_MS;
  while (Date.now() < deadline) {
    if (exited !== undefined) throw new Error(`${url}: the process exited (${exited}) before answering`);
    const ok = await fetch(url, { signal: AbortSignal.timeout(5000) }).then(
      async (r) => (await r.arrayBuffer(), r.ok),
      () => false,
    );
    if (ok) return;
    await new Promise((resolve) => setTimeout(resolve, 500));
  }
  await stopGroup(child);
  throw new Error(`${url} did not answer within ${START_TIMEOUT_MS / 1000} s`);
}

async function stopGroup(child: ChildProcess): Promise<void> {
  if (child.exitCode !== null || child.signalCode !== null) return;
  const exited = new Promise((resolve) => child.once('exit', resolve));
  signal(child, 'SIGTERM');
  const ended = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
  if (!ended) signal(child, 'SIGKILL');
}

function signal(child: ChildProcess, name: NodeJS.Signals): void {
  try {
    process.kill(-(child.pid as number), name);
  } catch {
    // already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
