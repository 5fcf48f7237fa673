// Everything the report shows, as plain JSON: the catalogue's panels run over the run's window
// (the same query definitions as the Grafana dashboards), the slowest traces, and the tables.
import type { DashboardDefinition, MetricPanel, SloLine } from '../../dashboards/queries';
import { DEFAULT_TRACE_SERVICE, dashboards, panelsOf, tracePanels } from '../../dashboards/queries';
import type { TraceSummary } from '../../dashboards/live/jaeger';
import {
  runMetricPanel,
  runTracePanel,
  type ChartSeries,
  type LiveSources,
  type TimeWindow,
} from '../../dashboards/live/run-panels';
import { resolveTraceService } from '../../dashboards/live/trace-service';
import type { LoadSummary, Table } from './tables';

export interface ChartPanel {
  key: string;
  title: string;
  description: string;
  unit: string;
  slo?: SloLine;
  series: ChartSeries[];
  queries: string[];
  error?: string;
}

export interface ReportData {
  title: string;
  generatedAt: string;
  window: TimeWindow;
  run?: { file: string; load: LoadSummary };
  sections: { uid: string; title: string; rows: { title: string; panelKeys: string[] }[] }[];
  panels: Record<string, ChartPanel>;
  traces: { service: string; slowest: TraceSummary[]; error?: string };
  tables: Table[];
}

/** How many of the slowest traces the report lists with their span breakdown. */
export const SLOWEST_TRACES = 10;

const chartPanel = async (
  panel: MetricPanel,
  dashboard: DashboardDefinition,
  window: TimeWindow,
  sources: LiveSources,
  variables: Record<string, string>,
): Promise<ChartPanel> => {
  const base = {
    key: panel.key,
    title: panel.title,
    description: panel.description,
    unit: panel.unit,
    slo: panel.slo,
  };
  try {
    return { ...base, ...(await runMetricPanel(panel, dashboard, window, sources, variables)) };
  } catch (err) {
    return { ...base, series: [], queries: panel.queries.map((q) => q.expr), error: (err as Error).message };
  }
};

export const collectReport = async (options: {
  window: TimeWindow;
  sources: LiveSources;
  variables: Record<string, string>;
  run?: ReportData['run'];
  tables: Table[];
}): Promise<ReportData> => {
  const { window, sources, variables } = options;
  const panels: Record<string, ChartPanel> = {};
  const sections: ReportData['sections'] = [];
  for (const dashboard of dashboards.filter((d) => d.variables.every((v) => v.name !== 'service'))) {
    const rows = [];
    for (const row of dashboard.rows) {
      const metricPanels = row.panels.filter((p): p is MetricPanel => p.datasource === 'prometheus');
      const charts = await Promise.all(
        metricPanels.map((p) => chartPanel(p, dashboard, window, sources, variables)),
      );
      for (const c of charts) panels[c.key] = c;
      rows.push({ title: row.title, panelKeys: charts.map((c) => c.key) });
    }
    sections.push({ uid: dashboard.uid, title: dashboard.title, rows });
  }
  const tracesDashboard = dashboards.find((d) => panelsOf(d).includes(tracePanels.slowest));
  let traces: ReportData['traces'] = { service: variables.service ?? DEFAULT_TRACE_SERVICE, slowest: [] };
  try {
    const service =
      variables.service ?? (await resolveTraceService(sources.jaegerUrl, DEFAULT_TRACE_SERVICE));
    if (!tracesDashboard) throw new Error('no dashboard holds the slowest-traces panel');
    const slowest = await runTracePanel(tracePanels.slowest, tracesDashboard, window, sources, {
      ...variables,
      service,
    });
    traces = { service, slowest: slowest.slice(0, SLOWEST_TRACES) };
  } catch (err) {
    traces.error = `Jaeger at ${sources.jaegerUrl}: ${(err as Error).message}`;
  }
  return {
    title: options.run ? `Load run ${options.run.load.testid}` : 'Elevation API run report',
    generatedAt: new Date().toISOString(),
    window,
    run: options.run,
    sections,
    panels,
    traces,
    tables: options.tables,
  };
};
