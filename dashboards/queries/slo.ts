// The service level objectives, in one place: dashboards draw them, alert rules and load-test
// thresholds state the same numbers (k6: http_req_duration p(95)<200, http_req_failed rate<0.01).

/** 95th percentile request latency must stay under 200 ms. */
export const LATENCY_P95_SECONDS = 0.2;
/** Fewer than 1% of requests may fail. */
export const ERROR_RATIO = 0.01;
/** More than 99% of load-test checks must pass. */
export const CHECKS_PASS_RATIO = 0.99;
