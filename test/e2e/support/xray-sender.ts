/**
 * A synthetic X-Ray SDK for load: traces shaped like the API's offline (the root function segment with the
 * handler subtree and its subsegments embedded, one daemon datagram per trace), sent over UDP at a fixed rate.
 */
import { randomBytes } from 'node:crypto';
import { createSocket } from 'node:dgram';

const HEADER = '{"format":"json","version":1}\n';
const CHILDREN = ['parse', 'resolve-tiles', 'sample', 'read-block', 'decode', 'read-block'];
/** Spans per synthetic trace: the root, the handler subsegment and its children. */
export const SPANS_PER_TRACE = 2 + CHILDREN.length;

const hex = (bytes: number) => randomBytes(bytes).toString('hex');

export function traceDatagrams(nowMs: number): { traceId: string; datagrams: string[] } {
  const seconds = nowMs / 1000;
  const traceId = `1-${Math.floor(seconds).toString(16).padStart(8, '0')}-${hex(12)}`;
  const rootId = hex(8);
  const handler = {
    name: '## v1',
    id: hex(8),
    trace_id: traceId,
    parent_id: rootId,
    type: 'subsegment',
    start_time: seconds,
    end_time: seconds + 0.004,
    annotations: { dataset: 'synthetic', points: 3 },
    subsegments: CHILDREN.map((name, i) => ({
      name,
      id: hex(8),
      start_time: seconds + i * 0.0005,
      end_time: seconds + (i + 1) * 0.0005,
    })),
  };
  const root = {
    name: 'elevation-api-load-elevation',
    id: rootId,
    trace_id: traceId,
    start_time: seconds,
    end_time: seconds + 0.005,
    origin: 'AWS::Lambda::Function',
    http: { request: { method: 'GET', url: '/v1/synthetic' }, response: { status: 200 } },
  };
  return { traceId, datagrams: [HEADER + JSON.stringify({ ...root, subsegments: [handler] })] };
}

export interface SendResult {
  traces: number;
  spans: number;
  /** Every 1000th trace id (Jaeger id form), for completeness checks. */
  sampleIds: string[];
  sendErrors: number;
  /**
   * The most traces sent in one tick: after a stall of the sending process (a starved host) it catches up in a
   * burst, which a UDP receive buffer of ~200 KB (Linux's default) cannot hold. Printed with the test's result, to
   * tell a burst from a collector that stopped reading.
   */
  maxBurst: number;
  /** The longest gap between two ticks, in ms (10 when the sender is never starved). */
  maxTickGapMs: number;
}

/** Sends `perSecond` traces per second for `seconds` s to 127.0.0.1:port, in 10 ms ticks. */
export async function sendTraces(port: number, perSecond: number, seconds: number): Promise<SendResult> {
  const socket = createSocket('udp4');
  await new Promise<void>((resolve) => socket.bind(0, '127.0.0.1', resolve));
  const total = perSecond * seconds;
  const result: SendResult = {
    traces: 0,
    spans: 0,
    sampleIds: [],
    sendErrors: 0,
    maxBurst: 0,
    maxTickGapMs: 0,
  };
  const started = Date.now();
  let pending = 0;
  let lastTick = started;
  while (result.traces < total) {
    const now = Date.now();
    result.maxTickGapMs = Math.max(result.maxTickGapMs, now - lastTick);
    lastTick = now;
    // Catch up to where the schedule says we should be (never ahead of it).
    const due = Math.min(total, Math.floor(((now - started) / 1000) * perSecond));
    result.maxBurst = Math.max(result.maxBurst, due - result.traces);
    while (result.traces < due) {
      const { traceId, datagrams } = traceDatagrams(Date.now());
      for (const datagram of datagrams) {
        pending++;
        socket.send(datagram, port, '127.0.0.1', (error) => {
          pending--;
          if (error) result.sendErrors++;
        });
      }
      if (result.traces % 1000 === 0) result.sampleIds.push(traceId.replace(/^1-/, '').replace('-', ''));
      result.traces++;
      result.spans += SPANS_PER_TRACE;
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  while (pending > 0) await new Promise((r) => setTimeout(r, 10));
  socket.close();
  return result;
}

/** Resident set size of a process in MiB (Linux /proc), or NaN when it is gone. */
export function rssMiB(pid: number, read: (file: string) => string): number {
  try {
    const kb = /VmRSS:\s+(\d+) kB/.exec(read(`/proc/${pid}/status`))?.[1];
    return kb === undefined ? NaN : Number(kb) / 1024;
  } catch {
    return NaN;
  }
}

/** Sum of a Prometheus text-format metric over all its series (`name` or `name_total`). */
export function metricSum(text: string, name: string): number {
  let sum = 0;
  const pattern = new RegExp(`^${name}(?:_total)?(?:\\{[^}]*\\})? (\\S+)$`, 'gm');
  for (const match of text.matchAll(pattern)) sum += Number(match[1]);
  return sum;
}
