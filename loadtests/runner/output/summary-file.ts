/**
 * The JSON summary file: k6's summary data plus the headline numbers of the elevation API, above all
 * `elevations_per_minute` = count of the custom counter `elevations` / minutes the scenarios ran.
 * Headline numbers cover the scenarios' samples only: setup()'s requests (dataset bounds, warm-up with
 * its cold starts) would skew them.
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import type { ThresholdResult } from '../thresholds.ts';
import type { SummaryData } from './summary-data.ts';

export interface SummaryFileInput {
  script: string;
  testid: string;
  startedAt: string;
  executionMs: number;
  exitCode: number;
  abortReason?: string;
  results: ThresholdResult[];
  data: SummaryData;
  /** Headline values over the scenarios' samples only (setup/teardown requests excluded). */
  scenarioValues: (metric: string) => Record<string, number> | undefined;
}

export function summaryFileContent(input: SummaryFileInput): Record<string, unknown> {
  const { data } = input;
  const minutes = input.executionMs / 60_000;
  const count = (name: string) => input.scenarioValues(name)?.count ?? 0;
  const duration = input.scenarioValues('http_req_duration') ?? {};
  return {
    script: input.script,
    testid: input.testid,
    startedAt: input.startedAt,
    executionSeconds: input.executionMs / 1000,
    exitCode: input.exitCode,
    abortReason: input.abortReason ?? null,
    elevations: count('elevations'),
    elevations_per_minute: minutes > 0 ? count('elevations') / minutes : 0,
    requests_per_second: minutes > 0 ? count('http_reqs') / (minutes * 60) : 0,
    http_req_failed_rate: input.scenarioValues('http_req_failed')?.rate ?? 0,
    http_req_duration_ms: duration,
    dropped_iterations: count('dropped_iterations'),
    thresholds: input.results.map((r) => ({
      metric: r.group.key,
      threshold: r.threshold.source,
      observed: r.observed,
      ok: r.ok,
    })),
    metrics: data.metrics,
    root_group: data.root_group,
  };
}

export function writeSummaryFile(file: string, input: SummaryFileInput): string {
  const absolute = path.resolve(file);
  mkdirSync(path.dirname(absolute), { recursive: true });
  writeFileSync(absolute, `${JSON.stringify(summaryFileContent(input), null, 2)}\n`);
  return absolute;
}
