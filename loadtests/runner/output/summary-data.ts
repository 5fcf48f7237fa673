/** The data object k6 hands to handleSummary(): metrics with values and thresholds, checks by group. */
import { createHash } from 'node:crypto';
import type { TimeUnit } from '../duration.ts';
import type { Registry } from '../metrics/registry.ts';
import { sinkValues } from '../metrics/sinks.ts';
import type { ThresholdResult } from '../thresholds.ts';

export interface CheckSummary {
  name: string;
  path: string;
  id: string;
  passes: number;
  fails: number;
}
export interface GroupSummary {
  name: string;
  path: string;
  id: string;
  groups: GroupSummary[];
  checks: CheckSummary[];
}
export interface MetricSummary {
  type: string;
  contains: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
export interface SummaryData {
  root_group: GroupSummary;
  options: { summaryTrendStats: string[]; summaryTimeUnit: TimeUnit | ''; noColor: boolean };
  state: { isStdOutTTY: boolean; isStdErrTTY: boolean; testRunDurationMs: number };
  metrics: Record<string, MetricSummary>;
  setup_data?: unknown;
  /**
   * This runner only (k6 passes neither to handleSummary): the run's exit code and why it ended early, if it did
   * (abort, Ctrl-C, a setup() error). The profiles' summary reports them, where the thresholds alone would call an
   * interrupted or failed run passed.
   */
  runner?: { exitCode: number; abortReason: string | null };
}

/** k6's id of a group or check: the MD5 of its path, in hex. */
const idOf = (path: string) => createHash('md5').update(path).digest('hex');

function groupTree(registry: Registry): GroupSummary {
  const root: GroupSummary = { name: '', path: '', id: idOf(''), groups: [], checks: [] };
  const groupAt = (path: string): GroupSummary => {
    if (path === '') return root;
    const parts = path.split('::').slice(1);
    let node = root;
    let current = '';
    for (const part of parts) {
      current += `::${part}`;
      let child = node.groups.find((g) => g.path === current);
      if (!child) {
        child = { name: part, path: current, id: idOf(current), groups: [], checks: [] };
        node.groups.push(child);
      }
      node = child;
    }
    return node;
  };
  for (const series of registry.metrics.get('checks')?.series.values() ?? []) {
    if (series.sink.type !== 'rate') continue;
    const group = groupAt(series.tags.group ?? '');
    const name = series.tags.check ?? '';
    let check = group.checks.find((c) => c.name === name);
    if (!check) {
      const path = `${group.path}::${name}`;
      check = { name, path, id: idOf(path), passes: 0, fails: 0 };
      group.checks.push(check);
    }
    check.passes += series.sink.trues;
    check.fails += series.sink.total - series.sink.trues;
  }
  return root;
}

export function buildSummaryData(
  registry: Registry,
  results: ThresholdResult[],
  testRunDurationMs: number,
  trendStats: string[],
  setupData: unknown,
  timeUnit: TimeUnit | '' = '',
): SummaryData {
  const metrics: Record<string, MetricSummary> = {};
  for (const metric of registry.metrics.values()) {
    if (metric.series.size === 0) continue;
    const sink = registry.aggregate(metric.name);
    if (!sink) continue;
    metrics[metric.name] = {
      type: metric.type,
      contains: metric.contains,
      values: sinkValues(sink, testRunDurationMs, trendStats),
    };
  }
  // k6 always reports the duration of expected responses beside the overall one.
  const expected = registry.aggregate('http_req_duration', { expected_response: 'true' });
  if (metrics.http_req_duration && expected)
    metrics['http_req_duration{expected_response:true}'] = {
      type: 'trend',
      contains: 'time',
      values: sinkValues(expected, testRunDurationMs, trendStats),
    };
  for (const result of results) {
    const { group, threshold, ok } = result;
    if (!metrics[group.key]) {
      const metric = registry.metrics.get(group.metric);
      const sink = registry.aggregate(group.metric, group.filter);
      if (!metric || !sink) continue;
      metrics[group.key] = {
        type: metric.type,
        contains: metric.contains,
        values: sinkValues(sink, testRunDurationMs, trendStats),
      };
    }
    const entry = metrics[group.key];
    entry.thresholds ??= {};
    entry.thresholds[threshold.source] = { ok };
  }
  return {
    root_group: groupTree(registry),
    options: { summaryTrendStats: trendStats, summaryTimeUnit: timeUnit, noColor: !process.stdout.isTTY },
    state: {
      isStdOutTTY: Boolean(process.stdout.isTTY),
      isStdErrTTY: Boolean(process.stderr.isTTY),
      testRunDurationMs,
    },
    metrics,
    setup_data: setupData,
  };
}
