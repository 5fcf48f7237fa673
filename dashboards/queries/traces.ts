// Traces dashboard: Jaeger searches (recent and slowest traces of the API's service). Grafana's
// Jaeger datasource shows a search as a table whose rows open the full trace view.
import type { DashboardDefinition, TracePanel } from './types';

/**
 * Jaeger service of the API: the collector (stack/otelcol/config.yaml) gives every span the one service name
 * (POWERTOOLS_SERVICE_NAME); the Lambda function is the resource attribute faas.name.
 */
export const DEFAULT_TRACE_SERVICE = 'elevation-api';

const trace = (p: Omit<TracePanel, 'datasource' | 'style'>): TracePanel => ({
  datasource: 'jaeger',
  style: 'table',
  ...p,
});

export const tracePanels = {
  recent: trace({
    key: 'traces-recent',
    title: 'Recent traces',
    description: 'The latest traces of the service; open one for its span tree (parse, read-block, decode…).',
    unit: 'ms',
    width: 12,
    search: { service: '$service', limit: 20, sortBy: 'startTime' },
  }),
  slowest: trace({
    key: 'traces-slowest',
    title: 'Slowest traces',
    description: 'Traces of the service ordered by duration, slowest first: where the time went.',
    unit: 'ms',
    width: 12,
    search: { service: '$service', limit: 100, sortBy: 'duration' },
  }),
} satisfies Record<string, TracePanel>;

export const tracesDashboard: DashboardDefinition = {
  uid: 'elevation-traces',
  title: 'Elevation API traces',
  description: 'Jaeger trace search for the elevation API (X-Ray segments re-routed through the bridge).',
  tags: ['elevation-api', 'traces', 'generated'],
  variables: [{ name: 'service', label: 'Service', kind: 'textbox', defaultValue: DEFAULT_TRACE_SERVICE }],
  rows: [{ title: 'Traces', panels: [tracePanels.recent, tracePanels.slowest] }],
};
