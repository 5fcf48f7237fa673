import { promSpec } from '../../../stack/bridge/prom-naming';
import {
  RuntimeHealth,
  runtimeDocument,
  runtimeIntervalMs,
  type RuntimeSample,
} from '../../../layers/telemetry/runtime-health';

const cache = { bytes: 4 * 1024 * 1024, size: 1 };

describe('RuntimeHealth', () => {
  it('gives a sample only once per interval, never per request', () => {
    const health = new RuntimeHealth(10_000, 0);
    expect(health.due(5_000, cache)).toBeUndefined();
    const sample = health.due(10_000, cache);
    expect(sample).toMatchObject({ blockCacheBytes: cache.bytes, blockCacheEntries: 1 });
    expect(sample?.heapUsedBytes).toBeGreaterThan(0);
    expect(sample?.heapLimitBytes).toBeGreaterThan(sample?.heapUsedBytes ?? 0);
    expect(sample?.activeHandles).toBeGreaterThanOrEqual(0);
    expect(health.due(15_000, cache)).toBeUndefined();
    expect(health.due(20_000, cache)).toBeDefined();
  });

  it('reports the loop delay past the 20 ms sampling interval: an idle loop measures near 0, not 20 ms', async () => {
    const health = new RuntimeHealth(0, 0);
    await new Promise((resolve) => setTimeout(resolve, 300)); // ~15 samples of an idle loop
    const sample = health.due(1, cache);
    // Node's timer mode records the whole gap between ticks, the interval included (min ~20.05 ms idle).
    expect(sample?.eventLoopDelayP50Ms).toBeGreaterThanOrEqual(0);
    expect(sample?.eventLoopDelayP50Ms).toBeLessThan(15);
  });

  it.each([
    [undefined, 10_000],
    ['2', 2_000],
    ['0', Number.POSITIVE_INFINITY],
  ])('reads RUNTIME_METRICS_INTERVAL_S %p as %p ms', (value, ms) => {
    expect(runtimeIntervalMs(value)).toBe(ms);
  });

  it('refuses an interval that is not a number of seconds, naming the variable', () => {
    expect(() => runtimeIntervalMs('ten')).toThrow(/RUNTIME_METRICS_INTERVAL_S/);
  });
});

describe('runtimeDocument', () => {
  const sample: RuntimeSample = {
    eventLoopDelayP50Ms: 10.5,
    eventLoopDelayP99Ms: 21.1,
    heapUsedBytes: 50e6,
    heapLimitBytes: 2e9,
    gcPauseMs: 3.25,
    activeHandles: 7,
    blockCacheBytes: 4e6,
    blockCacheEntries: 1,
  };

  it('is one EMF document with dimensions service and function_name', () => {
    const doc = runtimeDocument('ElevationAPI', 'elevation-api', 'fn', sample, 1000) as Record<
      string,
      unknown
    >;
    expect(doc).toMatchObject({
      service: 'elevation-api',
      function_name: 'fn',
      RuntimeEventLoopDelayP99: 21.1,
      RuntimeHeapUsed: 50e6,
      RuntimeGcPause: 3.25,
      RuntimeBlockCacheEntries: 1,
    });
    const directive = (doc._aws as { CloudWatchMetrics: { Dimensions: string[][]; Metrics: unknown[] }[] })
      .CloudWatchMetrics[0];
    expect(directive.Dimensions).toEqual([['service', 'function_name']]);
    expect(directive.Metrics).toHaveLength(8);
  });

  it.each([
    [
      'RuntimeEventLoopDelayP99',
      'Milliseconds',
      'elevation_api_runtime_event_loop_delay_p99_seconds',
      'gauge',
      1e-3,
    ],
    ['RuntimeHeapUsed', 'Bytes', 'elevation_api_runtime_heap_used_bytes', 'gauge', 1],
    ['RuntimeGcPause', 'Milliseconds', 'elevation_api_runtime_gc_pause_seconds_total', 'counter', 1e-3],
    ['RuntimeBlockCacheEntries', 'Count', 'elevation_api_runtime_block_cache_entries', 'gauge', 1],
  ])('%p (%p) becomes Prometheus %p, a %p scaled by %p', (emf, unit, name, type, scale) => {
    expect(promSpec('ElevationAPI', emf, unit)).toMatchObject({ name, type, scale });
  });
});
