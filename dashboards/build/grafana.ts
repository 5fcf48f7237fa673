// Turns the panel definitions (dashboards/queries) into Grafana dashboards with the foundation SDK.
// Layout, legends and SLO lines are decided here; what is queried is decided in dashboards/queries.
import * as common from '@grafana/grafana-foundation-sdk/common';
import * as grafana from '@grafana/grafana-foundation-sdk/dashboard';
import * as prometheus from '@grafana/grafana-foundation-sdk/prometheus';
import * as table from '@grafana/grafana-foundation-sdk/table';
import * as timeseries from '@grafana/grafana-foundation-sdk/timeseries';
import type {
  DashboardDefinition,
  DatasourceUid,
  MetricPanel,
  PanelDefinition,
  TracePanel,
  VariableDefinition,
} from '../queries';
import { JaegerSearchBuilder } from './jaeger-query';

const PANEL_HEIGHT = 8;

/** The dashboard variable that names each datasource: `${DS_PROMETHEUS}` in every panel and query. */
export const DATASOURCE_VARIABLE: Record<DatasourceUid, string> = {
  prometheus: 'DS_PROMETHEUS',
  jaeger: 'DS_JAEGER',
};
const DATASOURCE_LABEL: Record<DatasourceUid, string> = { prometheus: 'Prometheus', jaeger: 'Jaeger' };

/**
 * By variable, not by fixed uid: imported by hand into a Grafana whose datasources have other uids, the variable
 * picks that Grafana's datasource of the type; provisioned, it defaults to the uid provisioning creates.
 */
export const datasourceRef = (uid: DatasourceUid): common.DataSourceRef => ({
  type: uid,
  uid: `\${${DATASOURCE_VARIABLE[uid]}}`,
});

const datasourceVariable = (uid: DatasourceUid): grafana.DatasourceVariableBuilder =>
  new grafana.DatasourceVariableBuilder(DATASOURCE_VARIABLE[uid])
    .label(`${DATASOURCE_LABEL[uid]} datasource`)
    .type(uid)
    .current({ selected: true, text: DATASOURCE_LABEL[uid], value: uid });

const datasourcesOf = (d: DashboardDefinition): DatasourceUid[] => {
  const used = new Set<DatasourceUid>(d.rows.flatMap((r) => r.panels.map((p) => p.datasource)));
  if (d.variables.some((v) => v.kind === 'query')) used.add('prometheus');
  return (['prometheus', 'jaeger'] as const).filter((uid) => used.has(uid));
};

const refId = (i: number): string => String.fromCharCode(65 + i);

/** Green below the SLO, red from it on (or the reverse when low values are the bad side). */
const sloThresholds = (panel: MetricPanel): grafana.ThresholdsConfigBuilder => {
  const steps: grafana.Threshold[] = panel.slo
    ? panel.slo.bad === 'above'
      ? [
          { value: null, color: 'green' },
          { value: panel.slo.value, color: 'red' },
        ]
      : [
          { value: null, color: 'red' },
          { value: panel.slo.value, color: 'green' },
        ]
    : [{ value: null, color: 'green' }];
  return new grafana.ThresholdsConfigBuilder().mode(grafana.ThresholdsMode.Absolute).steps(steps);
};

/** The standard options every generated panel builder has (each SDK panel package defines its own class). */
interface StandardPanelOptions {
  id(id: number): this;
  title(title: string): this;
  description(description: string): this;
  datasource(ds: common.DataSourceRef): this;
  gridPos(gridPos: grafana.GridPos): this;
  unit(unit: string): this;
}

/** Identity, place and unit, the same on every panel; the key in the description ties it to the catalogue. */
const standard = <B extends StandardPanelOptions>(
  builder: B,
  p: PanelDefinition,
  id: number,
  gridPos: grafana.GridPos,
): B =>
  builder
    .id(id)
    .title(p.title)
    .description(`${p.description} [${p.key}]`)
    .datasource(datasourceRef(p.datasource))
    .gridPos(gridPos)
    .unit(p.unit);

const metricPanel = (p: MetricPanel, id: number, gridPos: grafana.GridPos): timeseries.PanelBuilder => {
  const ds = datasourceRef(p.datasource);
  const builder = standard(new timeseries.PanelBuilder(), p, id, gridPos)
    .min(0)
    // The colour follows the series name, so one series (a function, a process, p95) has one colour in every panel.
    .colorScheme(new grafana.FieldColorBuilder().mode(grafana.FieldColorModeId.PaletteClassicByName))
    .lineWidth(1)
    .fillOpacity(10)
    .legend(
      new common.VizLegendOptionsBuilder()
        .showLegend(true)
        .displayMode(common.LegendDisplayMode.List)
        .placement(common.LegendPlacement.Bottom),
    )
    .tooltip(
      new common.VizTooltipOptionsBuilder()
        .mode(common.TooltipDisplayMode.Multi)
        .sort(common.SortOrder.Descending),
    )
    .thresholds(sloThresholds(p))
    .thresholdsStyle(
      new common.GraphThresholdsStyleConfigBuilder().mode(
        p.slo ? common.GraphThresholdsStyleMode.Dashed : common.GraphThresholdsStyleMode.Off,
      ),
    );
  if (p.decimals !== undefined) builder.decimals(p.decimals);
  p.queries.forEach((q, i) =>
    builder.withTarget(
      new prometheus.DataqueryBuilder().refId(refId(i)).datasource(ds).expr(q.expr).legendFormat(q.legend),
    ),
  );
  return builder;
};

const tracePanel = (p: TracePanel, id: number, gridPos: grafana.GridPos): table.PanelBuilder => {
  const builder = standard(new table.PanelBuilder(), p, id, gridPos).withTarget(
    new JaegerSearchBuilder('A', datasourceRef(p.datasource), p.search),
  );
  if (p.search.sortBy === 'duration') {
    builder.sortBy([new common.TableSortByFieldStateBuilder().displayName('Duration').desc(true)]);
  }
  return builder;
};

const variable = (v: VariableDefinition): grafana.QueryVariableBuilder | grafana.TextBoxVariableBuilder => {
  if (v.kind === 'textbox')
    return new grafana.TextBoxVariableBuilder(v.name).label(v.label).defaultValue(v.defaultValue);
  if (!v.query) throw new Error(`query variable ${v.name} needs a query`);
  return new grafana.QueryVariableBuilder(v.name)
    .label(v.label)
    .datasource(datasourceRef('prometheus'))
    .query(`label_values(${v.query.metric}, ${v.query.label})`)
    .refresh(grafana.VariableRefresh.OnTimeRangeChanged)
    .sort(grafana.VariableSort.AlphabeticalAsc)
    .multi(true)
    .includeAll(true)
    .allValue(v.defaultValue);
};

/** Panels flow left to right in 24 columns, wrapping, each row of definitions under a row header. */
export const buildDashboard = (d: DashboardDefinition): grafana.Dashboard => {
  const builder = new grafana.DashboardBuilder(d.title)
    .uid(d.uid)
    .description(d.description)
    .tags(d.tags)
    .editable()
    // UTC on every time axis, as in the run report and the load summaries (a browser zone differs per reader).
    .timezone('utc')
    .time({ from: 'now-30m', to: 'now' })
    .refresh('10s')
    .tooltip(grafana.DashboardCursorSync.Crosshair);
  for (const uid of datasourcesOf(d)) builder.withVariable(datasourceVariable(uid));
  for (const v of d.variables) builder.withVariable(variable(v));
  let id = 1;
  let y = 0;
  for (const row of d.rows) {
    builder.withRow(new grafana.RowBuilder(row.title).id(id++).gridPos({ x: 0, y: y++, w: 24, h: 1 }));
    let x = 0;
    for (const p of row.panels) {
      if (x + p.width > 24) {
        x = 0;
        y += PANEL_HEIGHT;
      }
      const gridPos = { x, y, w: p.width, h: PANEL_HEIGHT };
      builder.withPanel(
        p.datasource === 'jaeger' ? tracePanel(p, id++, gridPos) : metricPanel(p, id++, gridPos),
      );
      x += p.width;
    }
    y += PANEL_HEIGHT;
  }
  return builder.build();
};
