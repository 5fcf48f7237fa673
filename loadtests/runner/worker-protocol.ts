/** Messages between the main thread and worker threads that each run a segment of the test. */
import type { SeriesDelta } from './metrics/delta.ts';
import type { LoadOptions } from './script-runtime.ts';

export interface WorkerInput {
  load: LoadOptions;
  setupData: unknown;
  segment: { index: number; count: number };
  /** One Int32 per scenario: the next shared-iterations index, shared by all workers. */
  sharedIterations: SharedArrayBuffer;
}

export interface RunStats {
  activeVUs: number;
  allocatedVUs: number;
  iterationsCompleted: number;
  iterationsInterrupted: number;
  startedAt: number;
  progress: number;
}

export type WorkerMessage =
  | { kind: 'ready' }
  | { kind: 'metrics'; deltas: SeriesDelta[]; runs: RunStats[] }
  | { kind: 'abort'; reason: string; exitCode: number }
  | { kind: 'done'; deltas: SeriesDelta[]; runs: RunStats[] };
