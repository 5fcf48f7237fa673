import { renderDashboards } from '../../../dashboards/build/render';
import { lintDashboard, lintDashboardSet } from '../../../dashboards/check/lint';

type Json = Record<string, any>; // eslint-disable-line @typescript-eslint/no-explicit-any

const generated = (): Json[] => renderDashboards().map((r) => JSON.parse(r.text) as Json);
const api = (): Json => {
  const d = generated().find((x) => x.uid === 'elevation-api');
  if (!d) throw new Error('elevation-api dashboard missing');
  return d;
};
const panelByTitle = (d: Json, title: string): Json =>
  (d.panels as Json[]).find((p) => p.title === title) as Json;
const rules = (d: Json, catalogue?: string): string[] =>
  lintDashboard(d, { metricCatalogue: catalogue }).map((p) => p.rule);

describe('dashboard lint rules', () => {
  it('passes the generated dashboards', () => {
    expect(lintDashboardSet(generated())).toEqual([]);
  });

  it('fails a panel without a unit', () => {
    const d = api();
    delete panelByTitle(d, 'Host memory used').fieldConfig.defaults.unit;
    expect(rules(d)).toEqual(['unit']);
  });

  it('fails a datasource referenced by name instead of the datasource variable', () => {
    const d = api();
    panelByTitle(d, 'Host CPU busy').datasource = 'Prometheus';
    expect(rules(d)).toContain('datasource-uid');
  });

  it('fails a target pinned to a fixed uid, which a hand import into another Grafana cannot resolve', () => {
    const d = api();
    panelByTitle(d, 'Host CPU busy').targets[0].datasource = { type: 'prometheus', uid: 'prometheus' };
    expect(rules(d)).toEqual(['datasource-uid']);
  });

  it('fails ${DS_PROMETHEUS} without its datasource variable, or one defaulting to an unprovisioned uid', () => {
    const d = api();
    const list = d.templating.list as Json[];
    const variable = list.find((v) => v.name === 'DS_PROMETHEUS') as Json;
    expect(variable).toMatchObject({
      type: 'datasource',
      query: 'prometheus',
      current: { value: 'prometheus' },
    });
    variable.current.value = 'some-uid';
    expect(rules(d)).toEqual(['datasource-variable']);
    d.templating.list = list.filter((v) => v.name !== 'DS_PROMETHEUS');
    expect(rules(d)).toEqual(['datasource-variable']);
  });

  it('shows time in UTC and colours series by name in every generated dashboard', () => {
    for (const d of generated()) {
      expect(d.timezone).toBe('utc');
      for (const p of (d.panels as Json[]).filter((x) => x.type === 'timeseries'))
        expect(p.fieldConfig.defaults.color).toEqual({ mode: 'palette-classic-by-name' });
    }
  });

  it('fails missing or unreadable uids and empty titles', () => {
    const d = api();
    d.uid = 'Elevation API!';
    d.title = ' ';
    panelByTitle(d, 'Cold starts since the start of the range (count)').title = '';
    expect(rules(d)).toEqual(expect.arrayContaining(['uid', 'title']));
    expect(rules(d).filter((r) => r === 'title')).toHaveLength(2);
  });

  it('fails two dashboards with the same uid', () => {
    const [a, b] = generated();
    b.uid = a.uid;
    expect(lintDashboardSet([a, b]).map((p) => p.rule)).toContain('uid-unique');
  });

  it('fails duplicate panel ids', () => {
    const d = api();
    d.panels[2].id = d.panels[1].id;
    expect(rules(d)).toContain('panel-id');
  });

  it('fails a fixed range where $__rate_interval belongs', () => {
    const d = api();
    const t = panelByTitle(d, 'Range bytes per second').targets[0];
    t.expr = t.expr.replace('$__rate_interval', '5m');
    expect(rules(d)).toEqual(['rate-interval']);
  });

  it('fails a latency panel whose SLO line was dropped', () => {
    const d = api();
    panelByTitle(d, 'Request latency p50 / p95 / p99').fieldConfig.defaults.custom.thresholdsStyle.mode =
      'off';
    expect(rules(d)).toEqual(['slo-line']);
  });

  it('checks metric names against the catalogue, leaving external families alone', () => {
    const catalogue = [
      'elevation_api_elevations_computed_total',
      'elevation_api_requests_total',
      'elevation_api_request_latency_seconds',
      'elevation_api_points_per_request',
      'elevation_api_block_cache_hits_total',
      'elevation_api_block_cache_misses_total',
      'elevation_api_range_requests_total',
      'elevation_api_range_bytes_total',
      'elevation_api_range_latency_seconds',
      'elevation_api_decode_seconds',
      'elevation_api_data_source_answers_total',
      'elevation_stack_process_cpu_seconds_total',
      'elevation_stack_process_resident_memory_bytes',
      'elevation_api_runtime_event_loop_delay_p99_seconds',
      'elevation_api_runtime_event_loop_delay_p50_seconds',
      'elevation_api_runtime_gc_pause_seconds_total',
      'elevation_api_runtime_heap_used_bytes',
      'elevation_api_runtime_heap_limit_bytes',
      'elevation_api_runtime_block_cache_bytes',
    ].join('\n');
    const problems = lintDashboard(api(), { metricCatalogue: catalogue });
    expect(problems.map((p) => p.message)).toEqual([
      'metric elevation_api_cold_starts_total is not in docs/metrics.md',
    ]);
  });
});
