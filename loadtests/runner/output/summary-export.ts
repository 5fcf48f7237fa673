/**
 * `--summary-export PATH`: k6's legacy summary export (metrics flattened to their values, checks
 * and groups in root_group), so tools written against k6's file read ours.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { GroupSummary, SummaryData } from './summary-data.ts';

function legacyGroup(g: GroupSummary): Record<string, unknown> {
  return {
    name: g.name,
    path: g.path,
    id: g.id,
    groups: Object.fromEntries(g.groups.map((c) => [c.name, legacyGroup(c)])),
    checks: Object.fromEntries(g.checks.map((c) => [c.name, c])),
  };
}

export function summaryExportContent(data: SummaryData): Record<string, unknown> {
  const metrics: Record<string, Record<string, unknown>> = {};
  for (const [name, m] of Object.entries(data.metrics)) {
    const v = m.values;
    // Rates export `value` (the rate) beside passes/fails; the rest export their stats as they are.
    const values: Record<string, unknown> =
      m.type === 'rate' ? { passes: v.passes, fails: v.fails, value: v.rate } : { ...v };
    if (m.thresholds)
      // Legacy export: true means the threshold failed.
      values.thresholds = Object.fromEntries(Object.entries(m.thresholds).map(([t, r]) => [t, !r.ok]));
    metrics[name] = values;
  }
  // As k6's summary.js: the summary data without `options`, metrics flattened, groups keyed by name.
  return {
    root_group: legacyGroup(data.root_group),
    metrics,
    state: data.state,
    setup_data: data.setup_data,
  };
}

export function writeSummaryExport(file: string, data: SummaryData): void {
  const absolute = path.resolve(file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, `${JSON.stringify(summaryExportContent(data), null, 4)}\n`);
}
