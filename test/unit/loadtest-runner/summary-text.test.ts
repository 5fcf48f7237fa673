/**
 * The THRESHOLDS section prints each threshold's observed value, as k6 v1's summary does, also for a Trend
 * statistic that summaryTrendStats leaves out of the metric's columns (k6 takes it from the threshold's own
 * aggregation, internal/js/summary.js renderMetricValueForThresholds).
 */
import type { SummaryData } from '../../../loadtests/runner/output/summary-data';
import { textSummary } from '../../../loadtests/runner/output/summary-text';

const data: SummaryData = {
  root_group: { name: '', path: '', id: '', groups: [], checks: [] },
  options: { summaryTrendStats: ['avg', 'p(95)'], summaryTimeUnit: '', noColor: true },
  state: { isStdOutTTY: false, isStdErrTTY: false, testRunDurationMs: 1000 },
  metrics: {
    http_req_duration: {
      type: 'trend',
      contains: 'time',
      values: { avg: 12, 'p(95)': 20 },
      thresholds: { 'p(95)<500': { ok: true }, 'p(99.9)<30': { ok: false } },
    },
  },
};

describe('text summary thresholds', () => {
  it('prints the observed value of a threshold on a stat outside summaryTrendStats', () => {
    const text = textSummary(data, 'compact', { http_req_duration: { 'p(99.9)<30': 31.5 } });
    expect(text).toContain("✓ 'p(95)<500' p(95)=20.00ms");
    expect(text).toContain("✗ 'p(99.9)<30' p(99.9)=31.50ms");
  });
});
