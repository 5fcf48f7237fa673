/** The `k6/metrics` module: custom Counter, Gauge, Rate and Trend. */
import type { MetricType } from '../metrics/sinks.ts';
import type { Runtime } from '../runtime.ts';

export function createMetricsModule(runtime: Runtime) {
  function metricClass(type: MetricType) {
    return class CustomMetric {
      readonly name: string;
      private readonly metric;
      constructor(name: string, isTime = false) {
        this.name = name;
        this.metric = runtime.registry.define(name, type, isTime ? 'time' : 'default');
      }
      /** Records a sample; true, as k6's add() returns (scripts check it). */
      add(value: number | boolean, tags?: Record<string, string>): boolean {
        const numeric = typeof value === 'boolean' ? (value ? 1 : 0) : Number(value);
        let extra = '';
        for (const k in tags) extra += `${k}\u0004${tags[k]}\u0005`;
        const keyed = runtime.tagsFor(`custom\u0001${extra}`, () => ({ ...tags }));
        runtime.record(this.metric, numeric, keyed.tags, keyed.key);
        return true;
      }
    };
  }
  return {
    Counter: metricClass('counter'),
    Gauge: metricClass('gauge'),
    Rate: metricClass('rate'),
    Trend: metricClass('trend'),
  };
}
