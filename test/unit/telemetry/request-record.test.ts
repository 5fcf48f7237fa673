import { RequestState } from '../../../layers/telemetry/request-telemetry';
import {
  logLevelOf,
  outcomeOf,
  requestMetrics,
  wideLogFields,
} from '../../../layers/telemetry/request-record';

function finished(status: number, fill?: (s: RequestState) => void) {
  const state = new RequestState(undefined);
  fill?.(state);
  return { route: 'elevation', status, durationMs: 12.3456, coldStart: false, state };
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
    const fields = wideLogFields({
      route: 'elevation',
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
      coldStart: true,
    });
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
