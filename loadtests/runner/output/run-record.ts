/**
 * This runner's own record of a run (`--run-record PATH`, not a k6 flag): exit code, abort reason,
 * every threshold with its observed value, and k6's summary data. Tests and tools (capacity, bench)
 * read it; the load profiles' handleSummary writes the report's summary, whichever engine ran them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ThresholdResult } from '../thresholds.ts';
import type { SummaryData } from './summary-data.ts';

export interface RunRecordInput {
  script: string;
  testid: string;
  exitCode: number;
  abortReason?: string;
  executionMs: number;
  results: ThresholdResult[];
  data: SummaryData;
}

export function writeRunRecord(file: string, input: RunRecordInput): string {
  const absolute = path.resolve(file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  const record = {
    script: input.script,
    testid: input.testid,
    exitCode: input.exitCode,
    abortReason: input.abortReason ?? null,
    executionSeconds: input.executionMs / 1000,
    thresholds: input.results.map((r) => ({
      metric: r.group.key,
      threshold: r.threshold.source,
      observed: r.observed,
      ok: r.ok,
    })),
    metrics: input.data.metrics,
    root_group: input.data.root_group,
    state: input.data.state,
  };
  writeFileSync(absolute, `${JSON.stringify(record, null, 2)}\n`);
  return absolute;
}
