// The one source of truth for every panel: the Grafana dashboards (dashboards/build), the run report
// (scripts/report) and the live panel check (scripts/dashboards/panel-data.ts) all import this.
import { elevationApiDashboard } from './elevation-api';
import { loadTestDashboard } from './load-test';
import { tracesDashboard } from './traces';
import type { DashboardDefinition, PanelDefinition } from './types';

export * from './types';
export * as slo from './slo';
export { elevationApiPanels } from './elevation-api';
export { loadTestPanels } from './load-test';
export { tracePanels, DEFAULT_TRACE_SERVICE } from './traces';
export { interpolate, rateIntervalFor } from './variables';

export const dashboards: DashboardDefinition[] = [elevationApiDashboard, loadTestDashboard, tracesDashboard];

export const panelsOf = (d: DashboardDefinition): PanelDefinition[] => d.rows.flatMap((r) => r.panels);

export const allPanels = (): { dashboard: DashboardDefinition; panel: PanelDefinition }[] =>
  dashboards.flatMap((dashboard) => panelsOf(dashboard).map((panel) => ({ dashboard, panel })));
