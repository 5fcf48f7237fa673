// Lint rules for generated Grafana dashboard JSON. They read the JSON (not the TS definitions) so a
// hand-edited or broken file fails too. Each problem names the dashboard, the panel and the rule.
import { baseMetricName, metricNames } from './promql-metrics';
import { ERROR_RATIO, LATENCY_P95_SECONDS } from '../queries/slo';

export interface Problem {
  where: string;
  rule: string;
  message: string;
}

type Json = Record<string, unknown>;

/** Datasources by dashboard variable (importable by hand), the variable's name by plugin type. */
const DATASOURCE_VARIABLES: Record<string, string> = { prometheus: 'DS_PROMETHEUS', jaeger: 'DS_JAEGER' };
const DATASOURCE_REFS = new Map(
  Object.entries(DATASOURCE_VARIABLES).map(([type, name]) => [`\${${name}}`, type]),
);
/** The uids provisioning creates: a datasource variable's default must be one of them. */
const PROVISIONED_UIDS = new Set(Object.keys(DATASOURCE_VARIABLES));
/** Families documented by their own projects (node exporter, client defaults, k6's remote write, the collector's). */
export const EXTERNAL_METRIC_PREFIXES = ['node_', 'process_', 'k6_', 'otelcol_'];
/** Grafana keeps uids to 40 characters; readable = lower-case words and dashes. */
const UID_PATTERN = /^[a-z0-9][a-z0-9-]{0,39}$/;

const isObject = (v: unknown): v is Json => typeof v === 'object' && v !== null && !Array.isArray(v);
const asArray = (v: unknown): unknown[] => (Array.isArray(v) ? v : []);
const str = (v: unknown): string => (typeof v === 'string' ? v : '');

export interface LintOptions {
  /** Text of docs/metrics.md; when given, every non-external metric name must appear in it. */
  metricCatalogue?: string;
}

const thresholdValues = (panel: Json): number[] => {
  const defaults =
    isObject(panel.fieldConfig) && isObject(panel.fieldConfig.defaults) ? panel.fieldConfig.defaults : {};
  const steps = isObject(defaults.thresholds) ? asArray(defaults.thresholds.steps) : [];
  const style =
    isObject(defaults.custom) && isObject(defaults.custom.thresholdsStyle)
      ? str(defaults.custom.thresholdsStyle.mode)
      : 'off';
  if (style === 'off' || style === '') return [];
  return steps
    .filter(isObject)
    .map((s) => s.value)
    .filter((v): v is number => typeof v === 'number');
};

const lintTarget = (target: Json, where: string, options: LintOptions, problems: Problem[]): void => {
  const add = (rule: string, message: string): void => void problems.push({ where, rule, message });
  const ds = isObject(target.datasource) ? target.datasource : {};
  if (DATASOURCE_REFS.get(str(ds.uid)) !== str(ds.type))
    add(
      'datasource-uid',
      `target ${str(target.refId)} datasource must be the dashboard's datasource variable (\${DS_PROMETHEUS}|\${DS_JAEGER}, with its type), got ${JSON.stringify(target.datasource)}`,
    );
  if (str(ds.type) !== 'prometheus') return;
  const expr = str(target.expr);
  if (!expr.trim()) return add('query', `target ${str(target.refId)} has an empty expr`);
  for (const range of expr.matchAll(/\[([^\]]+)\]/g)) {
    if (range[1] !== '$__rate_interval')
      add(
        'rate-interval',
        `range [${range[1]}] must be [$__rate_interval] (a fixed window misreads runs shorter or longer than it; per-minute rates are rate × 60)`,
      );
  }
  if (options.metricCatalogue === undefined) return;
  for (const name of metricNames(expr)) {
    if (EXTERNAL_METRIC_PREFIXES.some((p) => name.startsWith(p))) continue;
    if (!options.metricCatalogue.includes(baseMetricName(name)))
      add('metric-catalogue', `metric ${name} is not in docs/metrics.md`);
  }
};

const lintPanel = (panel: Json, dashboardWhere: string, options: LintOptions, problems: Problem[]): void => {
  const where = `${dashboardWhere} panel ${String(panel.id)} "${str(panel.title)}"`;
  const add = (rule: string, message: string): void => void problems.push({ where, rule, message });
  if (!str(panel.title).trim()) add('title', 'panel title is empty');
  if (panel.type === 'row') return;
  const ds = isObject(panel.datasource) ? panel.datasource : {};
  if (DATASOURCE_REFS.get(str(ds.uid)) !== str(ds.type))
    add(
      'datasource-uid',
      `panel datasource must be the dashboard's datasource variable (\${DS_PROMETHEUS}|\${DS_JAEGER}, with its type), got ${JSON.stringify(panel.datasource)}`,
    );
  const defaults =
    isObject(panel.fieldConfig) && isObject(panel.fieldConfig.defaults) ? panel.fieldConfig.defaults : {};
  if (!str(defaults.unit).trim()) add('unit', 'panel has no unit (fieldConfig.defaults.unit)');
  const targets = asArray(panel.targets).filter(isObject);
  if (targets.length === 0) add('query', 'panel has no targets');
  const refIds = targets.map((t) => str(t.refId));
  if (new Set(refIds).size !== refIds.length || refIds.some((r) => !r))
    add('ref-id', `refIds must be present and unique, got ${JSON.stringify(refIds)}`);
  for (const t of targets) lintTarget(t, where, options, problems);
  const exprs = targets.map((t) => str(t.expr)).join('\n');
  const lines = thresholdValues(panel);
  const requestP95 = /histogram_quantile\(0\.95,[^\n]*request_latency_seconds|http_req_duration_p95/.test(
    exprs,
  );
  if (requestP95 && !lines.includes(LATENCY_P95_SECONDS)) {
    add('slo-line', `request p95 latency panel must draw the ${LATENCY_P95_SECONDS} s SLO threshold`);
  }
  if (/outcome="5xx"|http_req_failed/.test(exprs) && !lines.includes(ERROR_RATIO))
    add('slo-line', `error panel must draw the ${ERROR_RATIO} SLO threshold`);
};

export const lintDashboard = (dashboard: unknown, options: LintOptions = {}): Problem[] => {
  const problems: Problem[] = [];
  if (!isObject(dashboard)) return [{ where: 'dashboard', rule: 'shape', message: 'not a JSON object' }];
  const where = `dashboard ${str(dashboard.uid) || '(no uid)'}`;
  const add = (rule: string, message: string): void => void problems.push({ where, rule, message });
  if (!UID_PATTERN.test(str(dashboard.uid)))
    add(
      'uid',
      `uid must be present, lower-case words and dashes, ≤ 40 chars; got ${JSON.stringify(dashboard.uid)}`,
    );
  if (!str(dashboard.title).trim()) add('title', 'dashboard title is empty');
  const templating = isObject(dashboard.templating)
    ? asArray(dashboard.templating.list).filter(isObject)
    : [];
  const text = JSON.stringify(dashboard);
  for (const [type, name] of Object.entries(DATASOURCE_VARIABLES)) {
    if (!text.includes(`\${${name}}`)) continue;
    const v = templating.find((t) => t.type === 'datasource' && t.name === name);
    const current = v && isObject(v.current) ? str(v.current.value) : '';
    if (!v || str(v.query) !== type || !PROVISIONED_UIDS.has(current))
      add(
        'datasource-variable',
        `\${${name}} is used, so the dashboard must define datasource variable ${name} (query ${type}) defaulting to a provisioned uid`,
      );
  }
  const panels = asArray(dashboard.panels).filter(isObject);
  const ids = panels.map((p) => p.id);
  if (ids.some((id) => typeof id !== 'number') || new Set(ids).size !== ids.length)
    add('panel-id', `panel ids must be present and unique, got ${JSON.stringify(ids)}`);
  for (const panel of panels) lintPanel(panel, where, options, problems);
  return problems;
};

/** Rules across dashboards: uids unique (Grafana would silently keep only one). */
export const lintDashboardSet = (all: unknown[], options: LintOptions = {}): Problem[] => {
  const problems = all.flatMap((d) => lintDashboard(d, options));
  const uids = all.map((d) => (isObject(d) ? str(d.uid) : ''));
  for (const uid of new Set(uids)) {
    if (uids.filter((u) => u === uid).length > 1)
      problems.push({
        where: `dashboard ${uid}`,
        rule: 'uid-unique',
        message: `uid ${uid} is used by more than one dashboard`,
      });
  }
  return problems;
};
