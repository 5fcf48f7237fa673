import { Registry } from 'prom-client';
import { parseEmfLine } from '../../../stack/bridge/emf';
import { EmfIngest } from '../../../stack/bridge/emf-ingest';
import { EmfRegistry } from '../../../stack/bridge/emf-registry';
import { promSpec } from '../../../stack/bridge/prom-naming';
import { recordedOutputLines } from './recorded';

async function valueOf(
  registry: Registry,
  name: string,
  labels: Record<string, string>,
): Promise<number | undefined> {
  const metric = (await registry.getMetricsAsJSON()).find((m) => m.name === name);
  const match = metric?.values.find((v) => Object.entries(labels).every(([k, l]) => v.labels[k] === l));
  return match?.value;
}

describe('EMF parsing', () => {
  it('reads every metric of a recorded Powertools document with its dimension labels', () => {
    const line = recordedOutputLines().find((l) => l.includes('"ElevationsComputed"') && l.includes('"2xx"'));
    const parsed = parseEmfLine(line ?? '');
    if (parsed.kind !== 'emf') throw new Error(`expected EMF, got ${parsed.kind}`);
    const computed = parsed.samples.find((s) => s.name === 'ElevationsComputed');
    expect(computed).toEqual({
      namespace: 'ElevationAPI',
      name: 'ElevationsComputed',
      unit: 'Count',
      values: [3],
      labels: { service: 'elevation-api', route: 'elevation', dataset: 'sample', outcome: '2xx' },
    });
    expect(parsed.samples.map((s) => s.name)).toEqual(
      expect.arrayContaining(['RequestLatency', 'RangeBytes', 'DecodeTime']),
    );
  });

  it('classifies JSON log lines and plain text as not EMF', () => {
    const log = recordedOutputLines().find((l) => l.includes('"message":"request"')) ?? '';
    expect(parseEmfLine(log).kind).toBe('not-emf');
    expect(parseEmfLine('offline: GET /v1/sample (λ: elevation)').kind).toBe('not-emf');
  });

  it.each([
    ['truncated JSON', '{"_aws":{"CloudWatchMetrics":['],
    ['directives not an array', '{"_aws":{"CloudWatchMetrics":{}}}'],
    [
      'dimension without value',
      '{"_aws":{"CloudWatchMetrics":[{"Namespace":"N","Dimensions":[["route"]],"Metrics":[{"Name":"A"}]}]},"A":1}',
    ],
    [
      'non-numeric value',
      '{"_aws":{"CloudWatchMetrics":[{"Namespace":"N","Dimensions":[[]],"Metrics":[{"Name":"A"}]}]},"A":"x"}',
    ],
  ])('rejects a malformed document: %s', (_case, line) => {
    expect(parseEmfLine(line).kind).toBe('malformed');
  });
});

describe('Prometheus naming', () => {
  it.each([
    ['ElevationsComputed', 'Count', 'elevation_api_elevations_computed_total', 'counter', 1],
    ['RequestLatency', 'Milliseconds', 'elevation_api_request_latency_seconds', 'histogram', 0.001],
    ['DecodeTime', 'Milliseconds', 'elevation_api_decode_seconds', 'histogram', 0.001],
    ['RangeBytes', 'Bytes', 'elevation_api_range_bytes_total', 'counter', 1],
    ['PointsPerRequest', 'Count', 'elevation_api_points_per_request', 'histogram', 1],
    ['ColdStart', 'Count', 'elevation_api_cold_starts_total', 'counter', 1],
    ['QueueDepth', 'None', 'elevation_api_queue_depth', 'gauge', 1],
  ])('maps %s (%s) to %s', (name, unit, promName, type, scale) => {
    expect(promSpec('ElevationAPI', name, unit)).toMatchObject({ name: promName, type, scale });
  });
});

describe('EMF ingest into the registry', () => {
  it('turns the recorded run into counters, second-based histograms and line counts', async () => {
    const registry = new Registry();
    const ingest = new EmfIngest(new EmfRegistry(registry), registry);
    for (const line of recordedOutputLines()) ingest.line(line, 'stdin');
    ingest.line('{"_aws": broken', 'stdin');

    const ok = { route: 'elevation', dataset: 'sample', outcome: '2xx' };
    expect(await valueOf(registry, 'elevation_api_elevations_computed_total', ok)).toBe(3);
    expect(await valueOf(registry, 'elevation_api_range_bytes_total', ok)).toBe(131072);
    expect(
      await valueOf(registry, 'elevation_api_requests_total', {
        route: 'legacy',
        outcome: '5xx',
        dataset: 'none',
      }),
    ).toBe(1);
    expect(
      await valueOf(registry, 'elevation_api_cold_starts_total', {
        function_name: 'elevation-api-dev-elevation',
      }),
    ).toBe(1);
    const text = await registry.metrics();
    // 2 block reads × 2.5 ms of range time, recorded as one per-request value in seconds.
    expect(text).toMatch(/elevation_api_range_latency_seconds_sum\{[^}]*outcome="2xx"[^}]*\} 0\.005\b/);
    expect(text).toMatch(/elevation_api_points_per_request_bucket\{le="5",[^}]*\} 1/);
    expect(await valueOf(registry, 'telemetry_bridge_emf_lines_total', { result: 'emf' })).toBe(4);
    expect(await valueOf(registry, 'telemetry_bridge_emf_lines_total', { result: 'not_emf' })).toBe(3);
    expect(await valueOf(registry, 'telemetry_bridge_emf_lines_total', { result: 'malformed' })).toBe(1);
  });

  it('caps label sets per metric and counts what it drops', async () => {
    const registry = new Registry();
    const metrics = new EmfRegistry(registry, { maxMetrics: 10, maxSeries: 3 });
    for (let i = 0; i < 5; i++) {
      metrics.record({
        namespace: 'N',
        name: 'Hits',
        unit: 'Count',
        values: [1],
        labels: { route: `r${i}` },
      });
    }
    const hits = (await registry.getMetricsAsJSON()).find((m) => m.name === 'n_hits_total');
    expect(hits?.values).toHaveLength(3);
    expect(
      await valueOf(registry, 'telemetry_bridge_emf_samples_dropped_total', { reason: 'too_many_series' }),
    ).toBe(2);
  });

  it('shows every drop reason at 0 before the first drop, so the series exists to watch', async () => {
    const registry = new Registry();
    new EmfRegistry(registry);
    const dropped = (await registry.getMetricsAsJSON()).find(
      (m) => m.name === 'telemetry_bridge_emf_samples_dropped_total',
    );
    expect(dropped?.values.map((v) => [v.labels.reason, v.value])).toEqual([
      ['label_set_changed', 0],
      ['too_many_series', 0],
      ['negative_counter', 0],
      ['too_many_metrics', 0],
    ]);
  });
});
