/**
 * Metric deltas between threads: a worker ships what each series gained since its last shipment;
 * the main thread merges them into its registry (exact: trends ship their raw values).
 */
import type { Metric, Registry, Series, Tags } from './registry.ts';
import type { MetricType, ValueType } from './sinks.ts';

/**
 * A series' gain, or (without `key`) a metric the script declared that has no sample yet: k6 registers a custom
 * metric at `new Counter(…)` and judges its thresholds at the end even when it stayed empty (a Counter's
 * `count>0` fails), so the main thread must know it.
 */
export interface SeriesDelta {
  metric: string;
  type: MetricType;
  contains: ValueType;
  key?: string;
  tags?: Tags;
  sum?: number;
  trues?: number;
  total?: number;
  gauge?: { value: number; min: number; max: number };
  values?: Float64Array;
}

interface Shipped {
  sum: number;
  trues: number;
  total: number;
  count: number;
}
const shipped = new WeakMap<Series, Shipped>();
const declared = new WeakSet<Metric>();

export function takeDeltas(registry: Registry): SeriesDelta[] {
  const out: SeriesDelta[] = [];
  for (const metric of registry.metrics.values()) {
    if (!declared.has(metric)) {
      declared.add(metric);
      if (metric.series.size === 0)
        out.push({ metric: metric.name, type: metric.type, contains: metric.contains });
    }
    for (const [key, series] of metric.series) {
      let mark = shipped.get(series);
      if (!mark) {
        mark = { sum: 0, trues: 0, total: 0, count: 0 };
        shipped.set(series, mark);
      }
      const base = {
        metric: metric.name,
        type: metric.type,
        contains: metric.contains,
        key,
        tags: series.tags,
      };
      const sink = series.sink;
      if (sink.type === 'counter' && sink.sum !== mark.sum) {
        out.push({ ...base, sum: sink.sum - mark.sum });
        mark.sum = sink.sum;
      } else if (sink.type === 'rate' && sink.total !== mark.total) {
        out.push({ ...base, trues: sink.trues - mark.trues, total: sink.total - mark.total });
        mark.trues = sink.trues;
        mark.total = sink.total;
      } else if (sink.type === 'trend' && sink.values.count !== mark.count) {
        out.push({ ...base, values: sink.values.slice(mark.count) });
        mark.count = sink.values.count;
      } else if (sink.type === 'gauge' && sink.seen && series.dirty) {
        out.push({ ...base, gauge: { value: sink.value, min: sink.min, max: sink.max } });
        series.dirty = false;
      }
    }
  }
  return out;
}

export function applyDeltas(registry: Registry, deltas: SeriesDelta[]): void {
  for (const d of deltas) {
    const metric = registry.define(d.metric, d.type, d.contains);
    if (d.key === undefined || d.tags === undefined) continue; // declared, no sample yet
    const sink = registry.seriesOf(metric, d.tags, d.key).sink;
    if (sink.type === 'trend' && d.values) sink.values.addAll(d.values);
    else if (sink.type === 'counter' && d.sum !== undefined) sink.sum += d.sum;
    else if (sink.type === 'rate' && d.total !== undefined && d.trues !== undefined) {
      sink.trues += d.trues;
      sink.total += d.total;
    } else if (sink.type === 'gauge' && d.gauge) {
      sink.add(d.gauge.min);
      sink.add(d.gauge.max);
      sink.add(d.gauge.value);
    }
  }
}
