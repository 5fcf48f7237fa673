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

const iterationsPerSecond = byRun('sum', rate(k6.iterations, RUN));
const droppedPerSecond = byRun('sum', rate(k6.droppedIterations, RUN));

export const loadTestPanels = {
  elevationsPerMinute: metric({
    key: 'load-elevations-per-minute',
    title: 'Elevations per minute (returned to the load generator)',
    description: 'The load scripts’ elevations counter as a per-minute rate over 1m, per test run.',
    unit: 'suffix: elev/min',
    width: 12,
    queries: [{ expr: `${byRun('sum', rate(k6.elevations, RUN, '1m'))} * 60`, legend: '{{testid}}' }],
    fixedWindowReason: 'elevations per minute is defined as rate over exactly 1 minute × 60',
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
    title: 'Virtual users',
    description: 'Active VUs and the allocated maximum.',
    unit: 'short',
    width: 8,
    queries: [
      { expr: byRun('sum', `${k6.vus}{${RUN}}`), legend: 'active {{testid}}' },
      { expr: byRun('sum', `${k6.vusMax}{${RUN}}`), legend: 'max {{testid}}' },
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
      'Response time percentiles as the load generator measured them, per run: k6 computes them per tag set (request name, status…), and percentiles do not add up, so each line is the slowest tag set’s. The line is the p95 SLO.',
    unit: 's',
    width: 12,
    queries: [
      { expr: byRun('max', `${k6.durationP50}{${IN_SCENARIO}}`), legend: 'p50 {{testid}}' },
      { expr: byRun('max', `${k6.durationP95}{${IN_SCENARIO}}`), legend: 'p95 {{testid}}' },
      { expr: byRun('max', `${k6.durationP99}{${IN_SCENARIO}}`), legend: 'p99 {{testid}}' },
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
        expr: `${byRun('sum', `${k6.httpReqFailed}{${IN_SCENARIO}} * ${k6.httpReqs}{${IN_SCENARIO}}`)} / ${byRun('sum', `${k6.httpReqs}{${IN_SCENARIO}}`)}`,
        legend: '{{testid}}',
      },
    ],
    slo: { value: ERROR_RATIO, label: 'SLO 1% failures', bad: 'above' },
  }),
  checks: metric({
    key: 'load-checks',
    title: 'Checks passed',
    description:
      'Share of checks that passed (status 200, result count, numeric elevations), averaged over the check names.',
    unit: 'percentunit',
    width: 6,
    queries: [{ expr: byRun('avg', `${k6.checks}{${IN_SCENARIO}}`), legend: '{{testid}}' }],
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
