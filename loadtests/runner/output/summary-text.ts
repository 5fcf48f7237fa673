/** The end-of-test summary in k6's classic text layout (checks, then metrics with threshold marks). */
import { formatTime } from '../duration.ts';
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

function metricLine(m: MetricSummary): string {
  const v = m.values;
  switch (m.type) {
    case 'counter':
      return m.contains === 'data'
        ? `${formatBytes(v.count)} ${formatBytes(v.rate)}/s`
        : `${formatNumber(v.count)}  ${v.rate.toFixed(6).replace(/0+$/, '')}/s`;
    case 'gauge':
      return `${formatNumber(v.value)}  min=${formatNumber(v.min)} max=${formatNumber(v.max)}`;
    case 'rate':
      return `${(v.rate * 100).toFixed(2)}% ✓ ${v.passes} ✗ ${v.fails}`;
    default:
      return Object.entries(v)
        .map(([stat, value]) => `${stat}=${m.contains === 'time' ? formatTime(value) : formatNumber(value)}`)
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

export function textSummary(data: SummaryData): string {
  const lines = ['', ...checkLines(data.root_group, '     ')];
  const names = Object.keys(data.metrics).sort((a, b) => a.localeCompare(b));
  const width = Math.max(...names.map((n) => n.length + 2), 32);
  for (const name of names) {
    const m = data.metrics[name];
    const thresholds = Object.values(m.thresholds ?? {});
    const mark = thresholds.length === 0 ? ' ' : thresholds.every((t) => t.ok) ? '✓' : '✗';
    const sub = name.indexOf('{');
    const label = sub > 0 ? `  { ${name.slice(sub + 1, -1)} }` : name;
    lines.push(`   ${mark} ${label}${'.'.repeat(Math.max(2, width - label.length))}: ${metricLine(m)}`);
  }
  return `${lines.join('\n')}\n\n`;
}
