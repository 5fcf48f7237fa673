/**
 * How an EMF metric becomes a Prometheus metric: name, type, unit conversion. The catalogue in
 * docs/metrics.md is this table written out; keep them together.
 */
export type PromType = 'counter' | 'histogram' | 'gauge';

export interface PromMetricSpec {
  name: string;
  type: PromType;
  help: string;
  /** Multiply EMF values by this (ms → s). */
  scale: number;
  buckets?: number[];
}

/** Seconds buckets for latencies measured in milliseconds: 1 ms … 10 s. */
export const LATENCY_BUCKETS = [0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5, 10];
/** Points per request: MAX_LOCATIONS defaults to 512, so the top bucket sits there. */
export const POINTS_BUCKETS = [1, 2, 5, 10, 20, 50, 100, 200, 512, 1000];

const TIME_SCALE: Record<string, number> = { Seconds: 1, Milliseconds: 1e-3, Microseconds: 1e-6 };

/** Per-metric exceptions to the unit rules (a Count that is a distribution, irregular plurals, levels). */
const OVERRIDES: Record<string, { type: PromType; base: string; buckets?: number[]; scale?: number }> = {
  PointsPerRequest: { type: 'histogram', base: 'points_per_request', buckets: POINTS_BUCKETS },
  ColdStart: { type: 'counter', base: 'cold_starts' },
  // Runtime health (layers/telemetry/runtime-health.ts): levels sampled every 10 s are gauges, GC time a counter.
  RuntimeEventLoopDelayP50: { type: 'gauge', base: 'runtime_event_loop_delay_p50_seconds', scale: 1e-3 },
  RuntimeEventLoopDelayP99: { type: 'gauge', base: 'runtime_event_loop_delay_p99_seconds', scale: 1e-3 },
  RuntimeHeapUsed: { type: 'gauge', base: 'runtime_heap_used_bytes' },
  RuntimeHeapLimit: { type: 'gauge', base: 'runtime_heap_limit_bytes' },
  RuntimeGcPause: { type: 'counter', base: 'runtime_gc_pause_seconds', scale: 1e-3 },
  RuntimeActiveHandles: { type: 'gauge', base: 'runtime_active_handles' },
  RuntimeBlockCacheBytes: { type: 'gauge', base: 'runtime_block_cache_bytes' },
  RuntimeBlockCacheEntries: { type: 'gauge', base: 'runtime_block_cache_entries' },
};

export function snakeCase(name: string): string {
  return name
    .replace(/([a-z0-9])([A-Z])/g, '$1_$2')
    .replace(/([A-Z]+)([A-Z][a-z])/g, '$1_$2')
    .replace(/[^A-Za-z0-9_]/g, '_')
    .toLowerCase();
}

/** `ElevationAPI` → `elevation_api`. */
export function namespacePrefix(namespace: string): string {
  return snakeCase(namespace);
}

export function promSpec(namespace: string, emfName: string, unit: string): PromMetricSpec {
  const prefix = namespacePrefix(namespace);
  const help = `EMF ${namespace}/${emfName} (${unit})`;
  const override = OVERRIDES[emfName];
  if (override) {
    const suffix = override.type === 'counter' ? '_total' : '';
    return {
      name: `${prefix}_${override.base}${suffix}`,
      type: override.type,
      help,
      scale: override.scale ?? 1,
      buckets: override.buckets,
    };
  }
  const base = snakeCase(emfName);
  if (unit in TIME_SCALE) {
    const stem = base.replace(/_(time|duration)$/, '');
    return {
      name: `${prefix}_${stem}_seconds`,
      type: 'histogram',
      help,
      scale: TIME_SCALE[unit],
      buckets: LATENCY_BUCKETS,
    };
  }
  if (unit === 'Count') return { name: `${prefix}_${base}_total`, type: 'counter', help, scale: 1 };
  if (unit === 'Bytes') {
    const stem = base.endsWith('_bytes') ? base : `${base}_bytes`;
    return { name: `${prefix}_${stem}_total`, type: 'counter', help, scale: 1 };
  }
  const unitSuffix = unit === 'None' ? '' : `_${snakeCase(unit.replace(/\//g, '_per_'))}`;
  return { name: `${prefix}_${base}${unitSuffix}`, type: 'gauge', help, scale: 1 };
}

/** Prometheus label names: [a-zA-Z_][a-zA-Z0-9_]*, never starting with `__`. */
export function labelName(key: string): string {
  const cleaned = key.replace(/[^A-Za-z0-9_]/g, '_').replace(/^(\d)/, '_$1');
  return cleaned.startsWith('__') ? `x${cleaned}` : cleaned;
}
