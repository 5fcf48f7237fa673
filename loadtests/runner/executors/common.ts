/** What every executor shares: running one iteration on a VU, timing helpers. */
import { applyDeltas } from '../metrics/delta.ts';
import type { ScenarioRun, TestRun, Vu } from '../test-run.ts';

export interface ExecutorContext {
  readonly test: TestRun;
  readonly run: ScenarioRun;
  /** VUs initialised before the test started (looping executors: all; arrival-rate: preAllocatedVUs). */
  readonly vus: Vu[];
  /** Initialises one more VU for this scenario (arrival-rate executors, up to maxVUs). */
  readonly newVu: () => Promise<Vu>;
  /** k6's `minIterationDuration`: a shorter completed iteration keeps its VU until then (0: none). */
  readonly minIterationDurationMs: number;
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));

const reportedErrors = new Map<string, number>();
function reportIterationError(scenario: string, error: string): void {
  const message = error.split('\n')[0];
  const seen = reportedErrors.get(message) ?? 0;
  reportedErrors.set(message, seen + 1);
  // The first few of each distinct error, not thousands of identical lines.
  if (seen < 3) process.stderr.write(`ERRO ${error}  executor=${scenario} source=stacktrace\n`);
  else if (seen === 3) process.stderr.write(`ERRO (further "${message}" errors suppressed)\n`);
}

export async function runIteration(ctx: ExecutorContext, vu: Vu, iterationInTest: number): Promise<void> {
  const { test, run } = ctx;
  const s = run.scenario;
  vu.iterationInInstance++;
  vu.iterationInScenario++;
  run.iterationsStarted++;
  const start = performance.now();
  const done = await vu.handle.call({
    fn: s.exec,
    useSetupData: true,
    wantResult: false,
    group: '',
    vu: {
      idInTest: vu.handle.idInTest,
      idInInstance: vu.idInInstance,
      iterationInInstance: vu.iterationInInstance,
      iterationInScenario: vu.iterationInScenario,
      iterationInTest,
      scenario: { name: s.name, executor: s.executor, startTime: run.startedAt, progress: run.progress() },
      tags: vu.tags,
      instance: {
        vusActive: test.total((r) => r.activeVUs),
        vusInitialized: test.total((r) => r.allocatedVUs),
        iterationsCompleted: test.total((r) => r.iterationsCompleted),
        iterationsInterrupted: test.total((r) => r.iterationsInterrupted),
      },
    },
  });
  if (run.hardStopped) return;
  applyDeltas(test.registry, done.deltas);
  if (done.interrupted) {
    run.iterationsInterrupted++;
    return;
  }
  if (done.error) reportIterationError(s.name, done.error);
  // The VU's own tags (exec.vu.metrics.tags) are on its iteration samples too, as in k6.
  const tags = { ...vu.tags, ...done.vuTags, group: '' };
  const took = performance.now() - start;
  test.registry.add(test.builtins.iteration_duration, took, tags);
  test.registry.add(test.builtins.iterations, 1, tags);
  await padIteration(ctx, ctx.minIterationDurationMs - took);
  // Cut short by the hard stop, the iteration is one of the interrupted ones gracefulStop counts, as k6
  // counts an iteration whose context ended before it returned.
  if (run.hardStopped) return;
  run.iterationsCompleted++;
}

/**
 * k6's minIterationDuration: after a completed iteration (its metrics already recorded, so
 * iteration_duration does not include the pause), the VU waits out the rest, unless the scenario is
 * hard-stopped or the test aborted meanwhile.
 */
async function padIteration(ctx: ExecutorContext, ms: number): Promise<void> {
  const until = performance.now() + ms;
  for (let left = ms; left > 0; left = until - performance.now()) {
    if (ctx.run.hardStopped || ctx.test.aborted) return;
    await Promise.race([delay(Math.min(left, 100)), ctx.test.whenAborted]);
  }
}

/** Waits for in-flight iterations up to the graceful stop, then interrupts the rest. */
export async function gracefulStop(
  run: ScenarioRun,
  inFlight: Map<Promise<void>, Vu>,
  graceMs: number,
): Promise<void> {
  if (inFlight.size > 0) await Promise.race([Promise.all(inFlight.keys()), delay(graceMs)]);
  if (inFlight.size > 0) {
    run.hardStopped = true;
    run.iterationsInterrupted += inFlight.size;
    for (const vu of inFlight.values()) vu.handle.interrupt();
  }
}
