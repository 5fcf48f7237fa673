/**
 * Every profile's handleSummary: writes the JSON summary `npm run report` reads (k6's summary data plus
 * the headline figures: elevations per minute, requests per second, p95, failures, dropped iterations)
 * and prints the figures, whichever engine ran the profile (k6 or this project's runner).
 * File: SUMMARY_FILE, else results/load/<profile>-<time>.json. The headline counts the scenarios'
 * requests only (every scenario carries the tag measured:true; setup()'s warm-up does not).
 */
import exec from 'k6/execution';
import { seconds as secondsOf } from './settings.ts';

/** The scenario tag that marks measured requests (see shapes.ts). */
export const MEASURED = { measured: 'true' };

/** Always-true thresholds: k6 computes a submetric for the summary only when a threshold names it. */
export const HEADLINE_THRESHOLDS: Record<string, string[]> = {
  'http_reqs{measured:true}': ['count>=0'],
  'http_req_duration{measured:true}': ['max>=0'],
  'http_req_failed{measured:true}': ['rate>=0'],
};

export const SUMMARY_FORMAT = 'elevation-load-summary/1';

interface MetricData {
  type: string;
  values: Record<string, number>;
  thresholds?: Record<string, { ok: boolean }>;
}
interface SummaryData {
  metrics: Record<string, MetricData>;
  root_group: unknown;
  state: { testRunDurationMs: number };
  setup_data?: { measuredFrom?: number } | null;
  /** This project's runner only: the run's exit code and abort reason (k6 gives handleSummary neither). */
  runner?: { exitCode: number; abortReason: string | null };
}

/** The value a threshold expression judged, e.g. `p(95)` of `p(95)<200` (k6 does not pass it on). */
function observed(metric: MetricData, threshold: string): number | null {
  const stat = /^\s*([a-z]+(?:\([\d.]+\))?)/.exec(threshold)?.[1] ?? '';
  return metric.values[stat] ?? null;
}

interface PlannedScenario {
  executor: string;
  startTime?: string;
  duration?: string;
  stages?: { duration: string }[];
}

/**
 * How long the scenarios were planned to run (the latest start plus duration; a ramping one's stages summed), or
 * null when one runs by iterations. A run that ended well before it (abortOnFail, Ctrl-C, test.abort(), a setup()
 * error) is marked: its headline describes only the part that ran.
 */
function plannedSeconds(): number | null {
  const scenarios = (exec.test.options.scenarios ?? {}) as Record<string, PlannedScenario>;
  let planned = 0;
  for (const s of Object.values(scenarios)) {
    const start = secondsOf(s.startTime ?? '0s');
    if (s.executor.startsWith('ramping'))
      planned = Math.max(planned, start + (s.stages ?? []).reduce((n, st) => n + secondsOf(st.duration), 0));
    else if (s.duration !== undefined) planned = Math.max(planned, start + secondsOf(s.duration));
    else return null;
  }
  return planned > 0 ? planned : null;
}

function headline(data: SummaryData) {
  const m = data.metrics;
  const end = Date.now();
  // setup() returns the time the scenarios start; without it, the whole test run.
  const from = data.setup_data?.measuredFrom;
  const seconds = from ? (end - from) / 1000 : data.state.testRunDurationMs / 1000;
  const requests = m['http_reqs{measured:true}']?.values.count ?? 0;
  const elevations = m.elevations?.values.count ?? 0;
  const thresholds = Object.entries(m).flatMap(([metric, v]) =>
    Object.entries(v.thresholds ?? {})
      .filter(([source]) => !HEADLINE_THRESHOLDS[metric]?.includes(source))
      .map(([threshold, r]) => ({ metric, threshold, observed: observed(v, threshold), ok: r.ok })),
  );
  const planned = plannedSeconds();
  // The runner's exit code is the run's (Ctrl-C 105, a script error 107, test.abort() 108…). Under k6 only the
  // thresholds are known here: a Ctrl-C'd run whose thresholds passed reads 0, so the report says where it came from.
  const thresholdsExitCode = thresholds.every((t) => t.ok) ? 0 : 99;
  return {
    format: SUMMARY_FORMAT,
    startedAt: new Date(from ?? end - data.state.testRunDurationMs).toISOString(),
    executionSeconds: seconds,
    plannedSeconds: planned,
    // A second of slack: the measured window starts after setup() and ends at handleSummary().
    stoppedEarly: planned !== null && seconds < planned - Math.max(1, planned * 0.05),
    elevations,
    elevations_per_minute: seconds > 0 ? (elevations / seconds) * 60 : 0,
    requests,
    requests_per_second: seconds > 0 ? requests / seconds : 0,
    http_req_failed_rate: m['http_req_failed{measured:true}']?.values.rate ?? 0,
    http_req_duration_ms: m['http_req_duration{measured:true}']?.values ?? {},
    dropped_iterations: m.dropped_iterations?.values.count ?? 0,
    thresholds,
    exitCode: data.runner?.exitCode ?? thresholdsExitCode,
    exitCodeFrom: data.runner ? ('engine' as const) : ('thresholds' as const),
    abortReason: data.runner?.abortReason ?? null,
  };
}

const fixed = (n: number | undefined, digits = 2) => (n === undefined ? '-' : n.toFixed(digits));

export function summaryHandler(profile: string) {
  return function handleSummary(data: SummaryData): Record<string, string> {
    const h = headline(data);
    const testid =
      (exec.test.options.tags as Record<string, string> | undefined)?.testid ?? __ENV.TESTID ?? '';
    const file = __ENV.SUMMARY_FILE || `results/load/${profile}-${h.startedAt.replace(/[:.]/g, '-')}.json`;
    const content = { profile, testid, ...h, metrics: data.metrics, root_group: data.root_group };
    // No request, no latency or failure share (k6's empty Trend and Rate read 0): printed as "-".
    const d = h.requests === 0 ? {} : h.http_req_duration_ms;
    const failedThresholds = h.thresholds.filter((t) => !t.ok);
    const text =
      `\n  █ ${profile.toUpperCase()} (testid ${testid || '-'})\n\n` +
      `    elevations per minute: ${fixed(h.elevations_per_minute, 0)} (${h.elevations} in ${fixed(h.executionSeconds, 1)} s)\n` +
      `    requests per second..: ${fixed(h.requests_per_second)} (${h.requests} requests)\n` +
      `    http_req_duration....: p(95)=${fixed(d['p(95)'])}ms p(99)=${fixed(d['p(99)'])}ms med=${fixed(d.med)}ms\n` +
      `    http_req_failed......: ${h.requests === 0 ? '-' : `${fixed(h.http_req_failed_rate * 100)}%`}\n` +
      `    dropped iterations...: ${h.dropped_iterations}\n` +
      (h.stoppedEarly
        ? `    STOPPED EARLY........: after ${fixed(h.executionSeconds, 1)} s of the planned ${fixed(h.plannedSeconds ?? 0, 1)} s ` +
          `(${h.abortReason ?? 'an abortOnFail threshold, Ctrl-C, test.abort() or a setup() error'}): ` +
          'the figures cover only that part\n'
        : '') +
      (h.abortReason !== null && !h.stoppedEarly ? `    ended by.............: ${h.abortReason}\n` : '') +
      `    exit code............: ${h.exitCode}${h.exitCodeFrom === 'thresholds' ? ' (from the thresholds; k6 gives handleSummary no exit code)' : ''}\n` +
      `    thresholds...........: ${h.thresholds.length - failedThresholds.length}/${h.thresholds.length} passed` +
      `${failedThresholds.map((t) => `\n      ✗ ${t.metric}: ${t.threshold}`).join('')}\n` +
      `    summary..............: ${file}\n\n`;
    return { [file]: `${JSON.stringify(content, null, 2)}\n`, stdout: text };
  };
}
