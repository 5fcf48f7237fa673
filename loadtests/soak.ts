/**
 * Soak: a moderate constant rate for hours, to expose latency drift and memory growth (watch
 * k6_http_req_duration_p95 and the API's own metrics in Prometheus over the run). Requests in the
 * first and the last 10% of the run are tagged `soak_phase: early|late`, so the summary compares them.
 * Full: 30 req/s for 2h (the documented default). Smoke: 10 req/s for 15s. Env: RATE, DURATION, SCALE.
 */
import exec from 'k6/execution';
import type { Options } from 'k6/options';
import { checkElevations } from './lib/checks.ts';
import { pickMixed } from './lib/mix.ts';
import { loadDatasetBounds, type SetupData } from './lib/points.ts';
import { send } from './lib/requests.ts';
import { duration, rate } from './lib/settings.ts';
import { steady } from './lib/shapes.ts';
import { SLO, sloThresholds, SUMMARY_TREND_STATS } from './lib/slo.ts';
import { summaryHandler } from './lib/summary.ts';

export const options: Options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios: { soak: steady(rate('RATE', 30, 10), duration('DURATION', '2h', '15s')) },
  thresholds: sloThresholds(['soak'], {
    'http_req_duration{soak_phase:early}': [SLO.p95],
    'http_req_duration{soak_phase:late}': [SLO.p95],
  }),
};

export function setup(): Promise<SetupData> {
  return loadDatasetBounds();
}

function phase(progress: number): string {
  if (progress < 0.1) return 'early';
  return progress >= 0.9 ? 'late' : 'middle';
}

export default async function (data: SetupData): Promise<void> {
  const req = pickMixed(data);
  const soakPhase = phase(exec.scenario.progress);
  const res = await send(req, data.dataset, { soak_phase: soakPhase });
  checkElevations(req, res);
}

/** Writes the JSON summary `npm run report` reads (lib/summary.ts), under k6 as under the runner. */
export const handleSummary = summaryHandler('soak');
