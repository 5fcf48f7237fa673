/**
 * constant-arrival-rate and ramping-arrival-rate: iteration i starts when the integral of the rate
 * reaches i (so the first starts at t=0), independent of how long iterations take. No idle VU and
 * maxVUs reached → the iteration is dropped and counted in dropped_iterations, as in k6.
 * Unlike k6, a VU here initialises instantly, so below maxVUs a new VU takes the iteration at once
 * instead of the iteration being dropped while the VU initialises in the background.
 */
import type { Scenario } from '../scenarios.ts';
import type { VuState } from '../runtime.ts';
import { delay, gracefulStop, runIteration, shareOf, yieldToIo, type ExecutorContext } from './common.ts';

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
  const { runtime, run, segment } = ctx;
  const s = run.scenario;
  const maxVUs = shareOf(s.maxVUs, segment);
  const idle: VuState[] = [];
  const newVu = () => runtime.newVu(run, segment.index + run.allocatedVUs++ * segment.count + 1);
  for (let n = shareOf(s.preAllocatedVUs, segment); n > 0; n--) idle.push(newVu());
  const inFlight = new Set<Promise<void>>();
  const droppedTags = { ...runtime.globalTags, ...s.tags, scenario: s.name, group: '' };
  const t0 = performance.now();
  run.startedAt = Date.now();
  run.progress = () => Math.min(1, (performance.now() - t0) / s.durationMs);
  let index = 0;
  let sinceYield = 0;
  for (const at of iterationStartTimes(s)) {
    const mine = index++ % segment.count === segment.index;
    if (!mine) continue;
    if (runtime.aborted) break;
    const wait = t0 + at - performance.now();
    if (wait >= 1) {
      await delay(wait);
      sinceYield = 0;
    } else if (++sinceYield >= 32) {
      // Behind schedule: still let responses in, or the loop would starve the VUs it starts.
      await yieldToIo();
      sinceYield = 0;
    }
    const vu = idle.pop() ?? (run.allocatedVUs < maxVUs ? newVu() : undefined);
    if (!vu) {
      runtime.record(runtime.builtins.dropped_iterations, 1, droppedTags);
      continue;
    }
    run.activeVUs++;
    const iteration: Promise<void> = runtime.vuContext
      .run(vu, () => runIteration(ctx, vu, index - 1))
      .then(() => {
        inFlight.delete(iteration);
        run.activeVUs--;
        idle.push(vu);
      });
    inFlight.add(iteration);
  }
  const remaining = t0 + s.durationMs - performance.now();
  if (remaining > 0 && !runtime.aborted) await Promise.race([delay(remaining), runtime.whenAborted]);
  await gracefulStop(run, inFlight, runtime.aborted ? 0 : s.gracefulStopMs);
}
