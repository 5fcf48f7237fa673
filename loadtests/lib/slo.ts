/**
 * The service level objectives, as k6 thresholds: the pass/fail criteria of every profile.
 * SLO_P95_MS, SLO_FAILED_RATE and SLO_CHECKS_RATE override them (e.g. SLO_P95_MS=0.001 to see a run fail).
 */
import { num } from './settings.ts';
import { HEADLINE_THRESHOLDS } from './summary.ts';

export const SLO = {
  /** Fewer than 1% of requests may fail. */
  failedRate: `rate<${num('SLO_FAILED_RATE', 0.01)}`,
  /** 95% of requests answer within 200 ms. */
  p95: `p(95)<${num('SLO_P95_MS', 200)}`,
  /** More than 99% of checks pass. */
  checks: `rate>${num('SLO_CHECKS_RATE', 0.99)}`,
};

/**
 * A scenario that sent nothing met no SLO: empty Rates and Trends pass in k6 (SCALE=abc once ran no request,
 * "3/3 passed", exit 0), a Counter's count>0 does not. Every profile sets it for each of its scenarios, also those
 * (stress, spike) that choose their other thresholds per scenario.
 */
export function requestsPerScenario(scenarios: string[]): Record<string, string[]> {
  return Object.fromEntries(scenarios.map((name) => [`http_reqs{scenario:${name}}`, ['count>0']]));
}

/**
 * The SLO thresholds for each named scenario. Scoped by the `scenario` tag so that setup()'s requests
 * (dataset bounds and the warm-up that absorbs serverless cold starts) do not count against the SLO.
 */
export function sloThresholds(
  scenarios: string[],
  extra: Record<string, string[]> = {},
): Record<string, string[]> {
  const thresholds: Record<string, string[]> = {};
  for (const name of scenarios) {
    thresholds[`http_req_failed{scenario:${name}}`] = [SLO.failedRate];
    thresholds[`http_req_duration{scenario:${name}}`] = [SLO.p95];
    thresholds[`checks{scenario:${name}}`] = [SLO.checks];
  }
  return { ...thresholds, ...requestsPerScenario(scenarios), ...HEADLINE_THRESHOLDS, ...extra };
}

/** Trend stats in every summary: p(50) is `med`; p(99) for the capacity table and the tail. */
export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'];
