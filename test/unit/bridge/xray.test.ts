import { TraceAssembler, type AssemblerOptions } from '../../../stack/bridge/trace-assembler';
import { otlpTraceId, parseDatagram, secondsToNanos, type BridgeSpan } from '../../../stack/bridge/xray';
import { recordedDatagrams } from './recorded';

const HEADER = '{"format":"json","version":1}\n';

function allSpans(): BridgeSpan[] {
  return recordedDatagrams().flatMap((d) => {
    const parsed = parseDatagram(d);
    if (!parsed.ok) throw new Error(parsed.reason);
    return parsed.spans;
  });
}

const attr = (span: BridgeSpan | undefined, key: string): unknown => {
  const value = span?.attributes.find((a) => a.key === key)?.value;
  return value && (value.stringValue ?? value.intValue ?? value.doubleValue ?? value.boolValue);
};

describe('X-Ray segment documents to OTLP spans', () => {
  it('converts X-Ray trace ids to 32 hex and rejects other shapes', () => {
    expect(otlpTraceId('1-5759e988-bd862e3fe1be46a994272793')).toBe('5759e988bd862e3fe1be46a994272793');
    expect(otlpTraceId('1-5759e988-bd86')).toBeUndefined();
    expect(otlpTraceId('Root=1-5759e988-bd862e3fe1be46a994272793')).toBeUndefined();
  });

  it('converts float seconds to integer nanoseconds at microsecond precision', () => {
    expect(secondsToNanos(1795982749.342)).toBe('1795982749342000000');
    expect(secondsToNanos(0.000001)).toBe('1000');
  });

  it('turns the recorded datagrams into one rooted tree per trace', () => {
    const spans = allSpans();
    const traces = new Set(spans.map((s) => s.traceId));
    expect(traces.size).toBe(3);
    for (const traceId of traces) {
      const inTrace = spans.filter((s) => s.traceId === traceId);
      const roots = inTrace.filter((s) => s.isRoot);
      expect(roots).toHaveLength(1);
      const ids = new Set(inTrace.map((s) => s.spanId));
      // Every non-root span hangs off a span of the same trace: the tree is complete.
      for (const span of inTrace.filter((s) => !s.isRoot))
        expect(ids.has(span.parentSpanId ?? '')).toBe(true);
    }
  });

  it('keeps annotations as attributes and maps http, errors and faults', () => {
    const spans = allSpans();
    const block = spans.find((s) => s.name === 'read-block');
    expect(attr(block, 'block')).toMatch(/^[78]$/);
    expect(attr(block, 'cacheHit')).toBe(false);
    expect(attr(block, 'file')).toBe('sample/stuttgart.tif');
    const handler = spans.find(
      (s) => s.name === '## elevation' && s.attributes.some((a) => a.key === 'points'),
    );
    expect(attr(handler, 'points')).toBe('3');
    expect(attr(handler, 'interpolation')).toBe('bilinear');
    const root = spans.find((s) => s.isRoot && attr(s, 'http.response.status_code') === '200');
    expect(root).toMatchObject({ name: 'elevation-api-dev-elevation', kind: 2, status: { code: 0 } });
    expect(attr(root, 'http.request.method')).toBe('POST');
    const failed = spans.find((s) => s.name === '## legacy');
    expect(failed?.status).toEqual({ code: 2, message: 'fault: recorded failure' });
    expect(attr(failed, 'exception.message')).toBe('recorded failure');
  });

  it('flattens embedded subsegments under their container', () => {
    const doc = {
      name: 'fn',
      id: 'aaaaaaaaaaaaaaaa',
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      start_time: 1,
      end_time: 2,
      subsegments: [
        { name: 'child', id: 'bbbbbbbbbbbbbbbb', start_time: 1.5, end_time: 1.7, namespace: 'remote' },
      ],
    };
    const parsed = parseDatagram(HEADER + JSON.stringify(doc));
    expect(parsed.ok && parsed.spans.map((s) => [s.name, s.parentSpanId, s.kind])).toEqual([
      ['fn', undefined, 2],
      ['child', 'aaaaaaaaaaaaaaaa', 3],
    ]);
  });

  it.each([
    ['no header', '{"id":"x"}'],
    ['wrong header', '{"format":"xml","version":1}\n{}'],
    ['bad JSON', `${HEADER}{"id":`],
    ['bad trace id', `${HEADER}{"name":"a","id":"aaaaaaaaaaaaaaaa","trace_id":"nope","start_time":1}`],
  ])('rejects %s', (_case, datagram) => {
    expect(parseDatagram(datagram).ok).toBe(false);
  });
});

describe('trace assembly', () => {
  const options: AssemblerOptions = {
    settleMs: 100,
    maxHoldMs: 1000,
    maxTraces: 2,
    maxSpansPerTrace: 50,
    defaultService: 'xray',
  };

  it('releases a trace with the root segment name as service once the root has settled', () => {
    const released: [string, number][] = [];
    const assembler = new TraceAssembler((service, spans) => released.push([service, spans.length]), {
      ...options,
      maxTraces: 10,
    });
    // Recorded order: the root arrives before some of its subsegments.
    assembler.add(allSpans(), 0);
    assembler.tick(50);
    expect(released).toEqual([]);
    assembler.tick(200);
    expect(released).toEqual([
      ['elevation-api-dev-elevation', 7],
      ['elevation-api-dev-elevation', 2],
      ['elevation-api-dev-elevation', 2],
    ]);
  });

  it('names a rootless trace after the Service annotation when the hold time ends', () => {
    const released: string[] = [];
    const assembler = new TraceAssembler((service) => released.push(service), options);
    assembler.add(
      allSpans().filter((s) => !s.isRoot && s.name === '## legacy'),
      0,
    );
    assembler.tick(999);
    expect(released).toEqual([]);
    assembler.tick(1000);
    expect(released).toEqual(['elevation-api']);
  });

  it('prefers the completed document over an in-progress one of the same span', () => {
    const base = {
      name: 'fn',
      id: 'aaaaaaaaaaaaaaaa',
      trace_id: '1-5759e988-bd862e3fe1be46a994272793',
      start_time: 1,
    };
    const parse = (doc: object): BridgeSpan[] => {
      const r = parseDatagram(HEADER + JSON.stringify(doc));
      return r.ok ? r.spans : [];
    };
    let out: BridgeSpan[] = [];
    const assembler = new TraceAssembler((_s, spans) => (out = spans), options);
    assembler.add(parse({ ...base, end_time: 3 }), 0);
    assembler.add(parse({ ...base, in_progress: true }), 10);
    assembler.tick(500);
    expect(out).toHaveLength(1);
    expect(out[0]).toMatchObject({ inProgress: false, endTimeUnixNano: '3000000000' });
  });

  it('releases the oldest trace early instead of growing past maxTraces', () => {
    const released: string[] = [];
    const assembler = new TraceAssembler((_s, spans) => released.push(spans[0].traceId), options);
    const roots = allSpans().filter((s) => s.isRoot);
    assembler.add(roots, 0);
    expect(assembler.pendingTraces).toBe(2);
    expect(released).toEqual([roots[0].traceId]);
  });
});
