/**
 * Turns EMF samples into prom-client metrics. Memory is bounded: at most `maxSeries` label sets per
 * metric and `maxMetrics` metrics; what does not fit is dropped and counted, never grown without limit.
 */
import { Counter, Gauge, Histogram, type Registry } from 'prom-client';
import type { EmfSample } from './emf';
import { labelName, promSpec, type PromMetricSpec } from './prom-naming';

type AnyMetric = Counter<string> | Gauge<string> | Histogram<string>;

interface Entry {
  spec: PromMetricSpec;
  metric: AnyMetric;
  labelNames: string[];
  series: Set<string>;
}

export interface EmfRegistryLimits {
  maxMetrics: number;
  maxSeries: number;
}

const DROP_REASONS = [
  'label_set_changed',
  'too_many_series',
  'negative_counter',
  'too_many_metrics',
] as const;
type DropReason = (typeof DROP_REASONS)[number];

export class EmfRegistry {
  private readonly entries = new Map<string, Entry>();
  private readonly dropped: Counter<'reason'>;

  constructor(
    readonly registry: Registry,
    private readonly limits: EmfRegistryLimits = { maxMetrics: 200, maxSeries: 2000 },
  ) {
    this.dropped = new Counter({
      name: 'telemetry_bridge_emf_samples_dropped_total',
      help: 'EMF samples dropped by the bridge, by reason',
      labelNames: ['reason'],
      registers: [registry],
    });
    // Each reason at 0 from the start, so the series exists before the first drop (a rate or alert over it works,
    // and its absence means the bridge is down, not that nothing was dropped).
    for (const reason of DROP_REASONS) this.dropped.inc({ reason }, 0);
  }

  record(sample: EmfSample): void {
    const entry = this.entryFor(sample);
    if (!entry) return;
    const labels: Record<string, string> = {};
    for (const name of entry.labelNames) labels[name] = '';
    for (const [key, value] of Object.entries(sample.labels)) {
      const name = labelName(key);
      if (!(name in labels)) return this.drop('label_set_changed');
      labels[name] = value;
    }
    const seriesKey = entry.labelNames.map((n) => labels[n]).join('\u0000');
    if (!entry.series.has(seriesKey)) {
      if (entry.series.size >= this.limits.maxSeries) return this.drop('too_many_series');
      entry.series.add(seriesKey);
    }
    this.observe(entry, labels, sample.values);
  }

  private observe(entry: Entry, labels: Record<string, string>, values: number[]): void {
    const { metric, spec } = entry;
    if (metric instanceof Counter) {
      const total = values.reduce((a, b) => a + b, 0) * spec.scale;
      if (total < 0) return this.drop('negative_counter');
      metric.inc(labels, total);
    } else if (metric instanceof Histogram) {
      for (const v of values) metric.observe(labels, v * spec.scale);
    } else {
      metric.set(labels, values[values.length - 1] * spec.scale);
    }
  }

  private entryFor(sample: EmfSample): Entry | undefined {
    const spec = promSpec(sample.namespace, sample.name, sample.unit);
    const existing = this.entries.get(spec.name);
    if (existing) return existing;
    if (this.entries.size >= this.limits.maxMetrics) {
      this.drop('too_many_metrics');
      return undefined;
    }
    // Label names are fixed by the first document that names this metric (prom-client requires it).
    const labelNames = Object.keys(sample.labels).map(labelName).sort();
    const common = { name: spec.name, help: spec.help, labelNames, registers: [this.registry] };
    const metric =
      spec.type === 'counter'
        ? new Counter(common)
        : spec.type === 'histogram'
          ? new Histogram({ ...common, buckets: spec.buckets })
          : new Gauge(common);
    const entry = { spec, metric, labelNames, series: new Set<string>() };
    this.entries.set(spec.name, entry);
    return entry;
  }

  private drop(reason: DropReason): void {
    this.dropped.inc({ reason });
  }
}
