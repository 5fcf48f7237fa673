import { summarizeTrace, type JaegerSpan, type JaegerTrace } from '../../../dashboards/live/jaeger';
import { legendFor } from '../../../dashboards/live/prometheus';
import { stepFor } from '../../../dashboards/live/run-panels';
import { parseTime, windowOfRun } from '../../../dashboards/live/window';

const span = (
  spanID: string,
  op: string,
  startMs: number,
  durationMs: number,
  parent?: string,
): JaegerSpan => ({
  traceID: 't1',
  spanID,
  operationName: op,
  references: parent ? [{ refType: 'CHILD_OF', spanID: parent }] : [],
  startTime: 1_700_000_000_000_000 + startMs * 1000,
  duration: durationMs * 1000,
  processID: 'p1',
});

describe('trace span breakdown', () => {
  // handler 0–100 ms: parse 0–5, two overlapping read-block 10–60 and 40–80, decode 80–95 inside the handler
  const trace: JaegerTrace = {
    traceID: 't1',
    processes: { p1: { serviceName: 'elevation-api-local-elevation' } },
    spans: [
      span('root', 'elevation-api-local-elevation', 0, 100),
      span('a', 'parse', 0, 5, 'root'),
      span('b', 'read-block', 10, 50, 'root'),
      span('c', 'read-block', 40, 40, 'root'),
      span('d', 'decode', 80, 15, 'root'),
    ],
  };

  it('names the root operation and service and measures the whole trace', () => {
    expect(summarizeTrace(trace)).toMatchObject({
      traceID: 't1',
      service: 'elevation-api-local-elevation',
      rootOperation: 'elevation-api-local-elevation',
      durationMs: 100,
      spanCount: 5,
      start: 1_700_000_000_000,
    });
  });

  it('gives self time without double counting overlapping children, largest first', () => {
    const byOp = Object.fromEntries(summarizeTrace(trace).breakdown.map((b) => [b.operation, b]));
    // children cover 0–5 and 10–95 (the two reads overlap): 90 ms of the root's 100 ms
    expect(byOp['elevation-api-local-elevation']).toMatchObject({ count: 1, totalMs: 100, selfMs: 10 });
    expect(byOp['read-block']).toMatchObject({ count: 2, totalMs: 90, selfMs: 90 });
    expect(byOp.decode).toMatchObject({ totalMs: 15, selfMs: 15 });
    expect(summarizeTrace(trace).breakdown[0].operation).toBe('read-block');
  });

  // Summed over concurrent spans, self time can exceed the trace (a 27-ms trace listed read-block with 43 ms self);
  // the wall-clock figure is the time at least one span of the operation ran with no child of its own running.
  it('gives each operation’s self time on the wall clock too, never longer than the trace', () => {
    const byOp = Object.fromEntries(summarizeTrace(trace).breakdown.map((b) => [b.operation, b]));
    expect(byOp['read-block']).toMatchObject({ selfMs: 90, selfWallMs: 70 }); // 10–60 ∪ 40–80
    expect(byOp['elevation-api-local-elevation']).toMatchObject({ selfMs: 10, selfWallMs: 10 });
    expect(byOp.decode).toMatchObject({ selfWallMs: 15 });
    const parallel: JaegerTrace = {
      ...trace,
      spans: [
        span('root', 'elevation-api-local-elevation', 0, 27),
        ...[0, 1, 2, 3].map((i) => span(`r${i}`, 'read-block', 2 + i, 11, 'root')),
      ],
    };
    const reads = summarizeTrace(parallel).breakdown.find((b) => b.operation === 'read-block');
    expect(reads?.selfMs).toBe(44);
    expect(reads?.selfWallMs).toBe(14);
  });
});

describe('time windows and Grafana-style substitutions', () => {
  it('reads ISO, unix seconds and now-relative times', () => {
    const now = Date.parse('2026-01-01T00:10:00Z');
    expect(parseTime('2026-01-01T00:00:00Z', now)).toBe(now / 1000 - 600);
    expect(parseTime('1767225600', now)).toBe(1767225600);
    expect(parseTime('now-15m', now)).toBe(now / 1000 - 900);
    expect(parseTime('now', now)).toBe(now / 1000);
    expect(() => parseTime('yesterday', now)).toThrow(/cannot read time/);
  });

  it('takes a run’s window from the runner summary, padded for the rate window', () => {
    expect(windowOfRun({ startedAt: '2026-01-01T00:00:00Z', executionSeconds: 60 }, 30)).toEqual({
      from: 1767225600 - 30,
      to: 1767225600 + 90,
    });
    expect(() => windowOfRun({ testid: 'x' }, 30)).toThrow(/--from and --to/);
  });

  it('keeps about 300 points per chart and formats legends like Grafana', () => {
    expect(stepFor({ from: 0, to: 60 })).toBe(1);
    expect(stepFor({ from: 0, to: 3600 })).toBe(12);
    expect(legendFor('{{route}} {{outcome}}', { route: '/v1/{dataset}', outcome: '2xx' })).toBe(
      '/v1/{dataset} 2xx',
    );
    expect(legendFor('{{missing}}', { a: 'b' })).toBe('{"a":"b"}');
  });
});
