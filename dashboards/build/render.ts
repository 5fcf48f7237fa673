// The generated dashboard files: one JSON per dashboard under dashboards/generated/<uid>.json.
import path from 'node:path';
import { dashboards } from '../queries';
import { buildDashboard } from './grafana';

export const GENERATED_DIR = path.join(__dirname, '..', 'generated');

export interface GeneratedDashboard {
  uid: string;
  file: string;
  text: string;
}

/** Stable text: same input, same bytes, so `dashboards:check` can compare files exactly. */
export const renderDashboards = (): GeneratedDashboard[] =>
  dashboards.map((d) => ({
    uid: d.uid,
    file: path.join(GENERATED_DIR, `${d.uid}.json`),
    text: `${JSON.stringify(buildDashboard(d), null, 2)}\n`,
  }));
