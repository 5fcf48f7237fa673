// A real Prometheus (Debian's binary) holding one synthetic load run: every series the dashboards
// read, backfilled with `promtool tsdb create-blocks-from openmetrics`, so the report test needs
// neither the API nor the stack and always sees the same shapes.
import { spawn, spawnSync, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';

export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
const POINTS_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 512, 1000];

type Labels = Record<string, string>;

class OpenMetrics {
  private readonly families = new Map<string, string[]>();

  /** One series: `value(i)` at each step i of the run (counters must be cumulative). */
  series(name: string, labels: Labels, times: number[], value: (i: number) => number): void {
    const lbl = Object.entries(labels)
      .map(([k, v]) => `${k}="${v}"`)
      .join(',');
    const lines = this.families.get(name) ?? [];
    times.forEach((t, i) => lines.push(`${name}{${lbl}} ${value(i)} ${t}`));
    this.families.set(name, lines);
  }

  /** A cumulative classic histogram whose observations per step follow `share(le)` of `perStep`. */
  histogram(
    name: string,
    labels: Labels,
    times: number[],
    buckets: number[],
    perStep: number,
    share: (le: number) => number,
  ): void {
    for (const le of [...buckets.map(String), '+Inf']) {
      const fraction = le === '+Inf' ? 1 : share(Number(le));
      this.series(`${name}_bucket`, { ...labels, le }, times, (i) =>
        Math.round((i + 1) * perStep * fraction),
      );
    }
    this.series(`${name}_count`, labels, times, (i) => (i + 1) * perStep);
    this.series(`${name}_sum`, labels, times, (i) => (i + 1) * perStep * buckets[2]);
  }

  text(): string {
    const out: string[] = [];
    for (const [name, lines] of this.families) out.push(`# TYPE ${name} unknown`, ...lines);
    return `${out.join('\n')}\n# EOF\n`;
  }
}

/** Share of observations at or below `le` for a latency centred near `median` seconds. */
const logistic = (median: number) => (le: number) => 1 / (1 + (median / le) ** 3);

export const runOpenMetrics = (from: number, to: number, step: number, testid: string): string => {
  const times: number[] = [];
  for (let t = from; t <= to; t += step) times.push(t);
  const om = new OpenMetrics();
  const api = { service: 'elevation-api', dataset: 'sample' };
  const routes = [
    ['/v1/{dataset}', 100, 0.02],
    ['/api/elevation', 25, 0.035],
  ] as const;
  for (const [route, perStep, median] of routes) {
    om.series(
      'elevation_api_requests_total',
      { ...api, route, outcome: '2xx' },
      times,
      (i) => (i + 1) * perStep,
    );
    om.series('elevation_api_requests_total', { ...api, route, outcome: '4xx' }, times, (i) => i + 1);
    om.series(
      'elevation_api_elevations_computed_total',
      { ...api, route, outcome: '2xx' },
      times,
      // 40 elevations per request: (100 + 25) × 40 per 5 s = 60,000/min, the summary's headline and the k6 counter's.
      (i) => (i + 1) * perStep * 40,
    );
    om.histogram(
      'elevation_api_request_latency_seconds',
      { ...api, route, outcome: '2xx' },
      times,
      LATENCY_BUCKETS,
      perStep,
      logistic(median),
    );
    om.histogram(
      'elevation_api_points_per_request',
      { ...api, route, outcome: '2xx' },
      times,
      POINTS_BUCKETS,
      perStep,
      (le) => (le >= 20 ? 1 : le / 20),
    );
    om.series(
      'elevation_api_block_cache_hits_total',
      { ...api, route, outcome: '2xx' },
      times,
      (i) => (i + 1) * perStep * 3,
    );
    om.series(
      'elevation_api_block_cache_misses_total',
      { ...api, route, outcome: '2xx' },
      times,
      (i) => (i + 1) * 4,
    );
    om.series(
      'elevation_api_range_requests_total',
      { ...api, route, outcome: '2xx' },
      times,
      (i) => (i + 1) * 4,
    );
    om.series(
      'elevation_api_range_bytes_total',
      { ...api, route, outcome: '2xx' },
      times,
      (i) => (i + 1) * 4 * 65536,
    );
    om.histogram(
      'elevation_api_range_latency_seconds',
      { ...api, route, outcome: '2xx' },
      times,
      LATENCY_BUCKETS,
      4,
      logistic(0.004),
    );
    om.histogram(
      'elevation_api_decode_seconds',
      { ...api, route, outcome: '2xx' },
      times,
      LATENCY_BUCKETS,
      4,
      logistic(0.008),
    );
  }
  const fn = { service: 'elevation-api', function_name: 'elevation-api-local-elevation' };
  om.series('elevation_api_runtime_event_loop_delay_p50_seconds', fn, times, (i) => 0.011 + (i % 5) * 1e-4);
  om.series('elevation_api_runtime_event_loop_delay_p99_seconds', fn, times, (i) => 0.02 + (i % 7) * 1e-3);
  om.series('elevation_api_runtime_heap_used_bytes', fn, times, (i) => 60e6 + (i % 30) * 1e6);
  om.series('elevation_api_runtime_heap_limit_bytes', fn, times, () => 2.1e9);
  om.series('elevation_api_runtime_gc_pause_seconds_total', fn, times, (i) => i * 0.004);
  om.series('elevation_api_runtime_block_cache_bytes', fn, times, (i) => Math.min(i, 40) * 4 * 1024 * 1024);
  // The data layer's answers: mostly 206, a few throttled (retried) attempts.
  om.series('elevation_api_data_source_answers_total', { ...api, answer: 'ok' }, times, (i) => (i + 1) * 8);
  om.series('elevation_api_data_source_answers_total', { ...api, answer: 'throttled' }, times, (i) => i);
  om.series(
    'elevation_api_cold_starts_total',
    { service: 'elevation-api', function_name: 'elevation-api-local-elevation' },
    times,
    (i) => (i < 3 ? i + 1 : 3),
  );
  // The bridge's /proc reading of the processes under test (stack/bridge/process-metrics.ts), by process.
  // Distinct levels, so no line hides another on the canvas.
  for (const [process, cores, rssMb] of [
    ['api', 0.6, 900],
    ['data-layer', 0.1, 120],
    ['bridge', 0.05, 90],
    ['collector', 0.02, 60],
    ['jaeger', 0.08, 150],
  ] as const) {
    const labels = { job: 'elevation-api', process };
    om.series('elevation_stack_process_cpu_seconds_total', labels, times, (i) => i * step * cores);
    om.series(
      'elevation_stack_process_resident_memory_bytes',
      labels,
      times,
      (i) => rssMb * 1e6 + (i % 10) * 1e6,
    );
  }
  for (const mode of ['idle', 'user']) {
    om.series(
      'node_cpu_seconds_total',
      { job: 'node', cpu: '0', mode },
      times,
      (i) => i * step * (mode === 'idle' ? 0.4 : 0.6),
    );
  }
  om.series('node_memory_MemTotal_bytes', { job: 'node' }, times, () => 24e9);
  om.series('node_memory_MemAvailable_bytes', { job: 'node' }, times, (i) => 20e9 - (i % 20) * 1e7);
  const k6 = { testid, scenario: 'default' };
  om.series(
    'k6_http_reqs_total',
    { ...k6, status: '200', method: 'POST', name: 'POST /v1/{dataset}' },
    times,
    (i) => (i + 1) * step * 20,
  );
  om.series('k6_iterations_total', k6, times, (i) => (i + 1) * step * 20);
  om.series('k6_elevations_total', k6, times, (i) => (i + 1) * step * 20 * 50);
  om.series('k6_vus', k6, times, (i) => 3 + (i % 4));
  om.series('k6_vus_max', k6, times, () => 20);
  om.series(
    'k6_http_req_failed_rate',
    { ...k6, status: '200', method: 'POST', name: 'POST /v1/{dataset}' },
    times,
    () => 0,
  );
  om.series('k6_checks_rate', { ...k6, check: 'status is 200' }, times, () => 1);
  for (const [stat, v] of [
    ['p50', 0.021],
    ['p95', 0.048],
    ['p99', 0.09],
  ] as const) {
    om.series(
      `k6_http_req_duration_${stat}`,
      { ...k6, status: '200', method: 'POST', name: 'POST /v1/{dataset}' },
      times,
      (i) => v + (i % 7) * 0.001,
    );
  }
  return om.text();
};

export const freePort = async (): Promise<number> =>
  new Promise((resolve, reject) => {
    const server = net.createServer();
    server.once('error', reject);
    server.listen(0, '127.0.0.1', () => {
      const { port } = server.address() as net.AddressInfo;
      server.close(() => resolve(port));
    });
  });

const waitFor = async (url: string, child: ChildProcess, log: string): Promise<void> => {
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline || child.exitCode !== null) {
      child.kill('SIGTERM');
      throw new Error(`${url} did not answer: ${fs.readFileSync(log, 'utf8').slice(-2000)}`);
    }
    await new Promise((r) => setTimeout(r, 250));
  }
};

const stopper = (child: ChildProcess) => (): Promise<void> =>
  new Promise((resolve) => {
    if (child.exitCode !== null) return resolve();
    child.once('exit', () => resolve());
    child.kill('SIGTERM');
  });

export interface RunningPrometheus {
  url: string;
  stop: () => Promise<void>;
}

/** Backfills `openMetrics` into a fresh TSDB under `dir` and serves it on a free loopback port. */
export const startPrometheus = async (dir: string, openMetrics: string): Promise<RunningPrometheus> => {
  const data = path.join(dir, 'tsdb');
  fs.mkdirSync(data, { recursive: true });
  fs.writeFileSync(path.join(dir, 'run.om'), openMetrics);
  const backfill = spawnSync(
    'promtool',
    ['tsdb', 'create-blocks-from', 'openmetrics', path.join(dir, 'run.om'), data],
    { encoding: 'utf8' },
  );
  if (backfill.status !== 0)
    throw new Error(`promtool backfill failed: ${backfill.stderr}${backfill.stdout}`);
  fs.writeFileSync(path.join(dir, 'prometheus.yml'), 'global:\n  scrape_interval: 5s\nscrape_configs: []\n');
  const port = await freePort();
  const child: ChildProcess = spawn(
    'prometheus',
    [
      `--config.file=${path.join(dir, 'prometheus.yml')}`,
      `--storage.tsdb.path=${data}`,
      `--web.listen-address=127.0.0.1:${port}`,
      '--storage.tsdb.retention.time=1d',
    ],
    { stdio: ['ignore', 'ignore', fs.openSync(path.join(dir, 'prometheus.log'), 'w')] },
  );
  const url = `http://127.0.0.1:${port}`;
  await waitFor(`${url}/-/ready`, child, path.join(dir, 'prometheus.log'));
  return { url, stop: stopper(child) };
};

const REPO_ROOT = path.join(__dirname, '..', '..');
/** Built by `npm run stack:install` (Jaeger v2 from the Go module proxy), as the observability e2e needs too. */
export const JAEGER_BIN = path.join(REPO_ROOT, '.bin', 'jaeger');

export interface RunningJaeger {
  url: string;
  otlpUrl: string;
  stop: () => Promise<void>;
}

/** The project's Jaeger config (stack/jaeger/config.yaml) on free loopback ports. */
export const startJaeger = async (dir: string): Promise<RunningJaeger> => {
  if (!fs.existsSync(JAEGER_BIN))
    throw new Error(`${JAEGER_BIN} missing: run \`npm run stack:install\` first`);
  const [query, grpc, otlpGrpc, otlpHttp] = [
    await freePort(),
    await freePort(),
    await freePort(),
    await freePort(),
  ];
  const log = path.join(dir, 'jaeger.log');
  const child = spawn(JAEGER_BIN, ['--config', path.join(REPO_ROOT, 'stack', 'jaeger', 'config.yaml')], {
    env: {
      ...process.env,
      JAEGER_QUERY_PORT: String(query),
      JAEGER_QUERY_GRPC_PORT: String(grpc),
      JAEGER_OTLP_GRPC_PORT: String(otlpGrpc),
      JAEGER_OTLP_HTTP_PORT: String(otlpHttp),
      JAEGER_MAX_TRACES: '1000',
    },
    stdio: ['ignore', fs.openSync(log, 'w'), fs.openSync(log, 'a')],
  });
  const url = `http://127.0.0.1:${query}`;
  await waitFor(`${url}/api/services`, child, log);
  return { url, otlpUrl: `http://127.0.0.1:${otlpHttp}`, stop: stopper(child) };
};

export const TRACE_SERVICE = 'elevation-api-local-elevation';

/**
 * `count` request traces spread over [from, to], the i-th lasting 20 + 20·i ms: a root span with
 * parse, read-block (×2) and decode children, as the API's traces look in Jaeger.
 */
export const postTraces = async (otlpUrl: string, from: number, to: number, count: number): Promise<void> => {
  const hex = (n: number, width: number): string => n.toString(16).padStart(width, '0');
  const ns = (ms: number): string => (BigInt(Math.round(ms * 1000)) * 1000n).toString();
  const spans = [];
  for (let i = 0; i < count; i++) {
    const traceId = `${hex(0xabc0 + i, 8)}${'0'.repeat(23)}1`;
    const start = (from + ((to - from) * (i + 0.5)) / count) * 1000;
    const total = 20 + 20 * i;
    const span = (id: number, name: string, offset: number, length: number, parent?: number) => ({
      traceId,
      spanId: hex(i * 16 + id, 16),
      parentSpanId: parent === undefined ? '' : hex(i * 16 + parent, 16),
      name,
      kind: parent === undefined ? 2 : 1,
      startTimeUnixNano: ns(start + offset),
      endTimeUnixNano: ns(start + offset + length),
    });
    spans.push(
      span(1, TRACE_SERVICE, 0, total),
      span(2, 'parse', 0, 1, 1),
      span(3, 'read-block', 2, total * 0.5, 1),
      span(4, 'read-block', 2 + total * 0.25, total * 0.5, 1),
      span(5, 'decode', 2 + total * 0.75, total * 0.2, 1),
    );
  }
  const body = {
    resourceSpans: [
      {
        resource: { attributes: [{ key: 'service.name', value: { stringValue: TRACE_SERVICE } }] },
        scopeSpans: [{ scope: { name: 'report-e2e' }, spans }],
      },
    ],
  };
  const res = await fetch(`${otlpUrl}/v1/traces`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`OTLP export: HTTP ${res.status} ${await res.text()}`);
};
