import { allPanels, dashboards, interpolate, panelsOf, rateIntervalFor } from '../../../dashboards/queries';
import { metricNames } from '../../../dashboards/check/promql-metrics';

describe('panel catalogue (the one source of truth for dashboards, report and live check)', () => {
  const panels = allPanels().map((p) => p.panel);

  it('gives every panel a unique readable key, a title, a description and a unit', () => {
    const keys = panels.map((p) => p.key);
    expect(new Set(keys).size).toBe(keys.length);
    for (const p of panels) {
      expect(p.key).toMatch(/^[a-z0-9-]+$/);
      expect(p.title.trim()).not.toBe('');
      expect(p.description.trim()).not.toBe('');
      expect(p.unit.trim()).not.toBe('');
    }
  });

  it('uses $__rate_interval for every range, the per-minute headlines included (a fixed 1m misreads short runs)', () => {
    const fixedRanges = panels.flatMap((p) =>
      p.datasource !== 'prometheus'
        ? []
        : p.queries
            .flatMap((q) => [...q.expr.matchAll(/\[([^\]]+)\]/g)].map((m) => m[1]))
            .filter((r) => r !== '$__rate_interval'),
    );
    expect(fixedRanges).toEqual([]);
  });

  it('has the issue’s headline and SLO panels', () => {
    const byKey = new Map(panels.map((p) => [p.key, p]));
    const headline = byKey.get('api-elevations-per-minute');
    expect(headline?.datasource === 'prometheus' && headline.queries[0].expr).toBe(
      'sum(rate(elevation_api_elevations_computed_total{dataset=~"$dataset"}[$__rate_interval])) * 60',
    );
    expect(byKey.get('api-latency-percentiles')).toMatchObject({ unit: 's', slo: { value: 0.2 } });
    expect(byKey.get('api-error-ratio')).toMatchObject({ unit: 'percentunit', slo: { value: 0.01 } });
    expect(byKey.get('load-http-req-duration')).toMatchObject({ slo: { value: 0.2 } });
    // Counts are whole numbers: cold starts counted from the range's start, not an extrapolated increase().
    const coldStarts = byKey.get('api-cold-starts');
    expect(coldStarts).toMatchObject({ decimals: 0 });
    expect(coldStarts?.datasource === 'prometheus' && coldStarts.queries[0].expr).toMatch(/@ start\(\)/);
    expect(coldStarts?.datasource === 'prometheus' && coldStarts.queries[0].expr).not.toMatch(
      /increase|rate/,
    );
  });

  it('puts every load-test query behind the testid variable so runs can be compared', () => {
    const load = dashboards.find((d) => d.uid === 'load-test');
    expect(load?.variables.map((v) => v.name)).toEqual(['testid']);
    for (const p of load ? panelsOf(load) : []) {
      if (p.datasource !== 'prometheus') continue;
      for (const q of p.queries) expect(q.expr).toContain('testid=~"$testid"');
    }
  });

  it('substitutes variables and $__rate_interval the way Grafana does', () => {
    const load = dashboards.find((d) => d.uid === 'load-test');
    if (!load) throw new Error('load-test dashboard missing');
    expect(interpolate('x{testid=~"$testid"}[$__rate_interval]', load, { __rate_interval: '60s' })).toBe(
      'x{testid=~".*"}[60s]',
    );
    expect(interpolate('${testid}', load, { testid: 'run-1' })).toBe('run-1');
    expect(interpolate('$unknown', load, {})).toBe('$unknown');
    expect(rateIntervalFor(1)).toBe('20s'); // 4 × the stack's 5 s scrape interval
    expect(rateIntervalFor(15)).toBe('20s');
    expect(rateIntervalFor(120, 15)).toBe('135s');
  });
});

describe('metricNames', () => {
  it('finds metric names and ignores functions, labels, keywords and ranges', () => {
    expect(
      metricNames(
        'sum by (le, route) (rate(a_bucket{x="y",route=~"/v1/.*"}[5m])) / ((sum(rate(b_total[1m]))) or (c * 0))',
      ).sort(),
    ).toEqual(['a_bucket', 'b_total', 'c']);
  });
});
