/**
 * VU-based executors: constant-vus, ramping-vus, per-vu-iterations, shared-iterations. Each VU is an
 * async loop running one iteration after another; VUs are dealt round-robin to worker threads.
 */
import type { VuState } from '../runtime.ts';
import type { Scenario } from '../scenarios.ts';
import { delay, gracefulStop, runIteration, type ExecutorContext } from './common.ts';

/** Active VUs a ramping-vus scenario wants `t` ms in (linear between stage targets, floored). */
export function targetVUsAt(s: Scenario, t: number): number {
  let from = s.vus;
  let start = 0;
  for (const stage of s.stages) {
    if (t < start + stage.durationMs)
      return Math.floor(from + ((stage.target - from) * (t - start)) / stage.durationMs);
    start += stage.durationMs;
    from = stage.target;
  }
  return from;
}

interface LoopVu {
  readonly state: VuState;
  /** Global VU index within the scenario (0-based), decides which thread owns it. */
  readonly slot: number;
  wanted: boolean;
  loop?: Promise<void>;
}

export async function runLoopingVUs(ctx: ExecutorContext): Promise<void> {
  const { runtime, run, segment } = ctx;
  const s = run.scenario;
  const t0 = performance.now();
  run.startedAt = Date.now();
  const deadline = t0 + s.durationMs;
  const inFlight = new Set<Promise<void>>();
  let stopping = false;
  const sharedCounter = { next: 0 };

  run.progress = () => {
    if (s.executor === 'shared-iterations') return Math.min(1, run.iterationsCompleted / s.iterations);
    return Math.min(1, (performance.now() - t0) / s.durationMs);
  };

  async function loop(vu: LoopVu): Promise<void> {
    run.activeVUs++;
    let own = 0;
    while (vu.wanted && !stopping && !runtime.aborted && performance.now() < deadline) {
      let index: number;
      if (s.executor === 'shared-iterations') {
        index = ctx.takeSharedIteration(s.iterations);
        if (index < 0) break;
      } else if (s.executor === 'per-vu-iterations') {
        if (own >= s.iterations) break;
        index = vu.slot * s.iterations + own;
      } else index = sharedCounter.next++;
      own++;
      const iteration = runtime.vuContext.run(vu.state, () => runIteration(ctx, vu.state, index));
      inFlight.add(iteration);
      await iteration;
      inFlight.delete(iteration);
    }
    run.activeVUs--;
  }

  const vus: LoopVu[] = [];
  const maxSlots = s.executor === 'ramping-vus' ? Math.max(s.vus, ...s.stages.map((st) => st.target)) : s.vus;
  for (let slot = segment.index; slot < maxSlots; slot += segment.count) {
    vus.push({ state: runtime.newVu(run, slot + 1), slot, wanted: false });
    run.allocatedVUs++;
  }
  const setActive = (target: number) => {
    for (const vu of vus) {
      const want = vu.slot < target;
      if (want && !vu.wanted) {
        vu.wanted = true;
        if (!vu.loop) {
          vu.loop = loop(vu).then(() => {
            vu.loop = undefined;
          });
        }
      } else if (!want && vu.wanted) vu.wanted = false;
    }
  };

  if (s.executor === 'ramping-vus') {
    // Re-evaluate the VU target often enough for second-scale stages; cheap (a loop over the VUs).
    while (!runtime.aborted && performance.now() < deadline) {
      setActive(targetVUsAt(s, performance.now() - t0));
      await Promise.race([delay(Math.min(100, deadline - performance.now())), runtime.whenAborted]);
    }
  } else {
    setActive(s.vus);
    const allDone = Promise.all(vus.map((vu) => vu.loop));
    await Promise.race([allDone, delay(s.durationMs), runtime.whenAborted]);
  }
  stopping = true;
  await gracefulStop(run, inFlight, runtime.aborted ? 0 : s.gracefulStopMs);
}
