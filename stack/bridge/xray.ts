/**
 * X-Ray daemon protocol → OTLP spans. A datagram is `{"format":"json","version":1}\n<segment JSON>`;
 * the document is a segment or an independently sent subsegment (`type: "subsegment"`), either of
 * which may embed further subsegments. Pure: no sockets here.
 */
import { otlpAttributes, type OtlpKeyValue } from './otlp-attributes';

export interface BridgeSpan {
  traceId: string; // 32 hex
  spanId: string; // 16 hex
  parentSpanId?: string;
  name: string;
  kind: number;
  startTimeUnixNano: string;
  endTimeUnixNano: string;
  attributes: OtlpKeyValue[];
  status: { code: number; message?: string };
  /** A segment without parent: its name is the trace's service name. */
  isRoot: boolean;
  inProgress: boolean;
  serviceHint?: string;
}

export type XrayParseResult = { ok: true; spans: BridgeSpan[] } | { ok: false; reason: string };

const HEADER = '{"format":"json","version":1}';
const SPAN_KIND = { internal: 1, server: 2, client: 3 } as const;
const STATUS = { unset: 0, error: 2 } as const;

/** `1-5759e988-bd862e3fe1be46a994272793` → `5759e988bd862e3fe1be46a994272793`. */
export function otlpTraceId(xrayTraceId: string): string | undefined {
  const m = /^1-([0-9a-f]{8})-([0-9a-f]{24})$/i.exec(xrayTraceId);
  return m ? (m[1] + m[2]).toLowerCase() : undefined;
}

export function parseDatagram(datagram: string): XrayParseResult {
  const newline = datagram.indexOf('\n');
  if (newline < 0) return { ok: false, reason: 'no header line' };
  let header: unknown;
  let doc: unknown;
  try {
    header = JSON.parse(datagram.slice(0, newline));
    doc = JSON.parse(datagram.slice(newline + 1));
  } catch {
    return { ok: false, reason: 'invalid JSON' };
  }
  if (JSON.stringify(header) !== HEADER) return { ok: false, reason: 'unsupported header' };
  const spans: BridgeSpan[] = [];
  const reason = convert(doc, undefined, undefined, spans);
  return reason === undefined ? { ok: true, spans } : { ok: false, reason };
}

type Doc = Record<string, unknown>;

function isDoc(value: unknown): value is Doc {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/** Converts `doc` and its embedded subsegments; returns a reason when the document is unusable. */
function convert(
  doc: unknown,
  traceId: string | undefined,
  parentId: string | undefined,
  out: BridgeSpan[],
): string | undefined {
  if (!isDoc(doc)) return 'segment is not an object';
  const tid = traceId ?? (typeof doc.trace_id === 'string' ? otlpTraceId(doc.trace_id) : undefined);
  if (!tid) return 'missing or invalid trace_id';
  if (typeof doc.id !== 'string' || !/^[0-9a-f]{16}$/i.test(doc.id)) return 'missing or invalid id';
  if (typeof doc.name !== 'string' || typeof doc.start_time !== 'number') return 'missing name or start_time';
  const parent = parentId ?? (typeof doc.parent_id === 'string' ? doc.parent_id : undefined);
  const inProgress = doc.in_progress === true || typeof doc.end_time !== 'number';
  const isSegment = doc.type !== 'subsegment' && traceId === undefined;
  out.push({
    traceId: tid,
    spanId: doc.id.toLowerCase(),
    parentSpanId: parent?.toLowerCase(),
    name: doc.name,
    kind: isSegment
      ? SPAN_KIND.server
      : doc.namespace === 'remote' || doc.namespace === 'aws'
        ? SPAN_KIND.client
        : SPAN_KIND.internal,
    startTimeUnixNano: secondsToNanos(doc.start_time),
    endTimeUnixNano: secondsToNanos(inProgress ? doc.start_time : (doc.end_time as number)),
    attributes: otlpAttributes(doc, inProgress),
    status: statusOf(doc),
    isRoot: isSegment && parent === undefined,
    inProgress,
    serviceHint: serviceHint(doc),
  });
  if (Array.isArray(doc.subsegments)) {
    for (const child of doc.subsegments) {
      const reason = convert(child, tid, doc.id, out);
      if (reason) return reason;
    }
  }
  return undefined;
}

/** X-Ray times are float seconds; keep microseconds exactly (float ms precision is ~1 µs anyway). */
export function secondsToNanos(seconds: number): string {
  return (BigInt(Math.round(seconds * 1e6)) * 1000n).toString();
}

function statusOf(doc: Doc): { code: number; message?: string } {
  if (doc.fault !== true && doc.error !== true && doc.throttle !== true) return { code: STATUS.unset };
  const cause = isDoc(doc.cause) && Array.isArray(doc.cause.exceptions) ? doc.cause.exceptions[0] : undefined;
  const flag = doc.fault === true ? 'fault' : doc.throttle === true ? 'throttle' : 'error';
  const message = isDoc(cause) && typeof cause.message === 'string' ? `${flag}: ${cause.message}` : flag;
  return { code: STATUS.error, message };
}

/** Powertools annotates the handler subsegment with `Service`; used when the root never arrives. */
function serviceHint(doc: Doc): string | undefined {
  const service = isDoc(doc.annotations) ? doc.annotations.Service : undefined;
  return typeof service === 'string' ? service : undefined;
}
