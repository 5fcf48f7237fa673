/**
 * Stress: the arrival rate climbs in steps (ramp, then hold) until past the point where the SLO
 * breaks; the latency and failure thresholds abort the run once that knee is found (after the first
 * step, so warm-up does not count). Full: from 50 req/s up by 50 for 10 steps, ramp 1m, hold 2m.
 * Smoke: 10 → 30 req/s in 3 steps of 2s + 4s. Env: START_RATE, STEP_RATE, STEPS, RAMP, HOLD, SCALE.
 */
import type { Options } from 'k6/options';
import { mixedIteration } from './lib/mix.ts';
import { loadDatasetBounds, type SetupData } from './lib/points.ts';
import { duration, num, rate, seconds } from './lib/settings.ts';
import { staircase } from './lib/shapes.ts';
import { requestsPerScenario, SLO, SUMMARY_TREND_STATS } from './lib/slo.ts';
import { HEADLINE_THRESHOLDS, summaryHandler } from './lib/summary.ts';

const ramp = duration('RAMP', '1m', '2s');
const hold = duration('HOLD', '2m', '4s');
const firstStep = `${seconds(ramp) + seconds(hold)}s`;

export const options: Options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: {
    stress: staircase(rate('START_RATE', 50, 10), rate('STEP_RATE', 50, 10), num('STEPS', 10, 3), ramp, hold),
  },
  thresholds: {
    ...HEADLINE_THRESHOLDS,
    ...requestsPerScenario(['stress']),
    'http_req_failed{scenario:stress}': [
      { threshold: SLO.failedRate, abortOnFail: true, delayAbortEval: firstStep },
    ],
    'http_req_duration{scenario:stress}': [
      { threshold: SLO.p95, abortOnFail: true, delayAbortEval: firstStep },
    ],
    'checks{scenario:stress}': [SLO.checks],
  },
};

export function setup(): Promise<SetupData> {
  return loadDatasetBounds();
}

export default function (data: SetupData): Promise<void> {
  return mixedIteration(data);
}

/** Writes the JSON summary `npm run report` reads (lib/summary.ts), under k6 as under the runner. */
export const handleSummary = summaryHandler('stress');
