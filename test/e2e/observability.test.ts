/**
 * Observability end to end: the real stack (Prometheus, Jaeger v2, the OpenTelemetry Collector, the EMF bridge,
 * node exporter) on free
 * ports, serverless-offline with the real handlers sending EMF and X-Ray to the bridge, then the
 * question a developer would ask: do Prometheus and Jaeger show exactly what was sent?
 */
import { copyFileSync, existsSync, mkdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import YAML from 'yaml';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import path from 'node:path';
import {
  eventually,
  isAlive,
  REPO_ROOT,
  stackUp,
  type ObservabilityStack,
} from './support/observability-stack';
import { prepareE2eDatasets, type E2eDatasets } from './support/datasets';
import { startStack, type Stack } from './support/stack';
import { udpDrops } from '../../stack/bridge/udp-drops';
import { metricSum, rssMiB, sendTraces, SPANS_PER_TRACE } from './support/xray-sender';
import { readStat, TICKS_PER_S } from '../../scripts/bench/scale/process-tree';

const JAEGER_BIN = path.join(REPO_ROOT, '.bin', 'jaeger');
const COLLECTOR_BIN = path.join(REPO_ROOT, '.bin', 'otelcol-elevation');
/** Distinct point counts, so each request's log line (and through it its trace) is identifiable. */
const POINT_COUNTS = [1, 2, 3, 5, 8];
const TOTAL_POINTS = POINT_COUNTS.reduce((a, b) => a + b, 0);
const SCRAPE_WAIT_MS = 30_000; // scrape interval 5 s + bridge + Prometheus ingestion
const TRACE_WAIT_MS = 30_000;
const SAMPLING_GAP_MS = 1100;
const DISTINCT_CHAINS = 200;
const LOAD_TRACES_PER_S = 800;
const LOAD_SECONDS = 40;
const MAX_TRACE_LOSS = 0.001;
/** The memory_limiter limits in stack/otelcol/config.yaml and stack/jaeger/config.yaml (their defaults). */
const RSS_CAP_MIB = { collector: 192, jaeger: 384 };
/** Traces Jaeger's memory store keeps (stack/jaeger/config.yaml): only the newest sampled ids can be looked up. */
const JAEGER_MAX_TRACES = 10_000;
/** A dataset whose file is removed once the API is up: its reads fail, a 5xx whose exception the trace records. */
const VANISHING = { name: 'vanishing', path: 'vanishing/stuttgart.tif' };

interface WideLogLine {
  message: string;
  route: string;
  dataset?: string;
  points?: number;
  status: number;
  xray_trace_id?: string;
  correlation_id?: string;
}

interface JaegerSpan {
  spanID: string;
  operationName: string;
  /** Microseconds since the epoch, and microseconds. */
  startTime: number;
  duration: number;
  logs?: { timestamp: number; fields: { key: string; value: unknown }[] }[];
  references: { refType: string; spanID: string }[];
  tags: { key: string; value: unknown }[];
  processID: string;
}
interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

describeIfAvailable(
  'the observability stack: Prometheus, the collector and Jaeger over the API',
  [
    { what: 'Jaeger (npm run stack:install)', available: existsSync(JAEGER_BIN) },
    { what: 'the OpenTelemetry Collector (npm run stack:install)', available: existsSync(COLLECTOR_BIN) },
    { what: 'Prometheus (apt-get install prometheus)', available: hasCommand('prometheus') },
  ],
  () => {
    let obs: ObservabilityStack;
    let api: Stack;
    let datasets: E2eDatasets;
    let pidsAtStart: number[] = [];

    beforeAll(async () => {
      obs = await stackUp();
      pidsAtStart = obs.pids();
      // Every fixture as a dataset too: fallback chains need several configured names.
      datasets = prepareE2eDatasets();
      addVanishingDataset(datasets);
      api = await startStack({
        configPath: datasets.configPath,
        dataDir: datasets.dataDir,
        env: { ...obs.functionEnv, POWERTOOLS_LOG_LEVEL: 'INFO', XRAY_SAMPLE_RATE: '1' },
      });
    }, 240_000);

    afterAll(async () => {
      await api?.stop();
      // Normally already down (the last test); this is the safety net when an earlier test failed.
      await obs?.down().catch(() => undefined);
      datasets?.cleanup();
    });

    /** Configured (not in `names`: chains and the cardinality test use only the others), its file there at start. */
    function addVanishingDataset(d: E2eDatasets): void {
      const config = YAML.parse(readFileSync(d.configPath, 'utf8')) as {
        datasets: { name: string; path: string }[];
      };
      config.datasets.push(VANISHING);
      writeFileSync(d.configPath, YAML.stringify(config));
      mkdirSync(path.join(d.dataDir, path.dirname(VANISHING.path)));
      copyFileSync(
        path.join(REPO_ROOT, 'layers/dem-sample/sample/stuttgart.tif'),
        path.join(d.dataDir, VANISHING.path),
      );
    }

    /**
     * Chains sent before the series are first counted: for every dataset a pair and a triple led by it, so every
     * behaviour a chain can show (a tile missing, a block decoded, each chain length) has made its series already.
     */
    function warmUpChains(names: string[]): string[] {
      return names.flatMap((a, i) => {
        const [b, c] = [names[(i + 1) % names.length], names[(i + 2) % names.length]];
        return [`${a},${b}`, `${a},${b},${c}`];
      });
    }

    /** `count` ordered pairs and triples of distinct configured names not in `exclude`: "a,b", "a,b,c", … */
    function chains(names: string[], count: number, exclude: string[]): string[] {
      const out: string[] = [];
      for (const a of names)
        for (const b of names) {
          if (b === a) continue;
          out.push(`${a},${b}`);
          for (const c of names) if (c !== a && c !== b) out.push(`${a},${b},${c}`);
        }
      return out.filter((chain) => !exclude.includes(chain)).slice(0, count);
    }

    function tagsOf(span: JaegerSpan | undefined): Record<string, unknown> {
      return Object.fromEntries((span?.tags ?? []).map((t) => [t.key, t.value]));
    }

    /** The trace from Jaeger once its root is there (the function sends it at the end of the invocation). */
    function completeTrace(traceId: string): Promise<JaegerTrace> {
      return eventually(
        async () => {
          const response = await fetch(`${obs.jaegerUrl}/api/traces/${traceId}`);
          if (!response.ok) return undefined;
          const found = ((await response.json()) as { data: JaegerTrace[] }).data[0];
          return found?.spans.some((s) => s.references.length === 0) ? found : undefined;
        },
        TRACE_WAIT_MS,
        `trace ${traceId} in Jaeger`,
      );
    }

    async function promVector(query: string): Promise<Record<string, string>[]> {
      const url = `${obs.prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`;
      const body = (await (await fetch(url)).json()) as {
        data: { result: { metric: Record<string, string> }[] };
      };
      return body.data.result.map((r) => r.metric);
    }

    function locations(count: number): string {
      return Array.from(
        { length: count },
        (_, i) => `${(48.7 + i * 0.01).toFixed(4)},${(9.1 + i * 0.01).toFixed(4)}`,
      ).join('|');
    }

    function wideLogLines(output: string): WideLogLine[] {
      return output
        .split('\n')
        .filter((line) => line.includes('"message":"request"'))
        .map((line) => JSON.parse(line.slice(line.indexOf('{'))) as WideLogLine);
    }

    async function promValue(query: string): Promise<number | undefined> {
      const url = `${obs.prometheusUrl}/api/v1/query?query=${encodeURIComponent(query)}`;
      const body = (await (await fetch(url)).json()) as { data: { result: { value: [number, string] }[] } };
      const first = body.data.result[0];
      return first ? Number(first.value[1]) : undefined;
    }

    it('answers every request with elevations', async () => {
      for (const count of POINT_COUNTS) {
        const response = await fetch(`${api.baseUrl}/v1/sample`, {
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ locations: locations(count) }),
        });
        const body = (await response.json()) as { status: string; results: unknown[] };
        expect([response.status, body.status, body.results.length]).toEqual([200, 'OK', count]);
        // One request per second: X-Ray's default rule samples the first request of every second, so every
        // request is traced even where XRAY_SAMPLE_RATE=1 does not reach the handlers.
        await new Promise((r) => setTimeout(r, SAMPLING_GAP_MS));
      }
    });

    it('Prometheus reports exactly the number of elevations computed', async () => {
      const total = await eventually(
        async () => {
          const value = await promValue('sum(elevation_api_elevations_computed_total)');
          return value === TOTAL_POINTS ? value : undefined;
        },
        SCRAPE_WAIT_MS,
        `sum(elevation_api_elevations_computed_total) == ${TOTAL_POINTS}`,
      );
      expect(total).toBe(TOTAL_POINTS);
      expect(await promValue('sum(elevation_api_requests_total{outcome="2xx",dataset="sample"})')).toBe(
        POINT_COUNTS.length,
      );
      expect(await promValue('sum(elevation_api_points_per_request_count)')).toBe(POINT_COUNTS.length);
      expect((await promValue('sum(telemetry_bridge_emf_lines_total{result="malformed"})')) ?? 0).toBe(0);
      expect(await promValue('up{job="node"}')).toBe(1);
      // The data layer's answers: the first requests read the sample's header and blocks (HTTP 206).
      expect(
        await promValue('sum(elevation_api_data_source_answers_total{answer="ok",dataset="sample"})'),
      ).toBeGreaterThan(0);
    });

    it('every request has one wide log line whose trace id leads to a complete trace in Jaeger', async () => {
      const lines = wideLogLines(api.output()).filter((l) => l.route === 'v1' && l.dataset === 'sample');
      for (const count of POINT_COUNTS) {
        const line = lines.find((l) => l.points === count);
        expect(line).toMatchObject({ status: 200, points: count, correlation_id: expect.any(String) });
        const traceId = (line?.xray_trace_id ?? '').replace(/^1-/, '').replace('-', '');
        expect(traceId).toMatch(/^[0-9a-f]{32}$/);

        const trace = await completeTrace(traceId);
        const ids = new Set(trace.spans.map((s) => s.spanID));
        const roots = trace.spans.filter((s) => s.references.length === 0);
        expect(roots).toHaveLength(1);
        for (const span of trace.spans)
          for (const ref of span.references) expect(ids.has(ref.spanID)).toBe(true);
        // One service for the API, whatever the function or subsegment (the collector's transform processor).
        const services = new Set(trace.spans.map((s) => trace.processes[s.processID].serviceName));
        expect(services).toEqual(new Set(['elevation-api']));
        expect(roots[0].operationName).toMatch(/elevation/);
        // OpenTelemetry's HTTP names (not the receiver's older http.method/http.status_code/http.url).
        expect(tagsOf(roots[0])).toMatchObject({
          'http.request.method': 'POST',
          'http.response.status_code': 200,
          'url.path': '/v1/sample',
        });
        expect(tagsOf(roots[0])).not.toHaveProperty('http.method');

        const names = trace.spans.map((s) => s.operationName);
        expect(names).toEqual(expect.arrayContaining([roots[0].operationName, '## v1', 'parse']));
        // Microsecond timings end to end (segment floats → collector nanoseconds → Jaeger microseconds): with the
        // X-Ray SDK's own whole-millisecond clock every start and duration would be a multiple of 1000 µs.
        const times = trace.spans.flatMap((s) => [s.startTime, s.duration]);
        expect(times.filter((us) => us % 1000 !== 0).length).toBeGreaterThan(0);
        const parse = trace.spans.find((s) => s.operationName === 'parse');
        expect(parse?.duration).toBeGreaterThan(0);
        const handler = trace.spans.find((s) => s.operationName === '## v1');
        const tags = Object.fromEntries((handler?.tags ?? []).map((t) => [t.key, t.value]));
        expect(tags).toMatchObject({ dataset: 'sample', points: count });
        expect(typeof tags.interpolation).toBe('string');
      }
    });

    it('traces a 4xx as a server span whose status stays unset, with its status code', async () => {
      const response = await fetch(`${api.baseUrl}/v1/sample?locations=91,9`);
      expect(response.status).toBe(400);
      const line = await eventually(
        async () =>
          wideLogLines(api.output()).find(
            (l) => l.status === 400 && l.route === 'v1' && l.dataset === undefined,
          ),
        5000,
        'the 400 wide log line',
      );
      const trace = await completeTrace((line.xray_trace_id ?? '').replace(/^1-/, '').replace('-', ''));
      const root = trace.spans.find((s) => s.references.length === 0);
      const tags = tagsOf(root);
      expect(tags).toMatchObject({ 'http.response.status_code': 400, 'span.kind': 'server' });
      expect(tags).not.toHaveProperty('error');
      expect(tags).not.toHaveProperty('otel.status_code');
    });

    it(`keeps the series count flat over ${DISTINCT_CHAINS} distinct fallback chains`, async () => {
      const warmUp = warmUpChains(datasets.names);
      const rest = chains(datasets.names, DISTINCT_CHAINS - warmUp.length, warmUp);
      const all = [...warmUp, ...rest];
      expect(new Set(all).size).toBe(DISTINCT_CHAINS);
      const chainRequests = 'sum(elevation_api_requests_total{dataset=~"chain:.*"})';
      // The request-scoped series (those with a dataset label); runtime-health gauges come every 10 s on their own.
      const series = 'count({__name__=~"elevation_api_.*",dataset!=""})';
      const send = async (list: string[]) => {
        for (const chain of list) {
          const response = await fetch(`${api.baseUrl}/v1/${chain}?locations=48.75,9.15`);
          expect(response.status).toBe(200);
        }
      };
      const scraped = (total: number) =>
        eventually(
          async () => ((await promValue(chainRequests)) === total ? total : undefined),
          SCRAPE_WAIT_MS,
          `${chainRequests} == ${total}`,
        );
      await send(warmUp);
      await scraped(warmUp.length);
      const before = await promValue(series);
      await send(rest);
      await scraped(DISTINCT_CHAINS);
      expect(await promValue(series)).toBe(before);
      const values = new Set((await promVector('elevation_api_requests_total')).map((m) => m.dataset));
      for (const value of values) expect([...datasets.names, 'chain:2', 'chain:3', 'none']).toContain(value);
      // By now the workers have lived over 10 s: their runtime-health documents have reached Prometheus too.
      const heap = await eventually(
        async () => promValue('max(elevation_api_runtime_heap_used_bytes)'),
        SCRAPE_WAIT_MS,
        'elevation_api_runtime_heap_used_bytes',
      );
      expect(heap).toBeGreaterThan(0);
    });

    it('traces a 5xx as an error server span with the exception recorded as an event', async () => {
      rmSync(path.join(datasets.dataDir, VANISHING.path));
      const response = await fetch(`${api.baseUrl}/v1/${VANISHING.name}?locations=48.75,9.15`);
      expect(response.status).toBeGreaterThanOrEqual(500);
      const line = await eventually(
        async () => wideLogLines(api.output()).find((l) => l.status >= 500 && l.dataset === VANISHING.name),
        5000,
        'the 5xx wide log line',
      );
      const trace = await completeTrace((line.xray_trace_id ?? '').replace(/^1-/, '').replace('-', ''));
      const root = trace.spans.find((s) => s.references.length === 0);
      expect(tagsOf(root)).toMatchObject({
        'http.response.status_code': response.status,
        'span.kind': 'server',
        'otel.status_code': 'ERROR',
        error: true,
      });
      // OpenTelemetry's exception event (the receiver's translation of the segment's cause), in Jaeger as a log.
      const events = (root?.logs ?? []).map((l) => Object.fromEntries(l.fields.map((f) => [f.key, f.value])));
      const exception = events.find((e) => e.event === 'exception');
      expect(exception).toMatchObject({
        'exception.type': expect.stringMatching(/\w+Error$/),
        'exception.message': expect.stringContaining(VANISHING.name),
        'exception.stacktrace': expect.stringContaining('\tat '),
      });
    });

    it(`loses at most ${MAX_TRACE_LOSS * 100}% of traces at ${LOAD_TRACES_PER_S} traces/s for ${LOAD_SECONDS} s, within the memory caps`, async () => {
      const acceptedByJaeger = async () =>
        metricSum(
          await (await fetch(`${obs.jaegerMetricsUrl}/metrics`)).text(),
          'otelcol_receiver_accepted_spans',
        );
      await new Promise((r) => setTimeout(r, 3000)); // the earlier tests' traces are in Jaeger by now
      const before = await acceptedByJaeger();
      const peak = { collector: 0, jaeger: 0 };
      const pids = { collector: obs.pidOf('collector'), jaeger: obs.pidOf('jaeger') };
      const sampleRss = () => {
        for (const name of ['collector', 'jaeger'] as const)
          peak[name] = Math.max(peak[name], rssMiB(pids[name], (f) => readFileSync(f, 'utf8')) || 0);
      };
      const sampler = setInterval(sampleRss, 500);
      // The collector's CPU and the wall time of the load: a collector that used little CPU while the kernel dropped
      // datagrams was starved (a shared host), one that used a core's worth was saturated.
      const cpuSeconds = () => (readStat(`/proc/${pids.collector}/stat`)?.cpuTicks ?? NaN) / TICKS_PER_S;
      const cpuBefore = cpuSeconds();
      const loadStarted = Date.now();
      let sent;
      try {
        sent = await sendTraces(obs.xrayPort, LOAD_TRACES_PER_S, LOAD_SECONDS);
        const expected = before + sent.spans;
        // Batches and retries drain within seconds; stop waiting once every span is in.
        await eventually(
          async () => ((await acceptedByJaeger()) >= expected ? true : undefined),
          TRACE_WAIT_MS,
          `${sent.spans} spans accepted by Jaeger`,
        ).catch(() => undefined);
      } finally {
        clearInterval(sampler);
      }
      sampleRss();
      const collectorCpu = cpuSeconds() - cpuBefore;
      const loadWall = (Date.now() - loadStarted) / 1000;
      const received = (await acceptedByJaeger()) - before;
      const lostSpans = sent.spans - received;
      const collector = await (await fetch(`${obs.collectorUrl}/metrics`)).text();
      console.log(
        `trace load: ${sent.traces} traces (${sent.spans} spans) sent, ${received} spans in Jaeger, ${lostSpans} lost; ` +
          `collector accepted ${metricSum(collector, 'otelcol_receiver_accepted_spans')}, refused ${metricSum(collector, 'otelcol_receiver_refused_spans')}, ` +
          `export failed ${metricSum(collector, 'otelcol_exporter_send_failed_spans')}; kernel drops at the collector's socket ${udpDrops(readFileSync('/proc/net/udp', 'utf8'), obs.xrayPort)}; ` +
          `peak RSS collector ${peak.collector.toFixed(0)} MiB, Jaeger ${peak.jaeger.toFixed(0)} MiB; ` +
          `sender: largest burst ${sent.maxBurst} traces, longest tick gap ${sent.maxTickGapMs} ms; ` +
          `collector CPU ${collectorCpu.toFixed(1)} s in ${loadWall.toFixed(1)} s of sending and draining`,
      );
      expect(sent.sendErrors).toBe(0);
      // Every lost trace lost at least one span, so lost spans bound lost traces from above.
      expect(lostSpans).toBeLessThanOrEqual(Math.floor(sent.traces * MAX_TRACE_LOSS));
      // The newest sampled traces are still in Jaeger's bounded store: each is complete, under the one service.
      const recent = sent.sampleIds.slice(-Math.floor(JAEGER_MAX_TRACES / 1000 / 2));
      for (const id of recent) {
        const response = await fetch(`${obs.jaegerUrl}/api/traces/${id}`);
        const trace = ((await response.json()) as { data: JaegerTrace[] }).data[0];
        expect(trace?.spans).toHaveLength(SPANS_PER_TRACE);
        expect(new Set(Object.values(trace.processes).map((p) => p.serviceName))).toEqual(
          new Set(['elevation-api']),
        );
      }
      expect(peak.collector).toBeGreaterThan(0);
      expect(peak.collector).toBeLessThan(RSS_CAP_MIB.collector);
      expect(peak.jaeger).toBeLessThan(RSS_CAP_MIB.jaeger);
    }, 180_000);

    it('stack:down stops every process it started', async () => {
      expect(pidsAtStart).toHaveLength(5);
      expect(pidsAtStart.every(isAlive)).toBe(true);
      await obs.down();
      expect(pidsAtStart.filter(isAlive)).toEqual([]);
      await expect(fetch(`${obs.prometheusUrl}/-/ready`)).rejects.toThrow();
    });
  },
);
