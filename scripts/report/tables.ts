// Tables of the report that come from files: the load summary's thresholds and headline numbers,
// and whatever capacity / observability-price results exist (JSON, CSV or a Markdown table).
import fs from 'node:fs';
import path from 'node:path';
import type { RunSummary } from '../../dashboards/live/window';
import { LAG_WARNING_MS } from '../../loadtests/runner/metrics/builtin.ts';

export type Cell = string | number | boolean | null;

export interface Table {
  title: string;
  source: string;
  columns: string[];
  rows: Cell[][];
}

export interface Headline {
  /** The summary field it shows. */
  key: string;
  label: string;
  value: number | null;
  /** Grafana unit id, formatted by the page like the charts. */
  unit: string;
}

export interface LoadSummary {
  testid: string;
  /** The load profile that wrote the summary (baseline, stress…). */
  profile: string;
  exitCode: number | null;
  /**
   * 'engine': the exit code the run ended with (this project's runner passes it to handleSummary); 'thresholds':
   * only the thresholds' verdict (k6 gives handleSummary no exit code, so a Ctrl-C'd run can read 0).
   */
  exitCodeFrom: 'engine' | 'thresholds';
  /** Why the run ended early (abort, Ctrl-C, a setup() error), when the engine said. */
  abortReason: string | null;
  /** Passed: exit code 0, every threshold passed and the run went its planned length. */
  passed: boolean;
  /** The verdict in words: what ended the run, from its exit code and abort reason (k6's errext exit codes). */
  verdict: string;
  /** The run ended well before its planned length (abortOnFail, Ctrl-C, test.abort()): [ran, planned] seconds. */
  stoppedEarly: [number, number] | null;
  /**
   * The runner's worst event loop lag (ms) when it was over LAG_WARNING_MS: the load generator was saturated, so
   * its latencies include its own delay. null under it, and for k6, which has no such metric.
   */
  generatorLagMs: number | null;
  headline: Headline[];
  thresholds: Table;
}

const num = (v: unknown): number | null => (typeof v === 'number' && Number.isFinite(v) ? v : null);

/** k6's exit codes (errext/exitcodes/codes.go, and 110 for test.fail()) and what ended a run with each. */
const ENDED_BY: Record<number, string> = {
  100: 'setup() TIMED OUT',
  101: 'teardown() TIMED OUT',
  105: 'INTERRUPTED (Ctrl-C or SIGTERM)',
  107: 'SCRIPT ERROR',
  108: 'ABORTED by test.abort()',
  110: 'MARKED AS FAILED (test.fail())',
};

const verdictOf = (
  load: Pick<LoadSummary, 'exitCode' | 'exitCodeFrom' | 'abortReason' | 'stoppedEarly'>,
  thresholdsOk: boolean,
): string => {
  const code = load.exitCode;
  const what =
    code === null || code === 0
      ? thresholdsOk
        ? 'thresholds passed'
        : 'thresholds FAILED'
      : code === 99
        ? load.abortReason !== null
          ? 'ABORTED by an abortOnFail threshold'
          : 'thresholds FAILED'
        : (ENDED_BY[code] ?? 'FAILED');
  const why = load.abortReason !== null ? `: ${load.abortReason}` : '';
  const early = load.stoppedEarly
    ? `; STOPPED EARLY after ${load.stoppedEarly[0].toFixed(1)} s of the planned ` +
      `${load.stoppedEarly[1].toFixed(1)} s: the figures cover only that part`
    : '';
  const from =
    load.exitCodeFrom === 'thresholds'
      ? ' (exit code from the thresholds: k6 gives handleSummary none, so an interrupted run is not told apart)'
      : '';
  return `${what}${why}${early}${from}`;
};

export const loadSummaryOf = (summary: RunSummary, file: string): LoadSummary => {
  const thresholds = Array.isArray(summary.thresholds)
    ? (summary.thresholds as Record<string, unknown>[])
    : [];
  // No request, no latency or failure share: k6 gives an empty Trend 0 for every stat and an empty Rate 0, which
  // the boxes showed as "p95 0.00 ms, failed 0.00 %" (shown "–").
  const noRequests = num(summary.requests) === 0;
  const duration = (noRequests ? {} : (summary.http_req_duration_ms ?? {})) as Record<string, unknown>;
  const ms = (v: unknown): number | null => (num(v) === null ? null : (v as number) / 1000);
  const ran = num(summary.executionSeconds);
  const planned = num(summary.plannedSeconds);
  const stoppedEarly =
    summary.stoppedEarly === true && ran !== null && planned !== null
      ? ([ran, planned] as [number, number])
      : null;
  const metrics = (summary.metrics ?? {}) as Record<string, { values?: Record<string, unknown> } | undefined>;
  const lag = num(metrics.runner_event_loop_lag?.values?.max);
  const exitCode = num(summary.exitCode);
  const thresholdsOk = thresholds.every((t) => t.ok === true);
  // Summaries written before the field existed held the thresholds' code only.
  const exitCodeFrom = summary.exitCodeFrom === 'engine' ? 'engine' : 'thresholds';
  const abortReason = typeof summary.abortReason === 'string' ? summary.abortReason : null;
  return {
    testid: summary.testid ?? '',
    profile: typeof summary.profile === 'string' ? summary.profile : '',
    exitCode,
    exitCodeFrom,
    abortReason,
    passed: thresholdsOk && (exitCode ?? 0) === 0 && stoppedEarly === null,
    verdict: verdictOf({ exitCode, exitCodeFrom, abortReason, stoppedEarly }, thresholdsOk),
    stoppedEarly,
    generatorLagMs: lag !== null && lag > LAG_WARNING_MS ? lag : null,
    // What each measures: the scenarios' requests only (tag measured:true), over the scenarios' run time; setup()'s
    // warm-up requests are in the API's own charts but not here (loadtests/lib/summary.ts).
    headline: [
      {
        key: 'elevations_per_minute',
        label: 'Elevations per minute (scenarios, whole run)',
        value: num(summary.elevations_per_minute),
        unit: 'suffix: elev/min',
      },
      {
        key: 'requests_per_second',
        label: 'Requests per second (scenarios, whole run)',
        value: num(summary.requests_per_second),
        unit: 'reqps',
      },
      {
        key: 'http_req_duration_p95',
        label: 'http_req_duration p95 (scenarios’ requests)',
        value: ms(duration['p(95)']),
        unit: 's',
      },
      {
        key: 'http_req_failed_rate',
        label: 'http_req_failed (scenarios’ requests)',
        value: noRequests ? null : num(summary.http_req_failed_rate),
        unit: 'percentunit',
      },
      {
        key: 'dropped_iterations',
        label: 'Dropped iterations (all scenarios)',
        value: num(summary.dropped_iterations),
        unit: 'short',
      },
    ],
    thresholds: {
      title: 'Thresholds (the SLOs)',
      source: file,
      columns: ['metric', 'threshold', 'observed', 'result'],
      rows: thresholds.map((t) => [
        String(t.metric ?? ''),
        String(t.threshold ?? ''),
        num(t.observed),
        t.ok === true ? 'passed' : 'FAILED',
      ]),
    },
  };
};

const flatten = (o: Record<string, unknown>, prefix = ''): Record<string, Cell> => {
  const out: Record<string, Cell> = {};
  for (const [k, v] of Object.entries(o)) {
    const key = prefix ? `${prefix}.${k}` : k;
    if (v !== null && typeof v === 'object' && !Array.isArray(v))
      Object.assign(out, flatten(v as Record<string, unknown>, key));
    else if (!Array.isArray(v)) out[key] = v === undefined ? null : (v as Cell); // nested lists are detail, not a column
  }
  return out;
};

/** The first array of objects in a JSON document (the document itself, or one of its fields). */
const firstRecordArray = (doc: unknown): Record<string, unknown>[] | undefined => {
  if (Array.isArray(doc) && doc.every((x) => x !== null && typeof x === 'object'))
    return doc as Record<string, unknown>[];
  if (doc && typeof doc === 'object') {
    for (const v of Object.values(doc)) {
      const found = firstRecordArray(v);
      if (found) return found;
    }
  }
  return undefined;
};

const fromRecords = (records: Record<string, unknown>[]): Pick<Table, 'columns' | 'rows'> => {
  const flat = records.map((r) => flatten(r));
  const columns = [...new Set(flat.flatMap((r) => Object.keys(r)))];
  return { columns, rows: flat.map((r) => columns.map((c) => r[c] ?? null)) };
};

const cell = (text: string): Cell =>
  /^-?\d+(\.\d+)?(e-?\d+)?$/i.test(text.trim()) ? Number(text) : text.trim();

export const readTableFile = (file: string, title: string): Table | undefined => {
  if (!fs.existsSync(file)) return undefined;
  const text = fs.readFileSync(file, 'utf8');
  const ext = path.extname(file);
  if (ext === '.json') {
    const records = firstRecordArray(JSON.parse(text) as unknown);
    return records ? { title, source: file, ...fromRecords(records) } : undefined;
  }
  const lines = text.split('\n').map((l) => l.trim());
  const split =
    ext === '.csv' ? (l: string) => l.split(',') : (l: string) => l.replace(/^\||\|$/g, '').split('|');
  const body =
    ext === '.csv'
      ? lines.filter(Boolean)
      : lines.filter((l) => l.startsWith('|') && !/^\|[\s:|-]+\|$/.test(l));
  if (body.length < 2) return undefined;
  const [head, ...rest] = body.map(split);
  return { title, source: file, columns: head.map((h) => h.trim()), rows: rest.map((r) => r.map(cell)) };
};

/** First of results/<name>.md|.csv|.json that holds a table: the Markdown is the table its author meant to show. */
export const findResultTable = (resultsDir: string, name: string, title: string): Table | undefined => {
  for (const ext of ['.md', '.csv', '.json']) {
    const table = readTableFile(path.join(resultsDir, `${name}${ext}`), title);
    if (table) return table;
  }
  return undefined;
};
