// Load test dashboard: what the load generator offered and saw, per test run (testid), on the names
// k6's experimental-prometheus-rw output writes, so the same panels work for real k6 and our runner.
import { k6 } from './metric-names';
import { orZero, rate } from './promql';
import { CHECKS_PASS_RATIO, ERROR_RATIO, LATENCY_P95_SECONDS } from './slo';
import type { DashboardDefinition, MetricPanel } from './types';

const RUN = 'testid=~"$testid"';
/**
 * Only requests made by a scenario, as the SLO thresholds count them (`{scenario:…}`): setup()'s
 * first request meets a cold API and would stand for the whole run in a max over series.
 */
const IN_SCENARIO = `${RUN},scenario!=""`;
const byRun = (fn: string, expr: string): string => `${fn} by (testid) (${expr})`;

const metric = (p: Omit<MetricPanel, 'datasource' | 'style'>): MetricPanel => ({
  datasource: 'prometheus',
  style: 'timeseries',
  ...p,
});

/**
 * k6's remote write sends no staleness markers, so Prometheus would repeat a run's last gauge value for 5 minutes
 * after it ended; reading gauges through `*_over_time(…[$__rate_interval])` ends the line one window after the run.
 */
const overWindow = (fn: 'last' | 'max', series: string): string =>
  `${fn}_over_time(${series}[$__rate_interval])`;

const iterationsPerSecond = byRun('sum', rate(k6.iterations, RUN));
const droppedPerSecond = byRun('sum', rate(k6.droppedIterations, RUN));

export const loadTestPanels = {
  elevationsPerMinute: metric({
    key: 'load-elevations-per-minute',
    title: 'Elevations per minute (returned to the load generator)',
    description:
      'The load scripts’ elevations counter (scenarios only, as the headline) as a per-second rate over the rate window × 60, per test run.',
    unit: 'suffix: elev/min',
    width: 12,
    queries: [{ expr: `${byRun('sum', rate(k6.elevations, RUN))} * 60`, legend: '{{testid}}' }],
  }),
  arrivalRate: metric({
    key: 'load-arrival-rate',
    title: 'Arrival rate (iterations started per second)',
    description: 'Completed plus dropped iterations per second: the rate the executor tried to start.',
    unit: 'ops',
    width: 12,
    queries: [
      {
        expr: `${iterationsPerSecond} + ${orZero(droppedPerSecond, iterationsPerSecond)}`,
        legend: '{{testid}}',
      },
    ],
  }),
  vus: metric({
    key: 'load-vus',
    title: 'Virtual users (count)',
    description:
      'VUs of the run, as the load generator counts them: running = VUs inside an iteration (the most seen in each rate window, sampled every second), allocated = VUs initialised so far (pre-allocated plus any an arrival-rate executor started). Whole numbers; the lines end with the run.',
    unit: 'short',
    width: 8,
    decimals: 0,
    queries: [
      { expr: byRun('sum', overWindow('max', `${k6.vus}{${RUN}}`)), legend: 'running {{testid}}' },
      { expr: byRun('sum', overWindow('max', `${k6.vusMax}{${RUN}}`)), legend: 'allocated {{testid}}' },
    ],
  }),
  requestsPerSecond: metric({
    key: 'load-requests-per-second',
    title: 'HTTP requests per second by status',
    description: 'Requests the load generator completed per second, by response status.',
    unit: 'reqps',
    width: 8,
    queries: [
      { expr: `sum by (testid, status) (${rate(k6.httpReqs, RUN)})`, legend: '{{testid}} {{status}}' },
    ],
  }),
  droppedIterations: metric({
    key: 'load-dropped-iterations',
    title: 'Dropped iterations per second',
    description:
      'Iterations the arrival-rate executor could not start (no free VU): the generator fell behind.',
    unit: 'ops',
    width: 8,
    queries: [{ expr: orZero(droppedPerSecond, iterationsPerSecond), legend: '{{testid}}' }],
  }),
  duration: metric({
    key: 'load-http-req-duration',
    title: 'http_req_duration p50 / p95 / p99 (slowest request name)',
    description:
      'Response time percentiles as the load generator measured them, per run: k6 computes them per tag set (request name, status…), and percentiles do not add up, so each line is the slowest tag set’s. The line is the p95 SLO (in the run report: the run’s own p95 thresholds).',
    unit: 's',
    width: 12,
    queries: [
      {
        expr: byRun('max', overWindow('last', `${k6.durationP50}{${IN_SCENARIO}}`)),
        legend: 'p50 {{testid}}',
      },
      {
        expr: byRun('max', overWindow('last', `${k6.durationP95}{${IN_SCENARIO}}`)),
        legend: 'p95 {{testid}}',
      },
      {
        expr: byRun('max', overWindow('last', `${k6.durationP99}{${IN_SCENARIO}}`)),
        legend: 'p99 {{testid}}',
      },
    ],
    slo: { value: LATENCY_P95_SECONDS, label: 'SLO p95 200 ms', bad: 'above' },
  }),
  failures: metric({
    key: 'load-http-req-failed',
    title: 'Failed requests (http_req_failed)',
    description:
      'Share of requests k6 counts as failed (unexpected status or network error) since the run started: each tag set’s rate weighted by its request count.',
    unit: 'percentunit',
    width: 6,
    queries: [
      {
        // Rates are per tag set (status=200 → 0, status=500 → 1): an unweighted mean would be 50%.
        expr: `${byRun('sum', `${overWindow('last', `${k6.httpReqFailed}{${IN_SCENARIO}}`)} * ${overWindow('last', `${k6.httpReqs}{${IN_SCENARIO}}`)}`)} / ${byRun('sum', overWindow('last', `${k6.httpReqs}{${IN_SCENARIO}}`))}`,
        legend: '{{testid}}',
      },
    ],
    slo: { value: ERROR_RATIO, label: 'SLO 1% failures', bad: 'above' },
  }),
  checks: metric({
    key: 'load-checks',
    title: 'Checks passed',
    description:
      'Share of checks that passed (status 200, result count, numeric elevations) since the run started: each check name’s and scenario’s rate weighted by its number of checks (a real k6 pushes no count: then their plain mean).',
    unit: 'percentunit',
    width: 6,
    queries: [
      {
        // Passes / all checks. An unweighted mean let a scenario with a few checks count as much as one with
        // thousands (a spike run: 73.1 % for 41.7 %); k6 pushes no count, so its runs fall back to that mean.
        expr:
          `${byRun('sum', `${overWindow('last', `${k6.checks}{${IN_SCENARIO}}`)} * ${overWindow('last', `${k6.checksSamples}{${IN_SCENARIO}}`)}`)} / ${byRun('sum', overWindow('last', `${k6.checksSamples}{${IN_SCENARIO}}`))}` +
          ` or ${byRun('avg', overWindow('last', `${k6.checks}{${IN_SCENARIO}}`))}`,
        legend: '{{testid}}',
      },
    ],
    slo: { value: CHECKS_PASS_RATIO, label: 'threshold 99% checks', bad: 'below' },
  }),
} satisfies Record<string, MetricPanel>;

const p = loadTestPanels;

export const loadTestDashboard: DashboardDefinition = {
  uid: 'load-test',
  title: 'Load test',
  description:
    'k6 results (remote write), one line per test run: pick runs in the testid variable to compare.',
  tags: ['elevation-api', 'k6', 'generated'],
  variables: [
    {
      name: 'testid',
      label: 'Test run',
      kind: 'query',
      query: { metric: k6.httpReqs, label: 'testid' },
      defaultValue: '.*',
    },
  ],
  rows: [
    {
      title: 'Throughput',
      panels: [p.elevationsPerMinute, p.arrivalRate, p.vus, p.requestsPerSecond, p.droppedIterations],
    },
    { title: 'Latency and correctness', panels: [p.duration, p.failures, p.checks] },
  ],
};
