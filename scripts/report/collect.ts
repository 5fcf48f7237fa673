// Everything the report shows, as plain JSON: the catalogue's panels run over the run's window
// (the same query definitions as the Grafana dashboards), the slowest traces, and the tables.
import type { DashboardDefinition, MetricPanel, SloLine } from '../../dashboards/queries';
import { DEFAULT_TRACE_SERVICE, dashboards } from '../../dashboards/queries';
import {
  listServerOperations,
  searchTraces,
  summarizeTrace,
  type JaegerTrace,
  type TraceSummary,
} from '../../dashboards/live/jaeger';
import {
  runMetricPanel,
  runRateWindowSeconds,
  stepFor,
  type ChartSeries,
  type LiveSources,
  type TimeWindow,
} from '../../dashboards/live/run-panels';
import { resolveTraceService } from '../../dashboards/live/trace-service';
import { checkAgreement, type AgreementCheck } from './agreement';
import type { LoadSummary, Table } from './tables';

export interface ChartPanel {
  key: string;
  title: string;
  description: string;
  unit: string;
  decimals?: number;
  /** Bounds drawn on the chart: the catalogue's, or for the load-test charts the run's own thresholds (runSlos). */
  slos: SloLine[];
  series: ChartSeries[];
  queries: string[];
  error?: string;
}

export interface ReportData {
  title: string;
  generatedAt: string;
  window: TimeWindow;
  /** The run itself (unpadded), when a load summary gave it. */
  runSpan?: TimeWindow;
  /** What $__rate_interval was in every query, and why. */
  rateWindow: { seconds: number | null; reason: string };
  run?: { file: string; load: LoadSummary };
  sections: { uid: string; title: string; rows: { title: string; panelKeys: string[] }[] }[];
  panels: Record<string, ChartPanel>;
  /** Charts checked against the headline numbers (empty without a load summary). */
  checks: AgreementCheck[];
  traces: { service: string; functions: string[]; slowest: TraceSummary[]; error?: string };
  tables: Table[];
}

/** How many of the slowest traces the report lists with their span breakdown. */
export const SLOWEST_TRACES = 10;
/** How many of those it draws as a waterfall (each is one SVG row per span). */
export const WATERFALL_TRACES = 3;
/** Traces asked of Jaeger per function: its search returns the newest matches, so ask for plenty. */
const TRACES_PER_FUNCTION = 300;
/** Dashboards whose data exists only while a run is on (the load generator's remote write). */
const RUN_ONLY_DASHBOARDS = new Set(['load-test']);

/** The charts that restate the headline "elevations per minute", with the headline label they must agree with. */
const HEADLINE_CHARTS = ['api-elevations-per-minute', 'load-elevations-per-minute'];

/**
 * The load-test charts whose line is a threshold of the run, and how to read it: the metric the threshold is on, the
 * bound's pattern, how the chart shows it and its label. The catalogue's fixed 200 ms / 1 % / 99 % were drawn even
 * when the run judged itself by others (SLO_P95_MS, spike's 5 % failed for its spike scenario).
 */
const RUN_THRESHOLD_LINES: Record<
  string,
  {
    metric: string;
    bound: RegExp;
    value: (n: number) => number;
    label: (n: number) => string;
    bad: SloLine['bad'];
  }
> = {
  'load-http-req-duration': {
    metric: 'http_req_duration',
    bound: /^p\(95\)\s*<=?\s*([\d.]+)$/,
    value: (ms) => ms / 1000,
    label: (ms) => `threshold p95 < ${ms} ms`,
    bad: 'above',
  },
  'load-http-req-failed': {
    metric: 'http_req_failed',
    bound: /^rate\s*<=?\s*([\d.]+)$/,
    value: (r) => r,
    label: (r) => `threshold ${+(r * 100).toFixed(4)}% failed`,
    bad: 'above',
  },
  'load-checks': {
    metric: 'checks',
    bound: /^rate\s*>=?\s*([\d.]+)$/,
    value: (r) => r,
    label: (r) => `threshold ${+(r * 100).toFixed(4)}% checks`,
    bad: 'below',
  },
};

/** A load-test chart's lines from the run's thresholds: one per distinct bound, named after its scenarios. */
export const runSlos = (panelKey: string, thresholds: Table): SloLine[] | undefined => {
  const spec = RUN_THRESHOLD_LINES[panelKey];
  if (!spec) return undefined;
  const scenariosByBound = new Map<number, string[]>();
  for (const [metric, threshold] of thresholds.rows) {
    const m = /^([a-z_]+)(?:\{(.*)\})?$/.exec(String(metric));
    const bound = spec.bound.exec(String(threshold).trim());
    if (!m || m[1] !== spec.metric || !bound) continue;
    const scenario = /(?:^|,)scenario:([^,]+)/.exec(m[2] ?? '')?.[1] ?? 'all';
    const n = Number(bound[1]);
    const scenarios = scenariosByBound.get(n) ?? [];
    if (!scenarios.includes(scenario)) scenarios.push(scenario);
    scenariosByBound.set(n, scenarios);
  }
  return [...scenariosByBound]
    .sort(([a], [b]) => a - b)
    .map(([n, scenarios]) => ({
      value: spec.value(n),
      label: `${spec.label(n)} (${scenarios.join(', ')})`,
      bad: spec.bad,
    }));
};

const chartPanel = async (
  panel: MetricPanel,
  dashboard: DashboardDefinition,
  window: TimeWindow,
  sources: LiveSources,
  variables: Record<string, string>,
  rateWindowSeconds: number | undefined,
): Promise<ChartPanel> => {
  const base = {
    key: panel.key,
    title: panel.title,
    description: panel.description,
    unit: panel.unit,
    decimals: panel.decimals,
    slos: panel.slo ? [panel.slo] : [],
  };
  try {
    const result = await runMetricPanel(panel, dashboard, window, sources, variables, rateWindowSeconds);
    return { ...base, ...result };
  } catch (err) {
    return { ...base, series: [], queries: panel.queries.map((q) => q.expr), error: (err as Error).message };
  }
};

/** Points after `end` become gaps: a series that only exists during the run stops with it. */
export const clipAfter = (series: ChartSeries[], end: number): ChartSeries[] =>
  series.map((s) => ({ ...s, points: s.points.map(([t, v]) => [t, t > end ? null : v]) }));

/**
 * The slowest traces across the API's functions: one Jaeger search per function (its server operation), merged,
 * so a slow but rare function is not crowded out of one search's newest-N by the busiest one.
 */
const slowestTraces = async (
  sources: LiveSources,
  service: string,
  window: TimeWindow,
): Promise<{ functions: string[]; slowest: TraceSummary[] }> => {
  const functions = await listServerOperations(sources.jaegerUrl, service).catch(() => []);
  const searches = functions.length > 0 ? functions : [undefined];
  const found = await Promise.all(
    searches.map((operation) =>
      searchTraces(sources.jaegerUrl, {
        service,
        operation,
        limit: TRACES_PER_FUNCTION,
        start: window.from,
        end: window.to,
      }),
    ),
  );
  const unique = new Map<string, JaegerTrace>();
  for (const t of found.flat()) unique.set(t.traceID, t);
  const slowest = [...unique.values()]
    .map(summarizeTrace)
    .sort((a, b) => b.durationMs - a.durationMs)
    .slice(0, SLOWEST_TRACES)
    .map((t, i) => (i < WATERFALL_TRACES ? t : { ...t, spans: undefined }));
  return { functions, slowest };
};

export const collectReport = async (options: {
  window: TimeWindow;
  sources: LiveSources;
  variables: Record<string, string>;
  run?: ReportData['run'];
  runSpan?: TimeWindow;
  tables: Table[];
}): Promise<ReportData> => {
  const { window, sources, variables, runSpan } = options;
  const step = stepFor(window);
  const rateWindowSeconds = runSpan
    ? runRateWindowSeconds(runSpan.to - runSpan.from, sources.scrapeSeconds, step)
    : undefined;
  const panels: Record<string, ChartPanel> = {};
  const sections: ReportData['sections'] = [];
  for (const dashboard of dashboards.filter((d) => d.variables.every((v) => v.name !== 'service'))) {
    const rows = [];
    for (const row of dashboard.rows) {
      const metricPanels = row.panels.filter((p): p is MetricPanel => p.datasource === 'prometheus');
      const charts = await Promise.all(
        metricPanels.map((p) => chartPanel(p, dashboard, window, sources, variables, rateWindowSeconds)),
      );
      for (const c of charts) {
        if (runSpan && rateWindowSeconds !== undefined && RUN_ONLY_DASHBOARDS.has(dashboard.uid))
          c.series = clipAfter(c.series, runSpan.to + rateWindowSeconds);
        const fromRun = options.run ? runSlos(c.key, options.run.load.thresholds) : undefined;
        if (fromRun) c.slos = fromRun;
        panels[c.key] = c;
      }
      rows.push({ title: row.title, panelKeys: charts.map((c) => c.key) });
    }
    sections.push({ uid: dashboard.uid, title: dashboard.title, rows });
  }
  const checks: AgreementCheck[] = [];
  const headline = options.run?.load.headline.find((h) => h.key === 'elevations_per_minute');
  if (runSpan && rateWindowSeconds !== undefined && headline) {
    for (const key of HEADLINE_CHARTS.filter((k) => panels[k])) {
      checks.push(
        checkAgreement({
          chart: panels[key].title,
          headline: headline.label,
          series: panels[key].series,
          headlineValue: headline.value,
          run: runSpan,
          rateWindowSeconds,
          stepSeconds: step,
          profile: options.run?.load.profile,
        }),
      );
    }
  }
  let traces: ReportData['traces'] = {
    service: variables.service ?? DEFAULT_TRACE_SERVICE,
    functions: [],
    slowest: [],
  };
  try {
    const service =
      variables.service ?? (await resolveTraceService(sources.jaegerUrl, DEFAULT_TRACE_SERVICE));
    // The run's own span, not the charts' window: that is padded 30 s each side, and setup()'s warm-up (a cold
    // API's slowest requests) fell in the padding and topped the list.
    traces = { service, ...(await slowestTraces(sources, service, runSpan ?? window)) };
  } catch (err) {
    traces.error = `Jaeger at ${sources.jaegerUrl}: ${(err as Error).message}`;
  }
  return {
    title: options.run ? `Load run ${options.run.load.testid}` : 'Elevation API run report',
    generatedAt: new Date().toISOString(),
    window,
    runSpan,
    rateWindow:
      rateWindowSeconds === undefined
        ? {
            seconds: null,
            reason: `Grafana's $__rate_interval: max(step + scrape interval, 4 × scrape interval), scrape ${sources.scrapeSeconds} s`,
          }
        : {
            seconds: rateWindowSeconds,
            reason: `from the run's ${(runSpan ? runSpan.to - runSpan.from : 0).toFixed(1)} s and the ${sources.scrapeSeconds}-s scrape interval: the run's length, at most 60 s, at least 2 scrapes + a ${step}-s step`,
          },
    run: options.run,
    sections,
    panels,
    checks,
    traces,
    tables: options.tables,
  };
};
