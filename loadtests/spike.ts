/**
 * Spike: steady base load, a sudden jump to many times that rate, hold, drop back, then a recovery
 * phase whose own thresholds check that latency and errors return to the SLO after the spike.
 * Full: 20 req/s for 1m, ×10 within 10s, hold 1m, back within 10s, recovery 2m.
 * Smoke: 10 req/s for 4s, ×5 within 1s, hold 4s, back within 1s, recovery 6s.
 * Env: BASE_RATE, SPIKE_FACTOR, BEFORE, RISE, SPIKE_HOLD, RECOVERY, SCALE.
 */
import type { Options } from 'k6/options';
import { mixedIteration } from './lib/mix.ts';
import { loadDatasetBounds, type SetupData } from './lib/points.ts';
import { duration, num, rate, seconds } from './lib/settings.ts';
import { spike, steady } from './lib/shapes.ts';
import { requestsPerScenario, SLO, SUMMARY_TREND_STATS } from './lib/slo.ts';
import { HEADLINE_THRESHOLDS, summaryHandler } from './lib/summary.ts';

const base = rate('BASE_RATE', 20, 10);
const peak = Math.round(base * num('SPIKE_FACTOR', 10, 5));
const before = duration('BEFORE', '1m', '4s');
const rise = duration('RISE', '10s', '1s');
const hold = duration('SPIKE_HOLD', '1m', '4s');
const spikeStart = seconds(before);
const recoveryStart = spikeStart + 2 * seconds(rise) + seconds(hold);

export const options: Options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: {
    before: steady(base, before),
    spike: spike(base, peak, rise, hold, `${spikeStart}s`),
    recovery: steady(base, duration('RECOVERY', '2m', '6s'), `${recoveryStart}s`),
  },
  thresholds: {
    ...HEADLINE_THRESHOLDS,
    ...requestsPerScenario(['before', 'spike', 'recovery']),
    // The spike itself may hurt; the service must be healthy before and after it.
    'http_req_duration{scenario:before}': [SLO.p95],
    'http_req_duration{scenario:recovery}': [SLO.p95],
    'http_req_failed{scenario:recovery}': [SLO.failedRate],
    'http_req_failed{scenario:spike}': ['rate<0.05'],
    'checks{scenario:recovery}': [SLO.checks],
  },
};

export function setup(): Promise<SetupData> {
  return loadDatasetBounds();
}

export default function (data: SetupData): Promise<void> {
  return mixedIteration(data);
}

/** Writes the JSON summary `npm run report` reads (lib/summary.ts), under k6 as under the runner. */
export const handleSummary = summaryHandler('spike');
