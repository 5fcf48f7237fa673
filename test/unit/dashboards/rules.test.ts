import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { ERROR_RATIO, LATENCY_P95_SECONDS } from '../../../dashboards/queries/slo';

const RULES = path.join(__dirname, '..', '..', '..', 'stack', 'prometheus', 'rules');

describe('Prometheus recording and SLO alert rules', () => {
  it('alert on the same SLO numbers the dashboards draw', () => {
    const doc = parse(fs.readFileSync(path.join(RULES, 'slo.rules.yml'), 'utf8')) as {
      groups: { rules: { alert: string; expr: string }[] }[];
    };
    const exprs = new Map(doc.groups.flatMap((g) => g.rules).map((r) => [r.alert, r.expr]));
    expect(exprs.get('ElevationApiLatencyP95AboveSlo')).toBe(
      `elevation_api:request_latency_seconds:p95_5m > ${LATENCY_P95_SECONDS}`,
    );
    expect(exprs.get('ElevationApiErrorRatioAboveSlo')).toBe(
      `elevation_api:error_ratio:rate5m > ${ERROR_RATIO}`,
    );
  });

  it('burn the same error budget the SLO states, over the SRE workbook windows', () => {
    const doc = parse(fs.readFileSync(path.join(RULES, 'slo-burn-rate.rules.yml'), 'utf8')) as {
      groups: { rules: { alert?: string; expr: string }[] }[];
    };
    const exprs = new Map(doc.groups.flatMap((g) => g.rules).map((r) => [r.alert, r.expr]));
    expect(exprs.get('ElevationApiErrorBudgetFastBurn')).toBe(
      `elevation_api:error_ratio:rate1h > (14.4 * ${ERROR_RATIO}) and elevation_api:error_ratio:rate5m > (14.4 * ${ERROR_RATIO})`,
    );
    expect(exprs.get('ElevationApiErrorBudgetSlowBurn')).toBe(
      `elevation_api:error_ratio:rate6h > (6 * ${ERROR_RATIO}) and elevation_api:error_ratio:rate30m > (6 * ${ERROR_RATIO})`,
    );
  });
});
