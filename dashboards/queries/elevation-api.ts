// Elevation API dashboard: what the service does (elevations/min, requests, latency, errors) and
// why (block cache, range reads, decode, cold starts, CPU and memory of processes and host).
import { api, host, runtime } from './metric-names';
import { orZero, quantile, rate, sumRate } from './promql';
import { ERROR_RATIO, LATENCY_P95_SECONDS } from './slo';
import type { DashboardDefinition, MetricPanel } from './types';

const DS = 'dataset=~"$dataset"';
const latencySlo = { value: LATENCY_P95_SECONDS, label: 'SLO p95 200 ms', bad: 'above' } as const;

const metric = (p: Omit<MetricPanel, 'datasource' | 'style'>): MetricPanel => ({
  datasource: 'prometheus',
  style: 'timeseries',
  ...p,
});

const requestsAll = sumRate(api.requests, DS);
/** Who is who in the process panels (stack/bridge/process-table.ts decides the labels). */
const PROCESSES_CAPTION =
  'api = serverless-offline with its worker threads (the Lambda handlers); data-layer = the npm start process that serves the DEM files and runs the local gateway; bridge = EMF → Prometheus; collector = the OpenTelemetry Collector (traces); jaeger; prometheus; node-exporter; load-generator = the k6-compatible runner (report:smoke). Each is a PID file in STACK_PIDS_DIR with its child processes.';
const hits = sumRate(api.cacheHits, DS);
const misses = sumRate(api.cacheMisses, DS);

export const elevationApiPanels = {
  elevationsPerMinute: metric({
    key: 'api-elevations-per-minute',
    title: 'Elevations per minute',
    description:
      'Elevations computed per minute by the API, all requests (per-second rate over the rate window × 60; the window follows the scrape interval and, in the run report, the run’s length).',
    unit: 'suffix: elev/min',
    width: 12,
    queries: [{ expr: `sum(${rate(api.elevations, DS)}) * 60`, legend: 'elevations/min' }],
  }),
  requestsByRoute: metric({
    key: 'api-requests-by-route',
    title: 'Requests per second by route and status',
    description: 'Requests handled per second, split by route and outcome (2xx/4xx/5xx).',
    unit: 'reqps',
    width: 12,
    queries: [{ expr: sumRate(api.requests, DS, ['route', 'outcome']), legend: '{{route}} {{outcome}}' }],
  }),
  latency: metric({
    key: 'api-latency-percentiles',
    title: 'Request latency p50 / p95 / p99',
    description: 'Handler latency percentiles from the request-latency histogram; the line is the p95 SLO.',
    unit: 's',
    width: 12,
    queries: [0.5, 0.95, 0.99].map((q) => ({
      expr: quantile(q, api.latency, DS),
      legend: `p${Math.round(q * 100)}`,
    })),
    slo: latencySlo,
  }),
  latencyByRoute: metric({
    key: 'api-latency-p95-by-route',
    title: 'Request latency p95 by route',
    description: '95th percentile latency per route; the line is the SLO.',
    unit: 's',
    width: 12,
    queries: [{ expr: quantile(0.95, api.latency, DS, ['route']), legend: '{{route}}' }],
    slo: latencySlo,
  }),
  errorRatio: metric({
    key: 'api-error-ratio',
    title: 'Error ratio (5xx / all requests)',
    description: 'Share of requests answered with a server error; the line is the 1% SLO.',
    unit: 'percentunit',
    width: 12,
    queries: [
      {
        expr: `${orZero(sumRate(api.requests, `${DS},outcome="5xx"`), requestsAll)} / ${requestsAll}`,
        legend: '5xx ratio',
      },
    ],
    slo: { value: ERROR_RATIO, label: 'SLO 1% errors', bad: 'above' },
  }),
  // Beside the API's own errors: a throttling or failing data layer shows as a line of its own (throttled, denied,
  // server_error…) before, or without, turning into 5xx answers (throttled reads are retried with backoff).
  dataSourceAnswers: metric({
    key: 'api-data-source-answers',
    title: 'Data layer answers per second by outcome',
    description:
      'Range-read attempts per second by how the data layer answered: ok (206), missing (404), denied (401/403), throttled (429, 503 SlowDown), server_error (other 5xx), timeout, verification_failed, failed (network), deadline (cut by the request deadline). Every retry is an attempt.',
    unit: 'reqps',
    width: 12,
    queries: [{ expr: sumRate(api.dataSourceAnswers, DS, ['answer']), legend: '{{answer}}' }],
  }),
  cacheHitRatio: metric({
    key: 'api-block-cache-hit-ratio',
    title: 'Block cache hit ratio',
    description: 'Share of COG block reads served from the decoded-block cache.',
    unit: 'percentunit',
    width: 12,
    queries: [
      {
        expr: `${orZero(hits, misses)} / (${orZero(hits, misses)} + ${orZero(misses, hits)})`,
        legend: 'hit ratio',
      },
    ],
  }),
  rangeRequests: metric({
    key: 'api-range-requests',
    title: 'Range requests per second',
    description: 'HTTP range requests sent to the data layer per second.',
    unit: 'reqps',
    width: 8,
    queries: [{ expr: sumRate(api.rangeRequests, DS, ['dataset']), legend: '{{dataset}}' }],
  }),
  rangeBytes: metric({
    key: 'api-range-bytes',
    title: 'Range bytes per second',
    description: 'Bytes fetched from the data layer by range requests per second.',
    unit: 'Bps',
    width: 8,
    queries: [{ expr: sumRate(api.rangeBytes, DS, ['dataset']), legend: '{{dataset}}' }],
  }),
  // Time spent per second, not per-request percentiles: a warm block cache makes range reads and
  // decodes rare, so a percentile would be NaN (an empty panel) exactly when all is well; the time
  // share is 0 then and still shows the cost whenever cache misses start.
  rangeTime: metric({
    key: 'api-range-time',
    title: 'Time in range reads (share of wall clock)',
    description:
      'Seconds per second that requests spend waiting on range reads, summed over concurrent requests (100% = one request waiting all the time).',
    unit: 'percentunit',
    width: 8,
    queries: [{ expr: sumRate(`${api.rangeLatency}_sum`, DS, ['dataset']), legend: '{{dataset}}' }],
  }),
  decodeTime: metric({
    key: 'api-decode-time',
    title: 'Time in block decoding (share of wall clock)',
    description:
      'Seconds per second spent decompressing COG blocks (cache misses), summed over concurrent requests (100% = one core busy).',
    unit: 'percentunit',
    width: 8,
    queries: [{ expr: sumRate(`${api.decode}_sum`, DS, ['dataset']), legend: '{{dataset}}' }],
  }),
  pointsPerRequest: metric({
    key: 'api-points-per-request',
    title: 'Points per request (mean)',
    description: 'Mean number of locations per request: batch size drives per-request latency.',
    unit: 'short',
    width: 8,
    queries: [
      {
        expr: `${sumRate(`${api.pointsPerRequest}_sum`, DS)} / ${sumRate(`${api.pointsPerRequest}_count`, DS)}`,
        legend: 'points/request',
      },
    ],
  }),
  // A count, not a rate: each step is one more cold start. `increase()` would extrapolate fractions and miss a
  // function's first cold start (its series is born at 1); the counter minus its value at the range's start
  // (0 for a function first seen later) counts every one.
  coldStarts: metric({
    key: 'api-cold-starts',
    title: 'Cold starts since the start of the range (count)',
    description:
      'Function cold starts (Powertools ColdStart metric) counted from the start of the time range, by function: each step up is one cold start.',
    unit: 'short',
    width: 8,
    decimals: 0,
    queries: [
      {
        expr: `sum by (function_name) (${api.coldStarts} - ((${api.coldStarts} @ start()) or (${api.coldStarts} * 0)))`,
        legend: '{{function_name}}',
      },
    ],
  }),
  // Runtime health, beside the request metrics: tells a latency rise caused by GC, a blocked event loop or a full
  // block cache from one caused by the data layer. Sampled every 10 s per function (last value per function).
  runtimeLoopDelay: metric({
    key: 'runtime-event-loop-delay',
    title: 'Event-loop delay p50 / p99 by function',
    description:
      'How late the event loop ran timers over the last 10 s, per function: a blocked loop (decode, GC) delays every request in that environment.',
    unit: 's',
    width: 12,
    queries: [
      { expr: `max by (function_name) (${runtime.loopDelayP99})`, legend: '{{function_name}} p99' },
      { expr: `max by (function_name) (${runtime.loopDelayP50})`, legend: '{{function_name}} p50' },
    ],
  }),
  runtimeGc: metric({
    key: 'runtime-gc-pause',
    title: 'GC pause (share of wall clock) by function',
    description: 'Seconds per second the garbage collector paused JavaScript, per function.',
    unit: 'percentunit',
    width: 12,
    queries: [{ expr: sumRate(runtime.gcPause, '', ['function_name']), legend: '{{function_name}}' }],
  }),
  runtimeHeap: metric({
    key: 'runtime-heap',
    title: 'V8 heap used and limit by function',
    description: 'Heap in use and the heap size limit of each function’s environment (last sample).',
    unit: 'bytes',
    width: 12,
    queries: [
      { expr: `max by (function_name) (${runtime.heapUsed})`, legend: '{{function_name}} used' },
      { expr: `max by (function_name) (${runtime.heapLimit})`, legend: '{{function_name}} limit' },
    ],
  }),
  runtimeBlockCache: metric({
    key: 'runtime-block-cache',
    title: 'Block cache bytes by function',
    description:
      'Decoded bytes held by the block cache of each function (bounded by BLOCK_CACHE_MB; entries and active handles are in the same document).',
    unit: 'bytes',
    width: 12,
    queries: [
      {
        expr: `max by (function_name) (${runtime.blockCacheBytes})`,
        legend: '{{function_name}} cache bytes',
      },
    ],
  }),
  processCpu: metric({
    key: 'host-process-cpu',
    title: 'Process CPU of the processes under test (1.0 = one core)',
    description: `CPU of each process under test, in cores, read from /proc by the bridge. ${PROCESSES_CAPTION}`,
    unit: 'percentunit',
    width: 12,
    queries: [{ expr: `sum by (process) (${rate(host.stackProcessCpu)})`, legend: '{{process}}' }],
  }),
  processMemory: metric({
    key: 'host-process-memory',
    title: 'Resident memory of the processes under test',
    description: `Resident set size (VmRSS) of each process under test, read from /proc by the bridge. ${PROCESSES_CAPTION}`,
    unit: 'bytes',
    width: 12,
    queries: [{ expr: `sum by (process) (${host.stackProcessMemory})`, legend: '{{process}}' }],
  }),
  hostCpu: metric({
    key: 'host-cpu',
    title: 'Host CPU busy',
    description: 'Share of host CPU time not idle (node exporter), all cores.',
    unit: 'percentunit',
    width: 12,
    queries: [{ expr: `1 - avg(${rate(host.cpu, 'mode="idle"')})`, legend: 'busy' }],
  }),
  hostMemory: metric({
    key: 'host-memory',
    title: 'Host memory used',
    description: 'MemTotal − MemAvailable (node exporter).',
    unit: 'bytes',
    width: 12,
    queries: [{ expr: `sum(${host.memTotal} - ${host.memAvailable})`, legend: 'used' }],
  }),
} satisfies Record<string, MetricPanel>;

const p = elevationApiPanels;

export const elevationApiDashboard: DashboardDefinition = {
  uid: 'elevation-api',
  title: 'Elevation API',
  description: 'Throughput, latency, errors and the data-layer work behind them, from the EMF metrics.',
  tags: ['elevation-api', 'generated'],
  variables: [
    {
      name: 'dataset',
      label: 'Dataset',
      kind: 'query',
      query: { metric: api.requests, label: 'dataset' },
      defaultValue: '.*',
    },
  ],
  rows: [
    {
      title: 'Service',
      panels: [
        p.elevationsPerMinute,
        p.requestsByRoute,
        p.latency,
        p.latencyByRoute,
        p.errorRatio,
        p.dataSourceAnswers,
      ],
    },
    {
      title: 'Data layer',
      panels: [
        p.cacheHitRatio,
        p.rangeRequests,
        p.rangeBytes,
        p.rangeTime,
        p.decodeTime,
        p.pointsPerRequest,
        p.coldStarts,
      ],
    },
    {
      title: 'Runtime (per function, every 10 s)',
      panels: [p.runtimeLoopDelay, p.runtimeGc, p.runtimeHeap, p.runtimeBlockCache],
    },
    { title: 'Processes and host', panels: [p.processCpu, p.processMemory, p.hostCpu, p.hostMemory] },
  ],
};
