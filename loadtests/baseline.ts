/**
 * Baseline: a normal day's load at a constant arrival rate. Full: 20 req/s for 10 min.
 * Smoke (SMOKE=1): 10 req/s for 15 s. Env: BASE_URL, DATASET, SCALE, RATE, DURATION.
 */
import type { Options } from 'k6/options';
import { mixedIteration } from './lib/mix.ts';
import { loadDatasetBounds, type SetupData } from './lib/points.ts';
import { duration, rate } from './lib/settings.ts';
import { steady } from './lib/shapes.ts';
import { sloThresholds, SUMMARY_TREND_STATS } from './lib/slo.ts';
import { summaryHandler } from './lib/summary.ts';

export const options: Options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: { baseline: steady(rate('RATE', 20, 10), duration('DURATION', '10m', '15s')) },
  thresholds: sloThresholds(['baseline']),
};

export function setup(): Promise<SetupData> {
  return loadDatasetBounds();
}

export default function (data: SetupData): Promise<void> {
  return mixedIteration(data);
}

/** Writes the JSON summary `npm run report` reads (lib/summary.ts), under k6 as under the runner. */
export const handleSummary = summaryHandler('baseline');
