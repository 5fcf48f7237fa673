// The time window of a load run: from the runner's JSON summary (startedAt + executionSeconds),
// or given as --from/--to (ISO time, unix seconds, or `now-15m`).
import fs from 'node:fs';
import path from 'node:path';
import type { TimeWindow } from './run-panels';

export interface RunSummary {
  testid?: string;
  startedAt?: string;
  executionSeconds?: number;
  [key: string]: unknown;
}

export const parseTime = (text: string, now = Date.now()): number => {
  const relative = /^now(?:-(\d+)([smhd]))?$/.exec(text);
  if (relative) {
    const unit = { s: 1, m: 60, h: 3600, d: 86400 }[relative[2] as 's' | 'm' | 'h' | 'd'] ?? 0;
    return now / 1000 - Number(relative[1] ?? 0) * unit;
  }
  if (/^\d+(\.\d+)?$/.test(text)) return Number(text);
  const ms = Date.parse(text);
  if (Number.isNaN(ms)) throw new Error(`cannot read time "${text}" (ISO 8601, unix seconds or now-15m)`);
  return ms / 1000;
};

/** A load profile's JSON summary (its handleSummary writes it); refuses files it cannot read, e.g. k6's --summary-export. */
export const readSummary = (file: string): RunSummary => {
  if (!fs.existsSync(file))
    throw new Error(
      `${file} does not exist: give a summary a load profile wrote (results/load/<profile>-<time>.json)`,
    );
  let summary: RunSummary;
  try {
    summary = JSON.parse(fs.readFileSync(file, 'utf8')) as RunSummary;
  } catch (error) {
    throw new Error(`${file} is not JSON (${(error as Error).message}): give a summary a load profile wrote`);
  }
  if (typeof summary.elevations_per_minute !== 'number')
    throw new Error(
      `${file} is not a load-profile summary (no elevations_per_minute; a k6 --summary-export or raw k6 ` +
        "summary file has no headline figures): use the JSON the profile's handleSummary writes " +
        '(results/load/<profile>-<time>.json, or SUMMARY_FILE), after `npm run load:<profile>` or `k6 run`',
    );
  return summary;
};

/** The run's own window, padded so rates over $__rate_interval reach the first and last samples. */
export const windowOfRun = (summary: RunSummary, padSeconds: number): TimeWindow => {
  if (!summary.startedAt || summary.executionSeconds === undefined) {
    throw new Error('summary has no startedAt/executionSeconds: pass --from and --to');
  }
  const from = Date.parse(summary.startedAt) / 1000;
  return { from: from - padSeconds, to: from + summary.executionSeconds + padSeconds };
};

/** Newest JSON summary under results/load (where the load profiles' handleSummary writes them). */
export const newestSummary = (dir = path.join('results', 'load')): string | undefined => {
  if (!fs.existsSync(dir)) return undefined;
  const files = fs
    .readdirSync(dir)
    .filter((f) => f.endsWith('.json'))
    .map((f) => path.join(dir, f))
    .sort((a, b) => fs.statSync(b).mtimeMs - fs.statSync(a).mtimeMs);
  return files[0];
};
