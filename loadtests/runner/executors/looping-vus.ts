/**
 * VU-based executors: constant-vus, ramping-vus, per-vu-iterations, shared-iterations. Each VU loops,
 * one iteration after another, while the executor wants it active.
 */
import type { Scenario } from '../scenarios.ts';
import type { Vu } from '../test-run.ts';
import { delay, gracefulStop, runIteration, type ExecutorContext } from './common.ts';

/**
 * Active VUs a ramping-vus scenario wants `t` ms in: linear between stage targets, as k6's execution
 * steps place them: ramping up, a VU starts when the line reaches its number (floor); ramping down, a
 * VU stops only when the line reaches the number below it (ceiling), "on the next unscaled VU's time".
 */
export function targetVUsAt(s: Scenario, t: number): number {
  let from = s.vus;
  let start = 0;
  for (const stage of s.stages) {
    if (t < start + stage.durationMs) {
      const line = from + ((stage.target - from) * (t - start)) / stage.durationMs;
      // The tolerance keeps an exact step (1.0000000002 from float arithmetic) on its own time.
      return stage.target >= from ? Math.floor(line + 1e-9) : Math.ceil(line - 1e-9);
    }
    start += stage.durationMs;
    from = stage.target;
  }
  return from;
}

interface LoopVu {
  readonly vu: Vu;
  /** VU index within the scenario (0-based). */
  readonly slot: number;
  wanted: boolean;
  loop?: Promise<void>;
  /** The iteration it is running, if any. */
  iteration?: Promise<void>;
  /** The pending interrupt of the iteration it was ramped down in, if any. */
  rampDownTimer?: ReturnType<typeof setTimeout>;
}

export async function runLoopingVUs(ctx: ExecutorContext): Promise<void> {
  const { test, run } = ctx;
  const s = run.scenario;
  const t0 = performance.now();
  run.startedAt = Date.now();
  const deadline = t0 + s.durationMs;
  const inFlight = new Map<Promise<void>, Vu>();
  let stopping = false;
  let nextShared = 0;
  let nextIndex = 0;

  run.progress = () => {
    if (s.executor === 'shared-iterations') return Math.min(1, run.iterationsCompleted / s.iterations);
    return Math.min(1, (performance.now() - t0) / s.durationMs);
  };

  async function loop(v: LoopVu): Promise<void> {
    run.activeVUs++;
    let own = 0;
    while (v.wanted && !stopping && !test.aborted && performance.now() < deadline) {
      let index: number;
      if (s.executor === 'shared-iterations') {
        if (nextShared >= s.iterations) break;
        index = nextShared++;
      } else if (s.executor === 'per-vu-iterations') {
        if (own >= s.iterations) break;
        index = v.slot * s.iterations + own;
      } else index = nextIndex++;
      own++;
      const iteration = runIteration(ctx, v.vu, index);
      inFlight.set(iteration, v.vu);
      v.iteration = iteration;
      await iteration;
      v.iteration = undefined;
      inFlight.delete(iteration);
    }
    run.activeVUs--;
  }

  const vus: LoopVu[] = ctx.vus.map((vu, slot) => ({ vu, slot, wanted: false }));
  const setActive = (target: number) => {
    for (const v of vus) {
      const want = v.slot < target;
      if (want && !v.wanted) {
        v.wanted = true;
        // Back up within gracefulRampDown: that ramp-down's interrupt is off, else (ramped down again in the same
        // iteration) it would cut the VU short of the next ramp-down's full gracefulRampDown.
        clearTimeout(v.rampDownTimer);
        v.loop ??= loop(v).then(() => {
          v.loop = undefined;
        });
      } else if (!want && v.wanted) {
        v.wanted = false;
        rampDown(v);
      }
    }
  };
  /**
   * A ramped-down VU starts no new iteration and gets gracefulRampDown to finish the one it runs; then it is
   * interrupted, unless ramped up again meanwhile (k6's lib/executor/ramping_vus.go: a raw step back up to the
   * level within gracefulRampDown drops that ramp-down's hard stop, reserveVUsForGracefulRampDowns).
   */
  const rampDown = (v: LoopVu) => {
    const current = v.iteration;
    if (!current) return;
    const timer = setTimeout(() => {
      if (v.iteration === current && !v.wanted) v.vu.handle.interrupt();
    }, s.gracefulRampDownMs);
    v.rampDownTimer = timer;
    const clear = () => clearTimeout(timer);
    current.then(clear, clear);
  };

  if (s.executor === 'ramping-vus') {
    // Re-evaluate the VU target often enough for second-scale stages; cheap (a loop over the VUs).
    while (!test.aborted && performance.now() < deadline) {
      setActive(targetVUsAt(s, performance.now() - t0));
      await Promise.race([delay(Math.min(100, deadline - performance.now())), test.whenAborted]);
    }
  } else {
    setActive(s.vus);
    const allDone = Promise.all(vus.map((v) => v.loop));
    await Promise.race([allDone, delay(s.durationMs), test.whenAborted]);
  }
  stopping = true;
  await gracefulStop(run, inFlight, test.aborted ? 0 : s.gracefulStopMs);
  // As k6 (lib/executor/shared_iterations.go, per_vu_iterations.go): the iterations not started when maxDuration
  // ran out are dropped_iterations (not on an abort, whose samples k6 no longer takes).
  const planned =
    s.executor === 'shared-iterations'
      ? s.iterations
      : s.executor === 'per-vu-iterations'
        ? s.iterations * vus.length
        : 0;
  if (planned > run.iterationsStarted && !test.aborted)
    test.registry.add(test.builtins.dropped_iterations, planned - run.iterationsStarted, {
      ...test.globalTags,
      ...s.tags,
      scenario: s.name,
      group: '',
    });
}
