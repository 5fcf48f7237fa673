/** k6 threshold syntax: `metric{tag:value}: ['p(95)<200', { threshold, abortOnFail, delayAbortEval }]`. */
import { parseDuration } from './duration.ts';
import type { Registry, Tags } from './metrics/registry.ts';
import { trendStat, type Sink } from './metrics/sinks.ts';

export type ThresholdInput = string | { threshold: string; abortOnFail?: boolean; delayAbortEval?: string };

export interface Threshold {
  readonly source: string;
  readonly aggregation: string;
  readonly operator: string;
  readonly limit: number;
  readonly abortOnFail: boolean;
  readonly delayAbortEvalMs: number;
}

export interface ThresholdGroup {
  /** As written in options, e.g. `http_req_duration{name:legacy-get}`. */
  readonly key: string;
  readonly metric: string;
  readonly filter: Tags;
  readonly thresholds: Threshold[];
}

export interface ThresholdResult {
  readonly group: ThresholdGroup;
  readonly threshold: Threshold;
  readonly observed: number;
  readonly ok: boolean;
}

const EXPRESSION =
  /^\s*(count|rate|value|avg|min|max|med|p\(\d+(?:\.\d+)?\))\s*(<=|>=|===|==|!=|<|>)\s*([-+]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][-+]?\d+)?)\s*$/;
const VALID_AGGREGATIONS: Record<string, RegExp> = {
  counter: /^(count|rate)$/,
  gauge: /^value$/,
  rate: /^rate$/,
  trend: /^(avg|min|max|med|p\(.*\))$/,
};

function parseKey(key: string): { metric: string; filter: Tags } {
  const match = /^([^{]+)(?:\{(.*)\})?$/.exec(key.trim());
  if (!match) throw new Error(`invalid threshold metric "${key}"`);
  const filter: Tags = {};
  for (const pair of (match[2] ?? '').split(',').filter((p) => p.trim())) {
    const at = pair.indexOf(':');
    if (at < 0) throw new Error(`invalid submetric tag "${pair}" in "${key}" (use {tag:value})`);
    filter[pair.slice(0, at).trim()] = pair
      .slice(at + 1)
      .trim()
      .replace(/^["'](.*)["']$/, '$1');
  }
  return { metric: match[1].trim(), filter };
}

function parseThreshold(input: ThresholdInput): Threshold {
  const spec = typeof input === 'string' ? { threshold: input } : input;
  const match = EXPRESSION.exec(spec.threshold);
  if (!match)
    throw new Error(`invalid threshold expression "${spec.threshold}" (e.g. 'p(95)<200', 'rate<0.01')`);
  return {
    source: spec.threshold,
    aggregation: match[1],
    operator: match[2],
    limit: Number(match[3]),
    abortOnFail: spec.abortOnFail ?? false,
    delayAbortEvalMs: parseDuration(spec.delayAbortEval, 0),
  };
}

export function parseThresholds(options: Record<string, ThresholdInput[]> | undefined): ThresholdGroup[] {
  return Object.entries(options ?? {}).map(([key, inputs]) => ({
    key,
    ...parseKey(key),
    thresholds: inputs.map(parseThreshold),
  }));
}

/** Fails fast, like k6, on thresholds for unknown metrics or aggregations the metric type lacks. */
export function validateThresholds(groups: ThresholdGroup[], registry: Registry): void {
  for (const group of groups) {
    const metric = registry.metrics.get(group.metric);
    if (!metric) throw new Error(`threshold on unknown metric "${group.metric}"`);
    for (const t of group.thresholds) {
      if (!VALID_AGGREGATIONS[metric.type].test(t.aggregation))
        throw new Error(
          `threshold "${t.source}" uses "${t.aggregation}", which a ${metric.type} does not have`,
        );
    }
  }
}

function observe(sink: Sink, aggregation: string, durationMs: number): number {
  switch (sink.type) {
    case 'counter':
      return aggregation === 'count' ? sink.sum : sink.sum / Math.max(durationMs / 1000, 1e-9);
    case 'gauge':
      return sink.value;
    case 'rate':
      return sink.rate;
    case 'trend':
      return trendStat(sink.values, aggregation);
  }
}

function compare(observed: number, operator: string, limit: number): boolean {
  switch (operator) {
    case '<':
      return observed < limit;
    case '<=':
      return observed <= limit;
    case '>':
      return observed > limit;
    case '>=':
      return observed >= limit;
    case '!=':
      return observed !== limit;
    default:
      return observed === limit;
  }
}

export function evaluateThresholds(
  groups: ThresholdGroup[],
  registry: Registry,
  durationMs: number,
  only?: (t: Threshold) => boolean,
): ThresholdResult[] {
  const results: ThresholdResult[] = [];
  for (const group of groups) {
    const wanted = only ? group.thresholds.filter(only) : group.thresholds;
    if (wanted.length === 0) continue;
    const sink = registry.aggregate(group.metric, group.filter);
    if (!sink) continue;
    // k6 passes a threshold on a Rate that got no samples (nothing to judge yet).
    const empty = sink.type === 'rate' && sink.total === 0;
    for (const threshold of wanted) {
      const observed = observe(sink, threshold.aggregation, durationMs);
      results.push({
        group,
        threshold,
        observed,
        ok: empty || compare(observed, threshold.operator, threshold.limit),
      });
    }
  }
  return results;
}
