/** What every executor shares: running one iteration on a VU, timing helpers, this thread's share. */
import type { Runtime, ScenarioRun, VuState } from '../runtime.ts';

export interface ExecutorContext {
  readonly runtime: Runtime;
  readonly run: ScenarioRun;
  readonly fn: (data: unknown) => unknown;
  readonly data: unknown;
  /** This thread's part of the work when the test is split across worker threads. */
  readonly segment: Segment;
  /** Next shared-iterations index across all threads; -1 when none are left. */
  readonly takeSharedIteration: (limit: number) => number;
}

export interface Segment {
  readonly index: number;
  readonly count: number;
}

export const WHOLE: Segment = { index: 0, count: 1 };

/** How many of `total` items (VUs, iterations) fall to this segment when dealt round-robin. */
export function shareOf(total: number, segment: Segment): number {
  return Math.floor(total / segment.count) + (segment.index < total % segment.count ? 1 : 0);
}

export const delay = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, Math.max(0, ms)));
export const yieldToIo = () => new Promise<void>((resolve) => setImmediate(resolve));

const reportedErrors = new Map<string, number>();
function reportIterationError(scenario: string, err: unknown): void {
  const message = err instanceof Error ? err.message : String(err);
  const seen = reportedErrors.get(message) ?? 0;
  reportedErrors.set(message, seen + 1);
  // The first few of each distinct error, not thousands of identical lines.
  if (seen < 3) process.stderr.write(`ERRO[scenario ${scenario}] iteration failed: ${message}\n`);
  else if (seen === 3)
    process.stderr.write(`ERRO[scenario ${scenario}] (further "${message}" errors suppressed)\n`);
}

export async function runIteration(
  ctx: ExecutorContext,
  vu: VuState,
  scenarioIteration: number,
): Promise<void> {
  const { runtime, run } = ctx;
  vu.iterationInInstance++;
  vu.iterationInScenario++;
  vu.scenarioIteration = scenarioIteration;
  run.iterationsStarted++;
  const start = performance.now();
  try {
    await ctx.fn(ctx.data);
  } catch (err) {
    if (!run.hardStopped) reportIterationError(run.scenario.name, err);
  }
  vu.group = '';
  if (run.hardStopped) return;
  const { tags, key } = runtime.tagsFor('');
  runtime.record(runtime.builtins.iteration_duration, performance.now() - start, tags, key);
  runtime.record(runtime.builtins.iterations, 1, tags, key);
  run.iterationsCompleted++;
}

/** Waits for in-flight iterations up to the graceful stop, then marks the rest interrupted. */
export async function gracefulStop(
  run: ScenarioRun,
  inFlight: Set<Promise<void>>,
  graceMs: number,
): Promise<void> {
  if (inFlight.size > 0) await Promise.race([Promise.all(inFlight), delay(graceMs)]);
  if (inFlight.size > 0) {
    run.hardStopped = true;
    run.iterationsInterrupted += inFlight.size;
  }
}
