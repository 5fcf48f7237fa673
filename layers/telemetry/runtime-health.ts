/**
 * Runtime health of one execution environment, as .NET event counters give an ASP.NET service: event-loop delay
 * (p50/p99), heap used and limit, GC pause time, active handles, block-cache bytes and entries. Measured all the
 * time at no per-request cost (a libuv timer for the loop delay, a GC observer) and sent as one EMF document at
 * most every RUNTIME_METRICS_INTERVAL_S seconds (default 10), checked when a request ends: never per request, and
 * an idle environment sends nothing. A latency rise can then be told apart from GC, a blocked loop or a full cache.
 */
import { monitorEventLoopDelay, PerformanceObserver } from 'node:perf_hooks';
import { getHeapStatistics } from 'node:v8';
import type { CacheSize } from './ports';

export interface RuntimeSample {
  eventLoopDelayP50Ms: number;
  eventLoopDelayP99Ms: number;
  heapUsedBytes: number;
  heapLimitBytes: number;
  /** GC pause time since the previous sample. */
  gcPauseMs: number;
  activeHandles: number;
  blockCacheBytes: number;
  blockCacheEntries: number;
}

/** Loop delay sampled every 20 ms: fine enough for p99 of a few ms, one cheap timer. */
const LOOP_RESOLUTION_MS = 20;

export class RuntimeHealth {
  private readonly loop = monitorEventLoopDelay({ resolution: LOOP_RESOLUTION_MS });
  private gcMs = 0;
  private lastSampleMs: number;

  constructor(
    private readonly intervalMs: number,
    nowMs: number,
  ) {
    this.loop.enable();
    this.lastSampleMs = nowMs;
    new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) this.gcMs += entry.duration;
    }).observe({ entryTypes: ['gc'] });
  }

  /**
   * The loop's delay at a percentile: Node's timer mode records the whole gap between two ticks, the sampling
   * interval included (an idle loop measured p50 20.1 ms), so the interval is taken off; 0 before any sample.
   */
  private delayMs(percentile: number): number {
    return Math.max(0, this.loop.percentile(percentile) / 1e6 - LOOP_RESOLUTION_MS);
  }

  /** A sample when the interval has passed since the last one (then the counters restart), else undefined. */
  due(nowMs: number, cache: CacheSize): RuntimeSample | undefined {
    if (nowMs - this.lastSampleMs < this.intervalMs) return undefined;
    this.lastSampleMs = nowMs;
    const heap = getHeapStatistics();
    const sample: RuntimeSample = {
      eventLoopDelayP50Ms: this.delayMs(50),
      eventLoopDelayP99Ms: this.delayMs(99),
      heapUsedBytes: heap.used_heap_size,
      heapLimitBytes: heap.heap_size_limit,
      gcPauseMs: this.gcMs,
      activeHandles: process.getActiveResourcesInfo().length,
      blockCacheBytes: cache.bytes,
      blockCacheEntries: cache.size,
    };
    this.loop.reset();
    this.gcMs = 0;
    return sample;
  }
}

/** RUNTIME_METRICS_INTERVAL_S in seconds (default 10; 0 turns the runtime document off). */
export function runtimeIntervalMs(value: string | undefined): number {
  if (value === undefined || value.trim() === '') return 10_000;
  const seconds = Number(value);
  if (!Number.isFinite(seconds) || seconds < 0) {
    throw new Error(`RUNTIME_METRICS_INTERVAL_S must be a number of seconds >= 0, got "${value}"`);
  }
  return seconds === 0 ? Number.POSITIVE_INFINITY : seconds * 1000;
}

const METRICS: [keyof RuntimeSample, string, 'Milliseconds' | 'Bytes' | 'Count'][] = [
  ['eventLoopDelayP50Ms', 'RuntimeEventLoopDelayP50', 'Milliseconds'],
  ['eventLoopDelayP99Ms', 'RuntimeEventLoopDelayP99', 'Milliseconds'],
  ['heapUsedBytes', 'RuntimeHeapUsed', 'Bytes'],
  ['heapLimitBytes', 'RuntimeHeapLimit', 'Bytes'],
  ['gcPauseMs', 'RuntimeGcPause', 'Milliseconds'],
  ['activeHandles', 'RuntimeActiveHandles', 'Count'],
  ['blockCacheBytes', 'RuntimeBlockCacheBytes', 'Bytes'],
  ['blockCacheEntries', 'RuntimeBlockCacheEntries', 'Count'],
];

/** The sample as one EMF document with dimensions {service, function_name}. Pure. */
export function runtimeDocument(
  namespace: string,
  service: string,
  functionName: string,
  sample: RuntimeSample,
  nowMs: number,
): Record<string, unknown> {
  const document: Record<string, unknown> = {
    _aws: {
      Timestamp: nowMs,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [['service', 'function_name']],
          Metrics: METRICS.map(([, name, unit]) => ({ Name: name, Unit: unit })),
        },
      ],
    },
    service,
    function_name: functionName,
  };
  for (const [key, name] of METRICS) document[name] = Math.round(sample[key] * 1000) / 1000;
  return document;
}
