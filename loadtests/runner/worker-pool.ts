/**
 * Splits a test across worker threads when one event loop cannot generate the load: each worker runs
 * segment i of n (every n-th arrival-rate iteration, every n-th VU), and ships metric deltas that are
 * merged here, so thresholds, summary and outputs see one test.
 */
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import { applyDeltas } from './metrics/delta.ts';
import type { LoadedScript, LoadOptions } from './script-runtime.ts';
import type { RunStats, WorkerInput, WorkerMessage } from './worker-protocol.ts';

export interface WorkerRun {
  /** Starts every worker's scenarios; settles when all are done. */
  start(): Promise<void>;
}

/** Spawns `count` workers and waits until each has initialised the script (k6's VU init). */
export async function prepareWorkers(
  loaded: LoadedScript,
  load: LoadOptions,
  setupData: unknown,
  count: number,
): Promise<WorkerRun> {
  const { runtime, runs } = loaded;
  const shared = new SharedArrayBuffer(4 * Math.max(1, runs.length));
  const latest: RunStats[][] = [];
  const refresh = () => {
    runs.forEach((run, i) => {
      const per = latest.map((w) => w[i]).filter(Boolean);
      run.activeVUs = per.reduce((n, s) => n + s.activeVUs, 0);
      run.allocatedVUs = per.reduce((n, s) => n + s.allocatedVUs, 0);
      run.iterationsCompleted = per.reduce((n, s) => n + s.iterationsCompleted, 0);
      run.iterationsInterrupted = per.reduce((n, s) => n + s.iterationsInterrupted, 0);
      run.startedAt = per.find((s) => s.startedAt)?.startedAt ?? 0;
      const progress = Math.max(0, ...per.map((s) => s.progress));
      run.progress = () => progress;
    });
  };
  const workers = Array.from({ length: count }, (_, index) => {
    const input: WorkerInput = {
      // Only plain data crosses to a worker: no functions (structured clone).
      load: {
        scriptPath: load.scriptPath,
        code: loaded.code,
        env: load.env,
        tags: load.tags,
        allowRemote: load.allowRemote,
        overrides: load.overrides,
      },
      setupData,
      segment: { index, count },
      sharedIterations: shared,
    };
    // The worker is TypeScript too: register tsx's CommonJS hook inside the worker before loading it.
    const entry = path.join(__dirname, 'worker.ts');
    const bootstrap = `require('tsx/cjs'); require(${JSON.stringify(entry)});`;
    return new Worker(bootstrap, { eval: true, workerData: input });
  });
  const stopAll = () => workers.forEach((w) => w.postMessage({ kind: 'abort' }));
  void runtime.whenAborted.then(stopAll);
  let readyCount = 0;
  let allReady: () => void = () => undefined;
  const ready = new Promise<void>((resolve) => (allReady = resolve));
  const done = Promise.all(
    workers.map(
      (worker, index) =>
        new Promise<void>((resolve, reject) => {
          worker.on('message', (m: WorkerMessage) => {
            if (m.kind === 'ready') {
              if (++readyCount === count) allReady();
            } else if (m.kind === 'abort') runtime.abort(m.reason, m.exitCode);
            else {
              applyDeltas(runtime.registry, m.deltas);
              latest[index] = m.runs;
              refresh();
              if (m.kind === 'done') resolve();
            }
          });
          worker.on('error', reject);
          worker.on('exit', (code) =>
            code === 0 ? resolve() : reject(new Error(`worker ${index} exited with ${code}`)),
          );
        }),
    ),
  );
  await Promise.race([ready, done]);
  return {
    start: async () => {
      workers.forEach((w) => w.postMessage({ kind: 'start' }));
      await done;
    },
  };
}
