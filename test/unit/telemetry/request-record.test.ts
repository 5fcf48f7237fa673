import { RequestState } from '../../../layers/telemetry/request-telemetry';
import {
  BoundedValues,
  logLevelOf,
  OTHER_VALUE,
  outcomeOf,
  pathTemplateOf,
  requestMetrics,
  wideLogFields,
} from '../../../layers/telemetry/request-record';

function finished(status: number, fill?: (s: RequestState) => void) {
  const state = new RequestState(undefined);
  fill?.(state);
  return {
    route: 'elevation',
    method: 'GET',
    pathTemplate: '/v1/{dataset}',
    status,
    durationMs: 12.3456,
    coldStart: false,
    state,
  };
}

describe('request record', () => {
  it.each([
    [200, '2xx', 'info'],
    [404, '4xx', 'warn'],
    [504, '5xx', 'error'],
  ])('status %p is outcome %p logged at %p', (status, outcome, level) => {
    expect(outcomeOf(status)).toBe(outcome);
    expect(logLevelOf(status)).toBe(level);
  });

  it('writes one wide log line with fields, phases and read stats', async () => {
    const state = new RequestState(undefined);
    state.set({ dataset: 'sample', points: 4, interpolation: 'cubic' });
    await state.phase('parse', () => 1);
    Object.assign(state.stats, {
      blocksRead: 2,
      blockCacheHits: 1,
      blockCacheMisses: 1,
      rangeRequests: 1,
      rangeBytes: 4096,
    });
    state.stats.dataAnswers.ok = 1;
    const fields = wideLogFields({
      route: 'elevation',
      method: 'POST',
      pathTemplate: '/v1/{dataset}',
      status: 200,
      durationMs: 12.3456,
      coldStart: true,
      state,
    });
    expect(fields).toMatchObject({
      route: 'elevation',
      dataset: 'sample',
      points: 4,
      interpolation: 'cubic',
      status: 200,
      durationMs: 12.35,
      blocksRead: 2,
      cacheHits: 1,
      cacheMisses: 1,
      rangeRequests: 1,
      rangeBytes: 4096,
      method: 'POST',
      pathTemplate: '/v1/{dataset}',
      dataAnswers: { ok: 1 },
    });
    // Cold start is Powertools' `cold_start` key of the line, not a second field.
    expect(fields).not.toHaveProperty('coldStart');
    expect(fields.phases).toEqual({ parseMs: expect.any(Number) });
  });

  it('counts points as elevations computed only for answered requests', () => {
    const ok = requestMetrics(finished(200, (s) => s.set({ points: 7 })));
    const bad = requestMetrics(finished(400, (s) => s.set({ points: 7 })));
    expect(ok.find((m) => m.name === 'ElevationsComputed')?.value).toBe(7);
    expect(bad.find((m) => m.name === 'ElevationsComputed')?.value).toBe(0);
    expect(ok.find((m) => m.name === 'PointsPerRequest')).toEqual({
      name: 'PointsPerRequest',
      unit: 'Count',
      value: 7,
    });
  });

  it('counts a 200 without heights (Google’s DATA_NOT_AVAILABLE: answered 0) as no elevations, but its points asked', () => {
    const none = requestMetrics(finished(200, (s) => s.set({ points: 300, answered: 0 })));
    expect(none.find((m) => m.name === 'ElevationsComputed')?.value).toBe(0);
    expect(none.find((m) => m.name === 'PointsPerRequest')?.value).toBe(300);
  });

  it('sends range latency and decode time only when something was read', () => {
    const cached = requestMetrics(finished(200)).map((m) => m.name);
    expect(cached).not.toContain('RangeLatency');
    expect(cached).not.toContain('DecodeTime');
    const read = requestMetrics(
      finished(200, (s) => Object.assign(s.stats, { rangeRequests: 2, rangeMs: 3.333, decodeMs: 1.5 })),
    );
    expect(read).toContainEqual({ name: 'RangeLatency', unit: 'Milliseconds', value: 3.33 });
    expect(read).toContainEqual({ name: 'DecodeTime', unit: 'Milliseconds', value: 1.5 });
    expect(read).toContainEqual({ name: 'RequestLatency', unit: 'Milliseconds', value: 12.35 });
  });
});

describe('metric dimension values', () => {
  it('admits at most its limit of distinct values and maps the rest to "other"', () => {
    const values = new BoundedValues(3);
    expect(['a', 'b', 'c', 'd', 'a', 'e'].map((v) => values.admit(v))).toEqual([
      'a',
      'b',
      'c',
      OTHER_VALUE,
      'a',
      OTHER_VALUE,
    ]);
  });

  it.each([
    ['GET /v1/{dataset}', '/v1/{dataset}'],
    ['ANY /v1/{dataset}', '/v1/{dataset}'],
    ['$default', 'unknown'],
    [undefined, 'unknown'],
  ])('takes the path template of route key %p as %p', (routeKey, template) => {
    expect(pathTemplateOf(routeKey, 'unknown')).toBe(template);
  });
});
