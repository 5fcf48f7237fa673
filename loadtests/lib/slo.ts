/** The service level objectives, as k6 thresholds: the pass/fail criteria of every profile. */
export const SLO = {
  /** Fewer than 1% of requests may fail. */
  failedRate: 'rate<0.01',
  /** 95% of requests answer within 200 ms. */
  p95: 'p(95)<200',
  /** More than 99% of checks pass. */
  checks: 'rate>0.99',
};

export function sloThresholds(extra: Record<string, string[]> = {}): Record<string, string[]> {
  return {
    http_req_failed: [SLO.failedRate],
    http_req_duration: [SLO.p95],
    checks: [SLO.checks],
    ...extra,
  };
}

/** Trend stats in every summary: p(50) is `med`; p(99) for the capacity table and the tail. */
export const SUMMARY_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)', 'p(99)'];
