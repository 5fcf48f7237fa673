/** Aggregates for the four k6 metric types, and the stat names k6 gives them. */
import { TrendValues } from './trend.ts';

export type MetricType = 'counter' | 'gauge' | 'rate' | 'trend';
export type ValueType = 'default' | 'time' | 'data';

export class CounterSink {
  readonly type = 'counter';
  sum = 0;
  add(value: number): void {
    this.sum += value;
  }
}

export class GaugeSink {
  readonly type = 'gauge';
  value = 0;
  min = Infinity;
  max = -Infinity;
  seen = false;
  add(value: number): void {
    this.value = value;
    this.seen = true;
    if (value < this.min) this.min = value;
    if (value > this.max) this.max = value;
  }
}

export class RateSink {
  readonly type = 'rate';
  trues = 0;
  total = 0;
  add(value: number): void {
    this.total++;
    if (value !== 0) this.trues++;
  }
  get rate(): number {
    return this.total === 0 ? 0 : this.trues / this.total;
  }
}

export class TrendSink {
  readonly type = 'trend';
  readonly values = new TrendValues();
  add(value: number): void {
    this.values.add(value);
  }
}

export type Sink = CounterSink | GaugeSink | RateSink | TrendSink;

export function newSink(type: MetricType): Sink {
  switch (type) {
    case 'counter':
      return new CounterSink();
    case 'gauge':
      return new GaugeSink();
    case 'rate':
      return new RateSink();
    case 'trend':
      return new TrendSink();
  }
}

export const DEFAULT_TREND_STATS = ['avg', 'min', 'med', 'max', 'p(90)', 'p(95)'];

/** One trend stat by its k6 name: avg, min, med, max, count, sum, p(N). */
export function trendStat(values: TrendValues, stat: string): number {
  const percentile = /^p\((\d+(?:\.\d+)?)\)$/.exec(stat);
  if (percentile) return values.percentile(Number(percentile[1]) / 100);
  switch (stat) {
    case 'avg':
      return values.avg;
    case 'min':
      return values.count ? values.min : 0;
    case 'max':
      return values.count ? values.max : 0;
    case 'med':
      return values.percentile(0.5);
    case 'count':
      return values.count;
    case 'sum':
      return values.sum;
    default:
      throw new Error(`unknown trend stat "${stat}" (use avg, min, med, max, count, sum or p(N))`);
  }
}

/** The `values` object k6 puts in its summary data for one metric. */
export function sinkValues(sink: Sink, durationMs: number, trendStats: string[]): Record<string, number> {
  const seconds = Math.max(durationMs / 1000, 1e-9);
  switch (sink.type) {
    case 'counter':
      return { count: sink.sum, rate: sink.sum / seconds };
    case 'gauge':
      return { value: sink.value, min: sink.seen ? sink.min : 0, max: sink.seen ? sink.max : 0 };
    case 'rate':
      return { rate: sink.rate, passes: sink.trues, fails: sink.total - sink.trues };
    case 'trend':
      return Object.fromEntries(trendStats.map((stat) => [stat, trendStat(sink.values, stat)]));
  }
}
