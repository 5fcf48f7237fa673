/**
 * bench:scale's output: one console row per cell, the issue's targets with their figures, and the markdown report
 * (results/bench-scale.md, the table the README quotes).
 */
import type { CellResult } from './cell';
import type { ScaleDatasets } from './datasets';

export interface Target {
  name: string;
  target: string;
  figure: string;
  /** null: the cell it needs was not measured (e.g. --quick). */
  pass: boolean | null;
}

const COLUMNS = [
  'workload',
  'conn',
  'elev/s',
  'p50 ms',
  'p99 ms',
  'API CPU ms/pt',
  'data CPU ms/pt',
  'ranges/pt',
  'KB/pt',
  'cache hits',
  'peak RSS MB',
  'errors',
];

export const TABLE_HEADER = COLUMNS.join(' | ');

function cells(c: CellResult): string[] {
  const failures = Object.entries(c.failures).map(([status, n]) => `${n}×${status}`);
  return [
    c.workload,
    String(c.connections),
    fixed(c.elevationsPerS, 0),
    fixed(c.p50Ms, 1),
    fixed(c.p99Ms, 1),
    fixed(c.apiCpuMsPerPoint, 3),
    fixed(c.dataCpuMsPerPoint, 3),
    fixed(c.rangeRequestsPerPoint, 3),
    fixed(c.bytesPerPoint / 1024, 1),
    Number.isNaN(c.cacheHitRatio) ? '–' : `${(c.cacheHitRatio * 100).toFixed(1)} %`,
    fixed(c.peakRssBytes / 1048576, 0),
    failures.length ? failures.join(' ') : '0',
  ];
}

export function formatRow(c: CellResult): string {
  return cells(c).join(' | ');
}

function fixed(value: number, digits: number): string {
  return Number.isFinite(value) ? value.toLocaleString('en-US', { maximumFractionDigits: digits }) : '–';
}

export function evaluateTargets(all: CellResult[], quick: boolean): Target[] {
  const find = (dataset: string, workload: string, connections: number) =>
    all.find(
      (c) => c.dataset.startsWith(dataset) && c.workload === workload && c.connections === connections,
    );
  const targets: Target[] = [];
  const atMost = (name: string, target: number, unit: string, value: number | undefined) =>
    targets.push({
      name,
      target: `≤ ${target.toLocaleString('en-US')} ${unit}`,
      figure: value === undefined ? 'not measured' : `${fixed(value, 2)} ${unit}`,
      pass: value === undefined ? null : value <= target,
    });
  const atLeast = (name: string, target: number, unit: string, value: number | undefined) =>
    targets.push({
      name,
      target: `≥ ${target.toLocaleString('en-US')} ${unit}`,
      figure: value === undefined ? 'not measured' : `${fixed(value, 0)} ${unit}`,
      pass: value === undefined ? null : value >= target,
    });
  const size = quick ? ' (--quick: 4 tiles, not the large dataset)' : '';
  const cold = find('cop', 'GET-1 uniform', 4);
  atMost(
    `cold uniform GET-1, 1024-px blocks, 4 conn: API CPU per point${size}`,
    12,
    'ms',
    cold?.apiCpuMsPerPoint,
  );
  atLeast(
    `cold uniform GET-1, 1024-px blocks, 4 conn: points/s${size}`,
    120,
    'points/s',
    cold?.elevationsPerS,
  );
  const optimized = find('opt', 'GET-1 uniform', 4);
  atMost(
    `cold uniform GET-1, dem:optimize layout, 4 conn: API CPU per point${size}`,
    2,
    'ms',
    optimized?.apiCpuMsPerPoint,
  );
  atLeast(
    `cold uniform GET-1, dem:optimize layout, 4 conn: points/s${size}`,
    600,
    'points/s',
    optimized?.elevationsPerS,
  );
  atLeast(
    'warm POST-100 (city), 1024-px blocks, 4 conn',
    100_000,
    'elevations/s',
    find('cop', 'POST-100 city', 4)?.elevationsPerS,
  );
  const at64 = all.filter((c) => c.dataset.startsWith('cop') && c.connections === 64);
  const peak = at64.length ? Math.max(...at64.map((c) => c.peakRssBytes)) / 1048576 : undefined;
  atMost(`npm start peak RSS at 64 connections, 1024-px dataset${size}`, 1024, 'MB', peak);
  for (const workload of [...new Set(all.map((c) => c.workload))]) {
    const four = find('cop', workload, 4);
    const many = find('cop', workload, 64);
    const ratio = four && many ? many.p99Ms / four.p99Ms : undefined;
    atMost(`p99(64) / p99(4), ${workload}, 1024-px dataset${size}`, 3, '×', ratio);
    // A p99 of answered requests hides the ones that timed out (the gateway's 30 s caps the latency): fail then.
    const failed = many ? Object.values(many.failures).reduce((sum, n) => sum + n, 0) : 0;
    const last = targets[targets.length - 1];
    if (failed > 0) {
      last.figure += ` (and ${failed} requests failed at 64: the ratio is capped by the 30 s timeout)`;
      last.pass = false;
    }
  }
  return targets;
}

export interface ReportInput {
  cells: CellResult[];
  targets: Target[];
  datasets: ScaleDatasets;
  quick: boolean;
  seconds: number;
  settings: Record<string, string>;
  machine: string;
  minutes: number;
}

export function markdownReport(r: ReportInput): string {
  const lines = [
    `# bench:scale${r.quick ? ' --quick' : ''}`,
    '',
    `Command: \`npm run bench:scale${r.quick ? ' -- --quick' : ''}\` · ${new Date().toISOString()} · ${r.minutes.toFixed(1)} min`,
    `Machine: ${r.machine}. Shared and noisy: compare figures from the same run.`,
    `Settings: ${Object.entries(r.settings)
      .map(([k, v]) => `${k}=${v}`)
      .join(', ')}; ${r.seconds} s measured per cell after a warm-up.`,
    '',
    ...r.datasets.variants.map(
      (v) => `- \`${v.name}\`: ${v.tiles} tiles, ${(v.bytes / 1e9).toFixed(2)} GB, ${v.description}`,
    ),
    '',
  ];
  for (const dataset of [...new Set(r.cells.map((c) => c.dataset))]) {
    lines.push(`## ${dataset}`, '', `| ${COLUMNS.join(' | ')} |`, `|${COLUMNS.map(() => '---').join('|')}|`);
    for (const c of r.cells.filter((x) => x.dataset === dataset)) lines.push(`| ${cells(c).join(' | ')} |`);
    lines.push('');
  }
  lines.push('## Targets', '');
  for (const t of r.targets) {
    lines.push(
      `- ${t.pass === null ? '–' : t.pass ? '✔' : '✘'} ${t.name}: **${t.figure}** (target ${t.target})`,
    );
  }
  lines.push(
    '',
    'CPU ms per point: user+system CPU of the process tree (/proc/<pid>/stat) over the cell divided by the points',
    'answered; "API" is the npm start tree (gateway, serverless-offline, its worker threads), "data" the data layer.',
    "Ranges and KB per point: what the data layer served (its /_stats), headers included. Cache hits: the handlers'",
    'BlockCacheHits / (hits + misses) from their EMF documents. Peak RSS: summed over the npm start tree, every 200 ms.',
    '',
  );
  return lines.join('\n');
}
