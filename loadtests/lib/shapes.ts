/** Named load shapes: the scenario objects the profiles combine (arrival-rate executors throughout). */
import type { ConstantArrivalRateScenario, RampingArrivalRateScenario } from 'k6/options';
import { num } from './settings.ts';
import { MEASURED } from './summary.ts';

/**
 * VUs to pre-allocate for a rate: enough for ~200 ms responses (VUS_PER_RATE seconds), more allowed up
 * to maxVUs. As in k6, an iteration that finds no idle VU is dropped while a new VU initialises.
 * maxVUs is capped at MAX_VUS (256): our runner gives each VU a thread (~10 MB), and an overloaded API (20 s
 * answers at 320 req/s) once made a capacity trial start 1,600 of them until V8 could not commit a heap
 * (measured in a CI run on a loaded machine). Past the cap the iterations are dropped: the trial fails its
 * SLO, as it should.
 */
function vusFor(ratePerSecond: number): { preAllocatedVUs: number; maxVUs: number } {
  const cap = Math.max(2, Math.floor(num('MAX_VUS', 256)));
  const preAllocatedVUs = Math.min(cap, Math.max(2, Math.ceil(ratePerSecond * num('VUS_PER_RATE', 0.2))));
  return { preAllocatedVUs, maxVUs: Math.min(cap, Math.max(10, preAllocatedVUs * 10)) };
}

/** A steady open-model rate (requests/s) for a duration. */
export function steady(
  ratePerSecond: number,
  duration: string,
  startTime = '0s',
): ConstantArrivalRateScenario {
  return {
    executor: 'constant-arrival-rate',
    rate: ratePerSecond,
    timeUnit: '1s',
    duration,
    startTime,
    gracefulStop: '10s',
    tags: MEASURED,
    ...vusFor(ratePerSecond),
  };
}

/** Staircase: from `start` up by `step` per level, each level ramped over `ramp` then held for `hold`. */
export function staircase(
  start: number,
  step: number,
  levels: number,
  ramp: string,
  hold: string,
): RampingArrivalRateScenario {
  const stages = [];
  for (let level = 1; level <= levels; level++) {
    const target = start + step * (level - 1);
    stages.push({ duration: ramp, target }, { duration: hold, target });
  }
  const peak = start + step * (levels - 1);
  return {
    executor: 'ramping-arrival-rate',
    startRate: 1,
    timeUnit: '1s',
    stages,
    gracefulStop: '10s',
    tags: MEASURED,
    ...vusFor(peak),
  };
}

/** A sudden jump from `base` to `peak` (reached within `rise`), held, then dropped back to `base`. */
export function spike(
  base: number,
  peak: number,
  rise: string,
  hold: string,
  startTime: string,
): RampingArrivalRateScenario {
  return {
    executor: 'ramping-arrival-rate',
    startRate: base,
    timeUnit: '1s',
    startTime,
    stages: [
      { duration: rise, target: peak },
      { duration: hold, target: peak },
      { duration: rise, target: base },
    ],
    gracefulStop: '10s',
    tags: MEASURED,
    ...vusFor(peak),
  };
}
