import { TrendValues } from '../../../loadtests/runner/metrics/trend';
import { runScript } from './harness';

/** The bound the runner promises; it keeps every value, so it is in fact exact. */
const PERCENTILE_TOLERANCE = 0.01;

/** Independent exact percentile: sort a plain array, interpolate between the closest ranks. */
function exactPercentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  const rank = p * (sorted.length - 1);
  const lo = Math.floor(rank);
  const hi = Math.ceil(rank);
  return sorted[lo] + (sorted[hi] - sorted[lo]) * (rank - lo);
}

function lognormal(n: number, seed: number): number[] {
  let s = seed;
  const rand = () => ((s = (s * 1103515245 + 12345) % 2 ** 31) + 1) / (2 ** 31 + 1);
  return Array.from({ length: n }, () =>
    Math.exp(3 + 0.8 * Math.sqrt(-2 * Math.log(rand())) * Math.cos(2 * Math.PI * rand())),
  );
}

describe('trend percentiles', () => {
  it('match an exact computation within 1% on 100k skewed values', () => {
    const values = lognormal(100_000, 7);
    const trend = new TrendValues();
    trend.addAll(values);
    for (const p of [0.5, 0.9, 0.95, 0.99, 0.999]) {
      const exact = exactPercentile(values, p);
      expect(Math.abs(trend.percentile(p) - exact) / exact).toBeLessThanOrEqual(PERCENTILE_TOLERANCE);
    }
    expect(trend.min).toBe(Math.min(...values));
    expect(trend.avg).toBeCloseTo(values.reduce((a, b) => a + b, 0) / values.length, 6);
  });

  it('stay exact when values arrive after an earlier percentile was read', () => {
    const trend = new TrendValues();
    trend.addAll([5, 1, 3]);
    expect(trend.percentile(0.5)).toBe(3);
    trend.addAll([100, 200]);
    expect(trend.percentile(0.5)).toBe(5);
  });

  it('reach the summary exactly through custom Trends recorded in several VU threads', async () => {
    // per-vu-iterations: 4 VUs × 250 = the values 0..999 once each, whichever thread runs them.
    const r = await runScript(
      `import { Trend } from 'k6/metrics';
import exec from 'k6/execution';
const t = new Trend('synthetic');
export const options = { scenarios: { s: { executor: 'per-vu-iterations', vus: 4, iterations: 250 } },
  summaryTrendStats: ['med', 'p(95)', 'p(99)', 'max'] };
export default function () { t.add(exec.scenario.iterationInTest); }`,
    );
    const values = Array.from({ length: 1000 }, (_, i) => i);
    const got = r.summary.metrics.synthetic.values;
    expect(got['p(95)']).toBeCloseTo(exactPercentile(values, 0.95), 6);
    expect(got['p(99)']).toBeCloseTo(exactPercentile(values, 0.99), 6);
    expect(got.med).toBeCloseTo(499.5, 6);
    expect(got.max).toBe(999);
  }, 60_000);
});
