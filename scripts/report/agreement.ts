// The report's own truth check: each elevations-per-minute chart, read where its rate window lies inside the run,
// must agree with the load summary's headline (elevations ÷ run seconds × 60) within AGREEMENT_TOLERANCE. A chart
// whose window is fixed (1 m over a 15-s run) reads a third of the headline; this is the check that catches it.
import type { ChartSeries } from '../../dashboards/live/run-panels';

/** The charts and the headline may differ by this share of the headline (sampling at scrape times, extrapolation). */
export const AGREEMENT_TOLERANCE = 0.1;
/** Profiles that hold one arrival rate for the whole run: their chart must read the headline wherever it is read. */
export const STEADY_PROFILES = new Set(['baseline', 'soak']);

export interface AgreementCheck {
  chart: string;
  headline: string;
  /** Median of the chart (all its series summed) over the points whose rate window lies inside the run (± a step). */
  chartValue: number | null;
  headlineValue: number | null;
  /** chartValue / headlineValue. */
  ratio: number | null;
  ok: boolean;
  /**
   * Whether a disagreement is a fault: always when the rate window is the whole run (any profile must agree then),
   * and for steady profiles; a staircase or spike read over a minute legitimately differs from its average.
   */
  decisive: boolean;
  note: string;
}

const median = (values: number[]): number | null => {
  if (values.length === 0) return null;
  const sorted = [...values].sort((a, b) => a - b);
  const mid = Math.floor(sorted.length / 2);
  return sorted.length % 2 ? sorted[mid] : (sorted[mid - 1] + sorted[mid]) / 2;
};

/** The chart's value at each time (series summed), over [from, to]. */
export const plateauValue = (series: readonly ChartSeries[], from: number, to: number): number | null => {
  const sums = new Map<number, number>();
  for (const s of series)
    for (const [t, v] of s.points)
      if (v !== null && t >= from && t <= to) sums.set(t, (sums.get(t) ?? 0) + v);
  return median([...sums.values()]);
};

export const checkAgreement = (options: {
  chart: string;
  headline: string;
  series: readonly ChartSeries[];
  headlineValue: number | null;
  run: { from: number; to: number };
  rateWindowSeconds: number;
  /** The chart's step: a window of the run's own length ends at the run's end, between two points. */
  stepSeconds: number;
  /** The load profile (summary `profile`), when known. */
  profile?: string;
}): AgreementCheck => {
  const { run, rateWindowSeconds: w, stepSeconds } = options;
  const decisive = w >= Math.floor(run.to - run.from) || STEADY_PROFILES.has(options.profile ?? '');
  const from = run.from + w - stepSeconds;
  const to = run.to + stepSeconds;
  const chartValue = plateauValue(options.series, from, to);
  const base = {
    chart: options.chart,
    headline: options.headline,
    chartValue,
    headlineValue: options.headlineValue,
    decisive,
  };
  if (run.from + w > to)
    return {
      ...base,
      ratio: null,
      ok: false,
      note: `the run (${(run.to - run.from).toFixed(1)} s) is shorter than the rate window (${w} s)`,
    };
  if (chartValue === null || !options.headlineValue)
    return { ...base, ratio: null, ok: false, note: 'no chart points inside the run, or no headline value' };
  const ratio = chartValue / options.headlineValue;
  const ok = Math.abs(ratio - 1) <= AGREEMENT_TOLERANCE;
  return {
    ...base,
    ratio,
    ok,
    note: `median over ${new Date(from * 1000).toISOString().slice(11, 19)}–${new Date(to * 1000).toISOString().slice(11, 19)} UTC, where the ${w}-s rate window lies inside the run`,
  };
};
