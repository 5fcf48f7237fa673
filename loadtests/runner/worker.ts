/** Worker-thread entry: loads the script, runs its segment of every scenario, ships metric deltas. */
import { parentPort, workerData } from 'node:worker_threads';
import { takeDeltas } from './metrics/delta.ts';
import { loadScript, runScenarios, type LoadedScript } from './script-runtime.ts';
import type { RunStats, WorkerInput, WorkerMessage } from './worker-protocol.ts';

const SHIP_INTERVAL_MS = 500;

function stats(loaded: LoadedScript): RunStats[] {
  return loaded.runs.map((r) => ({
    activeVUs: r.activeVUs,
    allocatedVUs: r.allocatedVUs,
    iterationsCompleted: r.iterationsCompleted,
    iterationsInterrupted: r.iterationsInterrupted,
    startedAt: r.startedAt,
    progress: r.startedAt ? r.progress() : 0,
  }));
}

async function main(): Promise<void> {
  const input = workerData as WorkerInput;
  const port = parentPort;
  if (!port) throw new Error('worker.ts must run as a worker thread');
  const loaded = await loadScript(input.load);
  const send = (m: WorkerMessage) => port.postMessage(m);
  loaded.runtime.onAbort((reason, exitCode) => send({ kind: 'abort', reason, exitCode }));
  let start: () => void = () => undefined;
  const started = new Promise<void>((resolve) => (start = resolve));
  port.on('message', (m: { kind: 'abort' | 'start' }) => {
    if (m.kind === 'abort') loaded.runtime.abort('aborted by the main thread', 0);
    else start();
  });
  // Initialised (script evaluated): the main thread starts all workers together.
  send({ kind: 'ready' });
  await started;
  const counters = new Int32Array(input.sharedIterations);
  const timer = setInterval(
    () => send({ kind: 'metrics', deltas: takeDeltas(loaded.runtime.registry), runs: stats(loaded) }),
    SHIP_INTERVAL_MS,
  );
  await runScenarios(loaded, input.setupData, input.segment, (i, limit) => {
    const next = Atomics.add(counters, i, 1);
    return next < limit ? next : -1;
  });
  clearInterval(timer);
  await loaded.closeHttp();
  send({ kind: 'done', deltas: takeDeltas(loaded.runtime.registry), runs: stats(loaded) });
  port.close();
}

void main();
