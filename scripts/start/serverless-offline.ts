import { spawn } from 'node:child_process';
import path from 'node:path';

/**
 * Runs `osls offline start` as a child in its own process group, so stopping it also stops everything
 * it started (esbuild's service process, worker threads), and reports when `/health` answers.
 */
export interface OfflineOptions {
  /** The folder holding serverless.yml and node_modules. */
  serviceDir: string;
  httpPort: number;
  /** serverless-offline's invoke endpoint (default 3002 would collide between parallel stacks). */
  lambdaPort: number;
  stage?: string;
  /** Extra environment for osls; serverless.yml passes the settings on to the handlers. */
  env?: Record<string, string>;
  /** 'inherit' prints to our stdout/stderr; a function receives the output instead. */
  output?: 'inherit' | ((text: string, stream: 'stdout' | 'stderr') => void);
  startTimeoutMs?: number;
}

export interface OfflineProcess {
  /** e.g. `http://127.0.0.1:3000` (no trailing slash, so `${baseUrl}/v1/…` reads naturally). */
  baseUrl: string;
  pid: number;
  /** Resolves once `/health` answers; rejects if the child exits first or the start times out. */
  ready: Promise<void>;
  /** Resolves with the exit code (or signal name) when the child ends, for whatever reason. */
  exited: Promise<number | string>;
  /** Stops the whole process group (SIGTERM, then SIGKILL after a grace period); safe to call anytime. */
  stop(): Promise<void>;
}

const HEALTH_POLL_MS = 200;
const STOP_GRACE_MS = 8000;

/**
 * Node flags for serverless-offline's process (its worker threads run the handlers), OFFLINE_NODE_FLAGS
 * replacing the default. V8 flags are per process, so they reach every worker.
 * --single-threaded-gc: V8's parallel GC helpers burned ~14 ms of CPU per cold point on 1024-px blocks
 * (external-memory GCs every few points, each worker's ~8 MB of buffers per point) against ~6.5 ms done on the
 * worker's own thread (bench:request-cost); on 2 cores the helpers only compete with the work. One A/B pair of
 * bench:scale runs at 4 connections measured cold GET-1 45.7 -> 37.7 ms CPU per point, but a later full run
 * measured 45.0 ms for that cell: on this shared host the gain is within run-to-run noise; the shift between
 * threads is not.
 * --max-semi-space-size=2 (MiB): each isolate's young generation otherwise grows to 2 x 16 MiB, and there are
 * LOCAL_CONCURRENCY + 1 of them. Two A/B pairs of bench:scale on the 1024-px dataset (4 and 64 connections, GET-1
 * uniform, POST-100 city, POST-512; 2026-12-03) measured peak RSS lower in all 12 cells, by 82-208 MB (e.g.
 * POST-100 city at 64: 1,171 -> 1,005 and 1,221 -> 1,046 MB), cold GET-1 at 4 connections at 45.1 -> 35.4 and
 * 37.5 -> 33.3 ms CPU per point, and warm POST-100 city within the noise (30.3 -> 37.1 k, 45.1 -> 39.8 k/s).
 * --max-old-space-size=1024 (MiB): besides capping each isolate's heap, V8 derives from it how far a heap may grow
 * past what the last full GC kept: up to 4x where the cap is >= 2 GiB (on this 24 GB host the default cap is
 * 4 GiB), 1.6x at 1 GiB (V8's MemoryController scales the factor from 1.3 at 256 MiB to 2.0 at 2 GiB). Under warm
 * POST-512 load a worker kept ~28 MB and grew to ~116 MB before collecting (--trace-gc). Two A/B pairs of
 * bench:scale on opt256 (all four workloads at 4 and 64 connections, 2026-12-04 16:52-16:59 UTC) measured peak RSS
 * lower in all 16 cells, by 2-84 MB, most in the warm POSTs late in a run (POST-512 at 64: 1,020 -> 936 and
 * 966 -> 942 MB), throughput within the noise (cold GET-1 at 4: 167/144 -> 126/180 points/s). Every isolate here
 * holds far less than 1 GiB (serverless-offline's main isolate ~85 MB, workers ~30 MB live plus what one request
 * allocates, bounded by MAX_BODY_BYTES and MAX_FILE_COORDINATES).
 * Measured and not taken (README, "Performance on real-sized data"): --no-incremental-marking and
 * --initial-old-space-size=64 each cut cold CPU per point (~3 ms; ~20 %) but raised peak RSS in every cell
 * (by 80-110 MB; 40-200 MB), against the 1 GB bound at 64 connections. --initial-old-space-size=64 measured again
 * with the 1 GiB cap (2026-12-04): 13-15 % less cold CPU on cop1024, but opt256 peaked at 999 MB.
 */
export const DEFAULT_OFFLINE_NODE_FLAGS = [
  '--single-threaded-gc',
  '--max-semi-space-size=2',
  '--max-old-space-size=1024',
];

export function nodeFlags(value: string | undefined): string[] {
  if (value === undefined) return DEFAULT_OFFLINE_NODE_FLAGS;
  const flags = value.split(/\s+/).filter((f) => f !== '');
  const bad = flags.find((f) => !/^--[a-z0-9][a-z0-9_-]*(=\S+)?$/.test(f));
  if (bad !== undefined) {
    throw new Error(`OFFLINE_NODE_FLAGS holds node flags like --single-threaded-gc, got "${bad}"`);
  }
  return flags;
}

/** Spawns osls offline and returns at once; await `ready` before sending requests. */
export function spawnServerlessOffline(options: OfflineOptions): OfflineProcess {
  const osls = path.join(options.serviceDir, 'node_modules', 'osls', 'bin', 'serverless.js');
  // The local gateway in front forwards URLs up to 16 KiB; Node's default 16 KiB header limit would refuse them.
  const args = [
    '--max-http-header-size=65536',
    ...nodeFlags(process.env.OFFLINE_NODE_FLAGS),
    osls,
    'offline',
    'start',
    '--stage',
    options.stage ?? 'local',
  ];
  const output = options.output ?? 'inherit';
  const child = spawn(process.execPath, args, {
    cwd: options.serviceDir,
    env: {
      // esbuild's service process (a Go program) lives as long as osls: without a memory limit its heap after
      // bundling nine functions stayed at ~340-850 MB RSS for nothing (measured); 128 MiB makes Go return it.
      GOMEMLIMIT: '128MiB',
      // glibc gives threads their own malloc arenas (up to 8 per core); with worker threads inflating blocks, 2
      // arenas measured ~130-150 MB less RSS under bench:scale (POST-100 uniform) at the same throughput.
      MALLOC_ARENA_MAX: '2',
      // serverless-offline logs four lines per request at "notice" (two blank, "ANY /v1/… (λ: elevation)" and its
      // duration): the handlers' own wide log line says more, and relaying them cost ~0.3 ms of CPU per request
      // in osls and ~0.2 ms in npm start (bench:request-cost). Its banner and warnings stay; notice brings them back.
      SLS_LOG_LEVEL: 'warning',
      ...process.env,
      ...options.env,
      PORT: String(options.httpPort),
      LAMBDA_PORT: String(options.lambdaPort),
    },
    detached: true, // own process group: stop() signals the whole group
    stdio: ['ignore', output === 'inherit' ? 'inherit' : 'pipe', output === 'inherit' ? 'inherit' : 'pipe'],
  });
  if (typeof output === 'function') {
    child.stdout?.on('data', (chunk: Buffer) => output(chunk.toString(), 'stdout'));
    child.stderr?.on('data', (chunk: Buffer) => output(chunk.toString(), 'stderr'));
  }
  const pid = child.pid;
  if (pid === undefined) throw new Error('could not spawn osls offline');

  let running = true;
  const exited = new Promise<number | string>((resolve) => {
    child.once('exit', (code, signal) => {
      running = false;
      resolve(code ?? signal ?? 'unknown');
    });
  });

  const stop = async (): Promise<void> => {
    if (!running) {
      // The leader is gone (crashed or killed) but its group may still hold esbuild's service process.
      signalGroup(pid, 'SIGKILL');
      return;
    }
    signalGroup(pid, 'SIGTERM');
    const ended = await Promise.race([exited.then(() => true), delay(STOP_GRACE_MS).then(() => false)]);
    if (!ended) {
      signalGroup(pid, 'SIGKILL');
      await exited;
    }
  };

  const baseUrl = `http://127.0.0.1:${options.httpPort}`;
  const ready = waitForHealth(baseUrl, exited, options.startTimeoutMs ?? 120_000);
  return { baseUrl, pid, ready, exited, stop };
}

/** Spawns osls offline and waits until it answers; stops it again if it never does. */
export async function startServerlessOffline(options: OfflineOptions): Promise<OfflineProcess> {
  const offline = spawnServerlessOffline(options);
  try {
    await offline.ready;
  } catch (error) {
    await offline.stop();
    throw error;
  }
  return offline;
}

async function waitForHealth(
  baseUrl: string,
  exited: Promise<number | string>,
  timeoutMs: number,
): Promise<void> {
  let exitCode: number | string | undefined;
  void exited.then((code) => (exitCode = code));
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (exitCode !== undefined)
      throw new Error(`serverless-offline exited (${exitCode}) before /health answered`);
    try {
      const response = await fetch(`${baseUrl}/health`, { signal: AbortSignal.timeout(5000) });
      await response.arrayBuffer();
      if (response.ok) return;
    } catch {
      // not listening yet
    }
    await delay(HEALTH_POLL_MS);
  }
  throw new Error(`serverless-offline did not answer ${baseUrl}/health within ${timeoutMs} ms`);
}

function signalGroup(pid: number, signal: NodeJS.Signals): void {
  try {
    process.kill(-pid, signal);
  } catch {
    // the group is already gone
  }
}

function delay(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms).unref());
}
