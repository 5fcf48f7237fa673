// Runs the catalogue's panels outside Grafana, with Grafana's substitutions: used by the live
// panel check (every panel returns data) and the run report (every panel drawn over a run).
import type { DashboardDefinition, MetricPanel, TracePanel } from '../queries';
import { interpolate, rateIntervalFor } from '../queries';
import { searchTraces, summarizeTrace, type TraceSummary } from './jaeger';
import { legendFor, queryRange } from './prometheus';

export interface LiveSources {
  prometheusUrl: string;
  jaegerUrl: string;
  /** Prometheus' scrape interval in seconds (Grafana's datasource timeInterval). */
  scrapeSeconds: number;
}

/** Unix seconds. */
export interface TimeWindow {
  from: number;
  to: number;
}

export interface ChartSeries {
  name: string;
  points: [number, number | null][];
}

export interface MetricPanelResult {
  series: ChartSeries[];
  queries: string[];
}

/** About 300 points per chart, never finer than 1 s. */
export const stepFor = (w: TimeWindow): number => Math.max(1, Math.ceil((w.to - w.from) / 300));

/** A per-minute rate is read over at most a minute, as the original system defined its headline. */
const MAX_RUN_RATE_WINDOW_S = 60;

/**
 * The report's $__rate_interval for a run of `runSeconds`: the run's length, capped at a minute. A per-minute rate
 * over a fixed minute of a 15-s run averages in 45 s of idle and reads a quarter of the truth; a window shorter than
 * the run reads a slice of it, and with a random request mix a 5-s slice differs from the whole by ~12% (sd). So a
 * short run is read over its whole length (the chart peaks at the run's rate as the run ends), a long one over the
 * original system's minute. Never under two scrape intervals plus a step: every window holds two samples.
 */
export const runRateWindowSeconds = (
  runSeconds: number,
  scrapeSeconds: number,
  stepSeconds: number,
): number =>
  Math.max(2 * scrapeSeconds + stepSeconds, Math.min(MAX_RUN_RATE_WINDOW_S, Math.floor(runSeconds)));

export const runMetricPanel = async (
  panel: MetricPanel,
  dashboard: DashboardDefinition,
  window: TimeWindow,
  sources: LiveSources,
  variables: Record<string, string> = {},
  /** A window derived from the run (runRateWindowSeconds); absent: Grafana's rule from step and scrape. */
  rateWindowSeconds?: number,
): Promise<MetricPanelResult> => {
  const step = stepFor(window);
  const rateInterval =
    rateWindowSeconds === undefined ? rateIntervalFor(step, sources.scrapeSeconds) : `${rateWindowSeconds}s`;
  const vars = { __rate_interval: rateInterval, ...variables };
  const queries = panel.queries.map((q) => interpolate(q.expr, dashboard, vars));
  const results = await Promise.all(
    queries.map((expr) =>
      queryRange(sources.prometheusUrl, expr, { start: window.from, end: window.to, step }),
    ),
  );
  const series = results.flatMap((list, i) =>
    list.map((s) => ({ name: legendFor(panel.queries[i].legend, s.labels), points: s.points })),
  );
  return { series, queries };
};

export const runTracePanel = async (
  panel: TracePanel,
  dashboard: DashboardDefinition,
  window: TimeWindow,
  sources: LiveSources,
  variables: Record<string, string> = {},
): Promise<TraceSummary[]> => {
  const service = interpolate(panel.search.service, dashboard, variables);
  const traces = await searchTraces(sources.jaegerUrl, {
    ...panel.search,
    service,
    start: window.from,
    end: window.to,
  });
  const summaries = traces.map(summarizeTrace);
  return panel.search.sortBy === 'duration'
    ? summaries.sort((a, b) => b.durationMs - a.durationMs)
    : summaries.sort((a, b) => b.start - a.start);
};

/** A chart has data when at least one series has one finite point. */
export const hasPoints = (r: MetricPanelResult): boolean =>
  r.series.some((s) => s.points.some(([, v]) => v !== null));
