// The shape of one panel, shared by the Grafana dashboards, the run report and the live panel check.
// A panel is data, not a Grafana object: the dashboard builder and the report each render it their way.

/**
 * The two datasources. Dashboards reference them through datasource variables (`${DS_PROMETHEUS}`,
 * `${DS_JAEGER}`), so a hand import picks whatever datasource of the type exists; provisioning creates them with
 * exactly these uids, which the variables select by default.
 */
export type DatasourceUid = 'prometheus' | 'jaeger';

export interface PromQuery {
  /** PromQL; may use the dashboard variables ($dataset, $testid) and $__rate_interval. */
  expr: string;
  /** Grafana legend format, e.g. `{{route}} {{outcome}}`; the report uses it too. */
  legend: string;
}

/** Jaeger search, in the fields of Grafana's Jaeger query model (queryType 'search'). */
export interface TraceSearch {
  service: string;
  operation?: string;
  minDuration?: string;
  limit: number;
  /** How the results are ordered for display ('duration' = slowest first). */
  sortBy: 'startTime' | 'duration';
}

/** A line drawn on the panel: an SLO bound. `bad` says which side of it breaks the SLO. */
export interface SloLine {
  value: number;
  label: string;
  bad: 'above' | 'below';
}

interface PanelBase {
  /** Stable, readable id: used in the report, the live check and the Grafana panel description. */
  key: string;
  title: string;
  description: string;
  /** Grafana unit id (https://grafana.com/docs: "standard options → unit"), e.g. 's', 'reqps'. */
  unit: string;
  /** Grid width in 24ths (Grafana's grid); height is the builder's concern. */
  width: 6 | 8 | 12 | 24;
}

export interface MetricPanel extends PanelBase {
  datasource: 'prometheus';
  style: 'timeseries';
  queries: PromQuery[];
  slo?: SloLine;
  /** Decimals shown (0 for counts: a cold start is a whole event); absent = the unit's default. */
  decimals?: number;
}

export interface TracePanel extends PanelBase {
  datasource: 'jaeger';
  style: 'table';
  search: TraceSearch;
}

export type PanelDefinition = MetricPanel | TracePanel;

export interface VariableDefinition {
  name: string;
  label: string;
  /** 'query': label_values(<metric>, <label>) from Prometheus; 'textbox': free text with a default. */
  kind: 'query' | 'textbox';
  query?: { metric: string; label: string };
  /** Value used when nothing is selected: the report and the live check substitute it. */
  defaultValue: string;
}

export interface DashboardDefinition {
  uid: string;
  title: string;
  description: string;
  tags: string[];
  variables: VariableDefinition[];
  rows: { title: string; panels: PanelDefinition[] }[];
}
