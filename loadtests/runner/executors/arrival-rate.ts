/**
 * constant-arrival-rate and ramping-arrival-rate: iteration i starts when the integral of the rate
 * reaches i (so the first starts at t=0), independent of how long iterations take. No idle VU and
 * → the iteration is dropped and counted in dropped_iterations, and below maxVUs a new VU starts
 * initialising in the background for later iterations, as in k6.
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
  let stageStart = 0;
  let countAtStageStart = 0;
  let fromRate = s.startRate / s.timeUnitMs;
  let i = 0;
  for (const stage of s.stages) {
    const toRate = stage.target / s.timeUnitMs;
    const slope = (toRate - fromRate) / stage.durationMs;
    for (;;) {
      const c = i - countAtStageStart;
      let t: number;
      if (c === 0) t = 0;
      else if (slope === 0) t = fromRate > 0 ? c / fromRate : Infinity;
      else t = (-fromRate + Math.sqrt(fromRate * fromRate + 2 * slope * c)) / slope;
      if (!(t < stage.durationMs)) break;
      yield stageStart + t;
      i++;
    }
    countAtStageStart += ((fromRate + toRate) / 2) * stage.durationMs;
    stageStart += stage.durationMs;
    fromRate = toRate;
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
    if (test.aborted) break;
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
