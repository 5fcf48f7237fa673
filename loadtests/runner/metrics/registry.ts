/** Metrics by name, each split into series by tag set (what k6 calls time series). */
import { newSink, type MetricType, type Sink, type ValueType } from './sinks.ts';

export type Tags = Record<string, string>;

export interface Series {
  readonly tags: Tags;
  readonly sink: Sink;
  /** Changed since a VU last sent its gauge deltas (metrics/delta.ts). */
  dirty: boolean;
  /** Order of the last update, so merged gauges keep the latest value. */
  updated: number;
}

export class Metric {
  readonly series = new Map<string, Series>();
  constructor(
    readonly name: string,
    readonly type: MetricType,
    readonly contains: ValueType,
  ) {}
}

/** A stable key for a tag set: keys sorted so {a,b} and {b,a} are one series. */
export function tagKey(tags: Tags): string {
  const keys = Object.keys(tags).sort();
  let key = '';
  for (const k of keys) key += `${k}\u0001${tags[k]}\u0002`;
  return key;
}

const METRIC_NAME = /^[a-zA-Z_][a-zA-Z0-9_]{0,127}$/;

export class Registry {
  readonly metrics = new Map<string, Metric>();
  private sequence = 0;

  define(name: string, type: MetricType, contains: ValueType = 'default'): Metric {
    const existing = this.metrics.get(name);
    if (existing) {
      if (existing.type !== type) throw new Error(`metric "${name}" already exists as a ${existing.type}`);
      return existing;
    }
    if (!METRIC_NAME.test(name)) throw new Error(`invalid metric name "${name}"`);
    const metric = new Metric(name, type, contains);
    this.metrics.set(name, metric);
    return metric;
  }

  add(metric: Metric, value: number, tags: Tags, key = tagKey(tags)): void {
    const series = this.seriesOf(metric, tags, key);
    series.sink.add(value);
  }

  /** The series for a tag set (created on first use), marked as updated now. */
  seriesOf(metric: Metric, tags: Tags, key = tagKey(tags)): Series {
    let series = metric.series.get(key);
    if (!series) {
      series = { tags: { ...tags }, sink: newSink(metric.type), dirty: true, updated: 0 };
      metric.series.set(key, series);
    }
    series.dirty = true;
    series.updated = ++this.sequence;
    return series;
  }

  /** The metric's series whose tags include every tag in `filter`, merged into one aggregate. */
  aggregate(name: string, filter: Tags = {}): Sink | undefined {
    const metric = this.metrics.get(name);
    if (!metric) return undefined;
    const total = newSink(metric.type);
    const matching = [...metric.series.values()].filter((s) =>
      Object.entries(filter).every(([k, v]) => s.tags[k] === v),
    );
    matching.sort((a, b) => a.updated - b.updated);
    for (const series of matching) mergeInto(total, series.sink);
    return total;
  }
}

export function mergeInto(target: Sink, source: Sink): void {
  if (target.type === 'counter' && source.type === 'counter') target.sum += source.sum;
  else if (target.type === 'rate' && source.type === 'rate') {
    target.trues += source.trues;
    target.total += source.total;
  } else if (target.type === 'gauge' && source.type === 'gauge') {
    if (!source.seen) return;
    target.value = source.value;
    target.seen = true;
    target.min = Math.min(target.min, source.min);
    target.max = Math.max(target.max, source.max);
  } else if (target.type === 'trend' && source.type === 'trend') {
    target.values.addAll(source.values.slice(0));
  } else throw new Error(`cannot merge a ${source.type} into a ${target.type}`);
}
