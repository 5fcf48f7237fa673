/**
 * constant-arrival-rate and ramping-arrival-rate: iterations start on a schedule independent of how long
 * they take (constant: every 1/rate from t=0; ramping: when the integral of the rate reaches i + 1, as k6).
 * No idle VU → the iteration is dropped and counted in dropped_iterations, and below maxVUs a new VU
 * starts initialising in the background for later iterations, as in k6.
 */
import type { Scenario } from '../scenarios.ts';
import type { Vu } from '../test-run.ts';
import { delay, gracefulStop, runIteration, type ExecutorContext } from './common.ts';

/** Start offset (ms from scenario start) of each iteration index, in order; stops at the duration. */
export function* iterationStartTimes(s: Scenario): Generator<number> {
  if (s.executor === 'constant-arrival-rate') {
    const interval = s.timeUnitMs / s.rate;
    for (let i = 0; i * interval < s.durationMs; i++) yield i * interval;
    return;
  }
  // As k6's cal() (lib/executor/ramping_arrival_rate.go): iteration n starts when the integral of the rate since
  // the start reaches n + 1 ("start from 1 not 0"), so none at t=0, and one exactly at a stage's end when the
  // integral lands there.
  let stageStart = 0;
  let doneSoFar = 0;
  let endCount = 0;
  let from = s.startRate / s.timeUnitMs;
  let area = 1;
  for (const stage of s.stages) {
    const to = stage.target / s.timeUnitMs;
    const dur = stage.durationMs;
    endCount += dur * ((to - from) / 2 + from);
    for (; area <= endCount + 1e-9; area++) {
      const n = area - doneSoFar;
      const t =
        from === to
          ? n / to
          : (from * dur - Math.sqrt(Math.max(0, dur * (from * from * dur + 2 * n * (to - from))))) /
            (from - to);
      yield stageStart + Math.min(t, dur);
    }
    doneSoFar = endCount;
    from = to;
    stageStart += dur;
  }
}

/** The arrival rate at `t` ms into the scenario, per timeUnit (for progress and capacity reports). */
export function rateAt(s: Scenario, t: number): number {
  if (s.executor === 'constant-arrival-rate') return s.rate;
  let from = s.startRate;
  let start = 0;
  for (const stage of s.stages) {
    if (t < start + stage.durationMs) return from + ((stage.target - from) * (t - start)) / stage.durationMs;
    start += stage.durationMs;
    from = stage.target;
  }
  return from;
}

export async function runArrivalRate(ctx: ExecutorContext): Promise<void> {
  const { test, run } = ctx;
  const s = run.scenario;
  const idle: Vu[] = [...ctx.vus];
  let initialising = 0;
  const inFlight = new Map<Promise<void>, Vu>();
  const droppedTags = { ...test.globalTags, ...s.tags, scenario: s.name, group: '' };
  const t0 = performance.now();
  run.startedAt = Date.now();
  run.progress = () => Math.min(1, (performance.now() - t0) / s.durationMs);
  let index = 0;
  for (const at of iterationStartTimes(s)) {
    // k6's regular duration ends a moment before an iteration due exactly then, so that one never starts.
    if (test.aborted || at >= s.durationMs) break;
    const wait = t0 + at - performance.now();
    if (wait >= 1) await delay(wait);
    const iterationInTest = index++;
    const vu = idle.pop();
    if (!vu) {
      // As in k6: the iteration is dropped, and a new VU starts initialising if maxVUs allows.
      test.registry.add(test.builtins.dropped_iterations, 1, droppedTags);
      if (run.allocatedVUs + initialising < s.maxVUs) {
        initialising++;
        void ctx.newVu().then(
          (fresh) => {
            initialising--;
            idle.push(fresh);
          },
          () => initialising--,
        );
      }
      continue;
    }
    run.activeVUs++;
    const iteration: Promise<void> = runIteration(ctx, vu, iterationInTest).then(() => {
      inFlight.delete(iteration);
      run.activeVUs--;
      idle.push(vu);
    });
    inFlight.set(iteration, vu);
  }
  const remaining = t0 + s.durationMs - performance.now();
  if (remaining > 0 && !test.aborted) await Promise.race([delay(remaining), test.whenAborted]);
  await gracefulStop(run, inFlight, test.aborted ? 0 : s.gracefulStopMs);
}
