// The run report's own truth rules: a rate window derived from the run, charts checked against the headline,
// series that stop with the run, and the trace waterfall drawn from Jaeger's span data.
import { runRateWindowSeconds } from '../../../dashboards/live/run-panels';
import type { WaterfallSpan } from '../../../dashboards/live/jaeger';
import { AGREEMENT_TOLERANCE, checkAgreement, plateauValue } from '../../../scripts/report/agreement';
import { clipAfter, type ReportData } from '../../../scripts/report/collect';
import { renderHtml } from '../../../scripts/report/html';
import { loadSummaryOf } from '../../../scripts/report/tables';
import { tickStepMs, waterfallRows, waterfallSvg } from '../../../scripts/report/waterfall';

const RUN = { from: 1000, to: 1015 }; // report:smoke's 15-s run
const HEADLINE = 2773; // elevations/min of a smoke run

/** A chart over the run: `value` from `rampEnd` on, a linear ramp before it (a rate window filling up). */
const chart = (value: number, rampEnd: number) => [
  {
    name: 'elevations/min',
    points: Array.from({ length: 40 }, (_, i): [number, number | null] => {
      const t = 990 + i;
      return [t, t < RUN.from ? 0 : t < rampEnd ? (value * (t - RUN.from)) / (rampEnd - RUN.from) : value];
    }),
  },
];

describe('the report’s rate window', () => {
  it('is a short run’s own length, but at least two scrapes and a step, so each window holds two samples', () => {
    expect(runRateWindowSeconds(15.1, 1, 1)).toBe(15);
    expect(runRateWindowSeconds(15.1, 5, 1)).toBe(15);
    expect(runRateWindowSeconds(45, 5, 1)).toBe(45);
    expect(runRateWindowSeconds(4, 5, 1)).toBe(11);
  });

  it('is the per-minute definition’s full minute for runs of two minutes and more', () => {
    expect(runRateWindowSeconds(120, 5, 1)).toBe(60);
    expect(runRateWindowSeconds(600, 5, 3)).toBe(60);
    expect(runRateWindowSeconds(3600, 15, 13)).toBe(60);
  });
});

describe('charts against the headline', () => {
  it('agrees when the chart reads the run’s rate once its window lies inside the run', () => {
    const w = runRateWindowSeconds(15, 1, 1);
    const check = checkAgreement({
      stepSeconds: 1,
      chart: 'Elevations per minute',
      headline: 'Elevations per minute (scenarios, whole run)',
      series: chart(HEADLINE * 0.97, RUN.from + w),
      headlineValue: HEADLINE,
      run: RUN,
      rateWindowSeconds: w,
    });
    expect(check).toMatchObject({ ok: true });
    expect(check.ratio).toBeCloseTo(0.97, 5);
  });

  it('fails a chart that reads a quarter of the headline, as a fixed 1-minute window over a 15-s run does', () => {
    // rate over 1m of a 15-s burst: at most 15/60 of the run's rate (the bug the check exists for)
    const check = checkAgreement({
      stepSeconds: 1,
      chart: 'Elevations per minute',
      headline: 'Elevations per minute (scenarios, whole run)',
      series: chart(HEADLINE * 0.25, RUN.to),
      headlineValue: HEADLINE,
      run: RUN,
      rateWindowSeconds: 15,
    });
    expect(check.ok).toBe(false);
    expect(Math.abs((check.ratio ?? 0) - 1)).toBeGreaterThan(AGREEMENT_TOLERANCE);
  });

  it('shows a check it could not make as NOT CHECKED with its reason, not as a disagreement', () => {
    const base = {
      chart: 'c',
      headline: 'h',
      headlineValue: HEADLINE,
      run: RUN,
      stepSeconds: 1,
      profile: 'baseline',
    };
    const empty = checkAgreement({ ...base, series: [], rateWindowSeconds: 5 });
    const off = checkAgreement({ ...base, series: chart(HEADLINE * 2, RUN.from), rateWindowSeconds: 5 });
    const data = {
      title: 't',
      generatedAt: '',
      window: { from: RUN.from, to: RUN.to },
      rateWindow: { seconds: 5, reason: '' },
      run: {
        file: 's.json',
        load: {
          testid: 'x',
          profile: 'baseline',
          exitCode: 0,
          exitCodeFrom: 'engine',
          abortReason: null,
          passed: true,
          verdict: 'thresholds passed',
          stoppedEarly: null,
          generatorLagMs: null,
          headline: [],
          thresholds: { title: '', source: '', columns: [], rows: [] },
        },
      },
      sections: [],
      panels: {},
      checks: [empty, off],
      traces: { service: '', functions: [], slowest: [] },
      tables: [],
    } as unknown as ReportData;
    const html = renderHtml(data);
    expect(html).toContain('>NOT CHECKED</td><td>no chart points inside the run, or no headline value<');
    expect(html.match(/>DISAGREE</g)).toHaveLength(1);
  });

  it('fails rather than guesses when the run is shorter than the window or the chart is empty', () => {
    const base = { chart: 'c', headline: 'h', headlineValue: HEADLINE, run: RUN, stepSeconds: 1 };
    expect(
      checkAgreement({ ...base, series: chart(HEADLINE, RUN.from), rateWindowSeconds: 20 }),
    ).toMatchObject({
      ok: false,
      note: expect.stringContaining('shorter than the rate window'),
    });
    expect(checkAgreement({ ...base, series: [], rateWindowSeconds: 15 }).ok).toBe(false);
  });

  it('judges a long ramp profile read over a minute as informative, a steady one or a whole-run window as decisive', () => {
    const long = { from: 0, to: 600 };
    const base = {
      chart: 'c',
      headline: 'h',
      headlineValue: HEADLINE,
      run: long,
      stepSeconds: 2,
      rateWindowSeconds: 60,
      series: [{ name: 's', points: [[300, HEADLINE * 2]] as [number, number | null][] }],
    };
    expect(checkAgreement({ ...base, profile: 'stress' })).toMatchObject({ ok: false, decisive: false });
    expect(checkAgreement({ ...base, profile: 'baseline' })).toMatchObject({ ok: false, decisive: true });
    expect(
      checkAgreement({ ...base, profile: 'stress', run: RUN, rateWindowSeconds: 15, stepSeconds: 1 })
        .decisive,
    ).toBe(true);
  });

  it('sums the series at each time and takes the median over the window', () => {
    const series = [
      {
        name: 'a',
        points: [
          [1, 1],
          [2, 10],
          [3, 2],
          [4, null],
        ] as [number, number | null][],
      },
      {
        name: 'b',
        points: [
          [1, 1],
          [2, 0],
          [3, 2],
        ] as [number, number | null][],
      },
    ];
    expect(plateauValue(series, 1, 4)).toBe(4); // sums 2, 10, 4 → median 4
  });

  it('ends a run-only series one window after the run', () => {
    const [clipped] = clipAfter(chart(5, RUN.to), RUN.to + 11);
    expect(clipped.points.filter(([t, v]) => t > RUN.to + 11 && v !== null)).toEqual([]);
    expect(clipped.points.find(([t]) => t === RUN.to + 11)?.[1]).toBe(5);
  });
});

describe('a saturated load generator', () => {
  const summary = (lagMax?: number) => ({
    elevations_per_minute: HEADLINE,
    exitCode: 0,
    thresholds: [{ ok: true }],
    metrics:
      lagMax === undefined
        ? {} // k6 has no runner_event_loop_lag
        : { runner_event_loop_lag: { type: 'gauge', values: { value: 1, min: 0.5, max: lagMax } } },
  });
  const page = (lagMax?: number) =>
    renderHtml({
      title: 't',
      generatedAt: '',
      window: RUN,
      rateWindow: { seconds: 5, reason: '' },
      run: { file: 's.json', load: loadSummaryOf(summary(lagMax), 's.json') },
      sections: [],
      panels: {},
      checks: [],
      traces: { service: '', functions: [], slowest: [] },
      tables: [],
    } as unknown as ReportData);

  it('is named on the page when the runner’s event loop lagged over 10 ms: its latencies include its own delay', () => {
    expect(loadSummaryOf(summary(41), 's.json').generatorLagMs).toBe(41);
    expect(page(41)).toContain("The load generator's event loop lagged up to 41 ms (runner_event_loop_lag)");
    expect(loadSummaryOf(summary(41), 's.json').passed).toBe(true); // the thresholds held all the same
  });

  it('is not, at 10 ms and under, nor for k6’s summaries, which have no such metric', () => {
    expect(loadSummaryOf(summary(10), 's.json').generatorLagMs).toBeNull();
    expect(loadSummaryOf(summary(), 's.json').generatorLagMs).toBeNull();
    expect(page(10)).not.toContain('event loop lagged');
  });
});

describe('trace waterfall', () => {
  const T0 = 1_796_000_000_000_000; // µs since the epoch
  const s = (id: string, op: string, start: number, duration: number, parentId?: string, error = false) =>
    ({ id, parentId, operation: op, startUs: T0 + start, durationUs: duration, error }) as WaterfallSpan;
  const spans = [
    s('d', 'decode', 900, 300, 'b'),
    s('r', 'elevation-api-local-elevation', 0, 2500),
    s('h', '## v1', 50, 2400, 'r'),
    s('b', 'read-block', 400, 1200, 'h', true),
    s('p', 'parse', 60, 120, 'h'),
  ];

  it('orders spans depth-first, children by start, with their depth', () => {
    expect(waterfallRows(spans).map((r) => `${r.depth}:${r.span.operation}`)).toEqual([
      '0:elevation-api-local-elevation',
      '1:## v1',
      '2:parse',
      '2:read-block',
      '3:decode',
    ]);
  });

  it('draws one bar per span, placed and sized in microseconds, errors in red', () => {
    const svg = waterfallSvg('abc', spans);
    const rects = [...svg.matchAll(/<rect x="([\d.]+)" y="[\d.]+" width="([\d.]+)"[^>]*fill="([^"]+)"/g)];
    expect(rects).toHaveLength(5);
    const [root, , parse, read] = rects.map(([, x, w, fill]) => ({ x: Number(x), w: Number(w), fill }));
    // 520 px for 2.5 ms: parse starts at 60 µs (12.5 px in) and lasts 120 µs (25 px)
    expect(parse.x - root.x).toBeCloseTo((60 / 2500) * 520, 0);
    expect(parse.w).toBeCloseTo((120 / 2500) * 520, 0);
    expect(read.fill).toBe('#d62728');
    expect(svg).toContain('0.120 ms');
    expect(svg).toContain('ms since the trace started');
  });

  it('escapes operation names and picks 1-2-5 tick steps', () => {
    expect(waterfallSvg('t', [s('x', '<script>', 0, 10)])).not.toContain('<script>');
    expect(tickStepMs(2.5)).toBe(0.5);
    expect(tickStepMs(240)).toBe(50);
    expect(tickStepMs(9)).toBe(2);
  });
});
