/** The end-of-test summary in k6's classic text layout (checks, then metrics with threshold marks). */
import { formatTime, type TimeUnit } from '../duration.ts';
import type { CheckSummary, GroupSummary, MetricSummary, SummaryData } from './summary-data.ts';

function formatBytes(bytes: number): string {
  const units = ['B', 'kB', 'MB', 'GB', 'TB'];
  let value = bytes;
  let unit = 0;
  while (value >= 1000 && unit < units.length - 1) {
    value /= 1000;
    unit++;
  }
  return `${unit === 0 ? value : value.toFixed(1)} ${units[unit]}`;
}

function formatNumber(value: number): string {
  return Number.isInteger(value) ? String(value) : value.toFixed(6).replace(/0+$/, '').replace(/\.$/, '');
}

function metricLine(m: MetricSummary, unit: TimeUnit | ''): string {
  const v = m.values;
  switch (m.type) {
    case 'counter':
      return m.contains === 'data'
        ? `${formatBytes(v.count)} ${formatBytes(Math.round(v.rate))}/s`
        : `${formatNumber(v.count)}  ${v.rate.toFixed(6).replace(/0+$/, '').replace(/\.$/, '')}/s`;
    case 'gauge':
      return `${formatNumber(v.value)}  min=${formatNumber(v.min)} max=${formatNumber(v.max)}`;
    case 'rate':
      return `${(v.rate * 100).toFixed(2)}% ✓ ${v.passes} ✗ ${v.fails}`;
    default:
      return Object.entries(v)
        .map(
          ([stat, value]) =>
            `${stat}=${m.contains === 'time' ? formatTime(value, unit) : formatNumber(value)}`,
        )
        .join(' ');
  }
}

function checkLines(group: GroupSummary, indent: string): string[] {
  const lines: string[] = [];
  if (group.name) lines.push(`${indent}█ ${group.name}`, '');
  const inner = group.name ? `${indent}  ` : indent;
  for (const check of group.checks) lines.push(...oneCheck(check, inner));
  if (group.checks.length) lines.push('');
  for (const child of group.groups) lines.push(...checkLines(child, inner));
  return lines;
}

function oneCheck(c: CheckSummary, indent: string): string[] {
  if (c.fails === 0) return [`${indent}✓ ${c.name}`];
  const pct = Math.floor((100 * c.passes) / (c.passes + c.fails));
  return [`${indent}✗ ${c.name}`, `${indent} ↳  ${pct}% — ✓ ${c.passes} / ✗ ${c.fails}`];
}

export type SummaryMode = 'compact' | 'full' | 'legacy';

/** The classic (pre-v1, `--summary-mode legacy`) layout: checks, then every metric alphabetically. */
function legacySummary(data: SummaryData): string {
  const lines = ['', ...checkLines(data.root_group, '     ')];
  const names = Object.keys(data.metrics).sort((a, b) => a.localeCompare(b));
  const width = Math.max(...names.map((n) => n.length + 2), 32);
  for (const name of names) {
    const m = data.metrics[name];
    const thresholds = Object.values(m.thresholds ?? {});
    const mark = thresholds.length === 0 ? ' ' : thresholds.every((t) => t.ok) ? '✓' : '✗';
    const sub = name.indexOf('{');
    const label = sub > 0 ? `  { ${name.slice(sub + 1, -1)} }` : name;
    lines.push(
      `   ${mark} ${label}${'.'.repeat(Math.max(2, width - label.length))}: ${metricLine(m, data.options.summaryTimeUnit)}`,
    );
  }
  return `${lines.join('\n')}\n\n`;
}

const HTTP_COMPACT = ['http_req_duration', 'http_req_failed', 'http_reqs'];
const HTTP_FULL = [
  'http_req_blocked',
  'http_req_connecting',
  'http_req_duration',
  'http_req_failed',
  'http_req_receiving',
  'http_req_sending',
  'http_req_tls_handshaking',
  'http_req_waiting',
  'http_reqs',
];
const EXECUTION = ['dropped_iterations', 'iteration_duration', 'iterations', 'vus', 'vus_max'];
const EXECUTION_FULL = [...EXECUTION, 'group_duration', 'runner_event_loop_lag'];
const NETWORK = ['data_received', 'data_sent'];
const BUILTIN = new Set([...HTTP_FULL, ...EXECUTION_FULL, ...NETWORK, 'checks']);

/** Each threshold's observed value, by metric key and threshold source (for stats the summary has no column for). */
export type ObservedThresholds = Record<string, Record<string, number>>;

function thresholdValue(m: MetricSummary, source: string, unit: TimeUnit | '', observed?: number): string {
  const stat = /^\s*([a-z]+(?:\([\d.]+\))?)/.exec(source)?.[1] ?? '';
  // As k6 v1 (internal/js/summary.js, renderMetricValueForThresholds): a stat outside summaryTrendStats is shown
  // from the threshold's own aggregation.
  const value = m.values[stat] ?? observed;
  if (value === undefined) return '';
  if (m.type === 'rate') return `${stat}=${(value * 100).toFixed(2)}%`;
  return `${stat}=${m.contains === 'time' ? formatTime(value, unit) : formatNumber(value)}`;
}

function checkList(checks: CheckSummary[], indent: string): string[] {
  return checks.flatMap((c) => oneCheck(c, indent));
}

/** k6 v1's default layout: thresholds, total results (checks, then metrics by category). */
function v1Summary(data: SummaryData, full: boolean, observed: ObservedThresholds): string {
  const out: string[] = [''];
  const withThresholds = Object.entries(data.metrics).filter(([, m]) => m.thresholds);
  if (withThresholds.length) {
    out.push('  █ THRESHOLDS', '');
    for (const [name, m] of withThresholds.sort(([a], [b]) => a.localeCompare(b))) {
      out.push(`    ${name}`);
      for (const [source, r] of Object.entries(m.thresholds ?? {}))
        out.push(
          `    ${r.ok ? '✓' : '✗'} '${source}' ${thresholdValue(m, source, data.options.summaryTimeUnit, observed[name]?.[source])}`,
        );
      out.push('');
    }
    out.push('');
  }
  out.push('  █ TOTAL RESULTS', '');
  const checks = data.metrics.checks;
  const pad = (label: string) => `${label}${'.'.repeat(Math.max(2, 35 - label.length))}`;
  if (checks) {
    const total = checks.values.passes + checks.values.fails;
    const rate = total ? total / (data.state.testRunDurationMs / 1000) : 0;
    out.push(
      `    ${pad('checks_total')}: ${total}  ${formatNumber(Number(rate.toFixed(6)))}/s`,
      `    ${pad('checks_succeeded')}: ${((100 * checks.values.passes) / (total || 1)).toFixed(2)}% ${checks.values.passes} out of ${total}`,
      `    ${pad('checks_failed')}: ${((100 * checks.values.fails) / (total || 1)).toFixed(2)}% ${checks.values.fails} out of ${total}`,
      '',
      ...checkList(allChecks(data.root_group), '    '),
      '',
    );
  }
  const section = (title: string, names: string[]) => {
    const lines: string[] = [];
    for (const name of names) {
      for (const [key, m] of Object.entries(data.metrics)) {
        if (key !== name && !key.startsWith(`${name}{`)) continue;
        const sub = key.indexOf('{');
        const label = sub > 0 ? `  { ${key.slice(sub + 1, -1)} }` : key;
        const v = m.values;
        const line =
          m.type === 'rate'
            ? `${(v.rate * 100).toFixed(2)}% ${v.passes} out of ${v.passes + v.fails}`
            : metricLine(m, data.options.summaryTimeUnit);
        lines.push(`    ${pad(label)}: ${line}`);
      }
    }
    if (lines.length) out.push(`    ${title}`, ...lines, '');
  };
  const custom = Object.keys(data.metrics)
    .map((k) => k.replace(/\{.*$/, ''))
    .filter((k, i, all) => !BUILTIN.has(k) && all.indexOf(k) === i)
    .sort();
  section('CUSTOM', custom);
  section('HTTP', full ? HTTP_FULL : HTTP_COMPACT);
  section('EXECUTION', full ? EXECUTION_FULL : EXECUTION);
  section('NETWORK', NETWORK);
  if (full) {
    for (const g of data.root_group.groups) {
      out.push('', `  █ GROUP: ${g.name}`, '', ...checkList(g.checks, '    '), '');
    }
  }
  return `${out.join('\n')}\n\n`;
}

function allChecks(g: GroupSummary): CheckSummary[] {
  return [...g.checks, ...g.groups.flatMap(allChecks)];
}

export function textSummary(
  data: SummaryData,
  mode: SummaryMode = 'compact',
  observed: ObservedThresholds = {},
): string {
  return mode === 'legacy' ? legacySummary(data) : v1Summary(data, mode === 'full', observed);
}
