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

export const datasourceRef = (uid: DatasourceUid): common.DataSourceRef => ({ type: uid, uid });

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
    .timezone('browser')
    .time({ from: 'now-30m', to: 'now' })
    .refresh('10s')
    .tooltip(grafana.DashboardCursorSync.Crosshair);
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
