// Jaeger query API (/api/traces, the HTTP JSON API Grafana's Jaeger datasource also uses), plus a
// span breakdown per trace: where the time went, by operation, with self time.

export interface JaegerSpan {
  traceID: string;
  spanID: string;
  operationName: string;
  references?: { refType: string; spanID: string }[];
  /** Microseconds since the epoch. */
  startTime: number;
  /** Microseconds. */
  duration: number;
  processID: string;
  tags?: { key: string; value: unknown }[];
}

export interface JaegerTrace {
  traceID: string;
  spans: JaegerSpan[];
  processes: Record<string, { serviceName: string }>;
}

export interface TraceSearchQuery {
  service: string;
  operation?: string;
  minDuration?: string;
  limit: number;
  /** Unix seconds. */
  start: number;
  end: number;
}

const getJson = async <T>(url: URL): Promise<T> => {
  const res = await fetch(url, { signal: AbortSignal.timeout(15_000) });
  if (!res.ok) throw new Error(`Jaeger ${url.pathname}: HTTP ${res.status}`);
  return (await res.json()) as T;
};

export const listServices = async (baseUrl: string): Promise<string[]> =>
  (await getJson<{ data: string[] | null }>(new URL('/api/services', baseUrl))).data ?? [];

export const searchTraces = async (baseUrl: string, q: TraceSearchQuery): Promise<JaegerTrace[]> => {
  const url = new URL('/api/traces', baseUrl);
  url.searchParams.set('service', q.service);
  if (q.operation) url.searchParams.set('operation', q.operation);
  if (q.minDuration) url.searchParams.set('minDuration', q.minDuration);
  url.searchParams.set('limit', String(q.limit));
  url.searchParams.set('start', String(Math.floor(q.start * 1e6)));
  url.searchParams.set('end', String(Math.ceil(q.end * 1e6)));
  return (await getJson<{ data: JaegerTrace[] | null }>(url)).data ?? [];
};

/** Server-span operations of a service: one per Lambda function (the root segment is named after the function). */
export const listServerOperations = async (baseUrl: string, service: string): Promise<string[]> => {
  const url = new URL('/api/operations', baseUrl);
  url.searchParams.set('service', service);
  url.searchParams.set('spanKind', 'server');
  const data = (await getJson<{ data: { name: string }[] | null }>(url)).data ?? [];
  return [...new Set(data.map((o) => o.name))].sort();
};

/** One span as the report's waterfall draws it (times in microseconds, as Jaeger keeps them). */
export interface WaterfallSpan {
  id: string;
  parentId?: string;
  operation: string;
  startUs: number;
  durationUs: number;
  error: boolean;
}

const isErrorSpan = (s: JaegerSpan): boolean =>
  (s.tags ?? []).some(
    (t) => (t.key === 'error' && t.value === true) || (t.key === 'otel.status_code' && t.value === 'ERROR'),
  );

export const waterfallSpans = (trace: JaegerTrace): WaterfallSpan[] =>
  trace.spans.map((s) => ({
    id: s.spanID,
    parentId: s.references?.find((r) => r.refType === 'CHILD_OF')?.spanID,
    operation: s.operationName,
    startUs: s.startTime,
    durationUs: s.duration,
    error: isErrorSpan(s),
  }));

export interface OperationTime {
  operation: string;
  count: number;
  /** Summed over its spans: concurrent spans each count, so it can exceed the trace. */
  totalMs: number;
  /** Time in spans of this operation not covered by their child spans, summed over its spans as totalMs. */
  selfMs: number;
  /**
   * Wall-clock self time: how long at least one span of this operation ran with none of its own children running.
   * Never longer than the trace; selfMs summed four parallel reads of a 27-ms trace to 43 ms.
   */
  selfWallMs: number;
}

export interface TraceSummary {
  traceID: string;
  service: string;
  rootOperation: string;
  /** Unix milliseconds. */
  start: number;
  durationMs: number;
  spanCount: number;
  breakdown: OperationTime[];
  /** The handler span's name (`## v1`): the route, beside the function that is the root. */
  route: string;
  /** Whether any span of the trace is an error (a 5xx, a failed read). */
  error: boolean;
  /** Every span, for the waterfall (kept only for the traces the report draws). */
  spans?: WaterfallSpan[];
}

/** The union of [start, end) intervals clipped to [lo, hi), as disjoint intervals in order. */
const union = (intervals: [number, number][], lo: number, hi: number): [number, number][] => {
  const clipped = intervals
    .map(([a, b]) => [Math.max(a, lo), Math.min(b, hi)] as [number, number])
    .filter(([a, b]) => b > a);
  clipped.sort((x, y) => x[0] - y[0]);
  const out: [number, number][] = [];
  for (const [a, b] of clipped) {
    const last = out.at(-1);
    if (last && a <= last[1]) last[1] = Math.max(last[1], b);
    else out.push([a, b]);
  }
  return out;
};

const lengthOf = (intervals: [number, number][]): number => intervals.reduce((n, [a, b]) => n + b - a, 0);

/** [lo, hi) without the union of `covered`: a span's own time, outside its children. */
const uncovered = (covered: [number, number][], lo: number, hi: number): [number, number][] => {
  const out: [number, number][] = [];
  let from = lo;
  for (const [a, b] of union(covered, lo, hi)) {
    if (a > from) out.push([from, a]);
    from = b;
  }
  if (hi > from) out.push([from, hi]);
  return out;
};

export const summarizeTrace = (trace: JaegerTrace): TraceSummary => {
  const ids = new Set(trace.spans.map((s) => s.spanID));
  const parentOf = (s: JaegerSpan): string | undefined =>
    s.references?.find((r) => r.refType === 'CHILD_OF' && ids.has(r.spanID))?.spanID;
  const children = new Map<string, JaegerSpan[]>();
  for (const s of trace.spans) {
    const p = parentOf(s);
    if (p) children.set(p, [...(children.get(p) ?? []), s]);
  }
  const roots = trace.spans.filter((s) => !parentOf(s));
  const root = roots.reduce<JaegerSpan | undefined>(
    (a, s) => (!a || s.duration > a.duration ? s : a),
    undefined,
  );
  const start = Math.min(...trace.spans.map((s) => s.startTime));
  const end = Math.max(...trace.spans.map((s) => s.startTime + s.duration));
  const byOp = new Map<string, OperationTime>();
  const selfIntervals = new Map<string, [number, number][]>();
  for (const s of trace.spans) {
    const kids = (children.get(s.spanID) ?? []).map(
      (c) => [c.startTime, c.startTime + c.duration] as [number, number],
    );
    const own = uncovered(kids, s.startTime, s.startTime + s.duration);
    const op = byOp.get(s.operationName) ?? {
      operation: s.operationName,
      count: 0,
      totalMs: 0,
      selfMs: 0,
      selfWallMs: 0,
    };
    op.count += 1;
    op.totalMs += s.duration / 1000;
    op.selfMs += lengthOf(own) / 1000;
    byOp.set(s.operationName, op);
    selfIntervals.set(s.operationName, [...(selfIntervals.get(s.operationName) ?? []), ...own]);
  }
  for (const op of byOp.values())
    op.selfWallMs = lengthOf(union(selfIntervals.get(op.operation) ?? [], -Infinity, Infinity)) / 1000;
  return {
    traceID: trace.traceID,
    service: root ? (trace.processes[root.processID]?.serviceName ?? '') : '',
    rootOperation: root?.operationName ?? '',
    start: start / 1000,
    durationMs: (end - start) / 1000,
    spanCount: trace.spans.length,
    // Largest wall-clock self time first: where the trace's time went (summed self time ranks parallel work high).
    breakdown: [...byOp.values()].sort((a, b) => b.selfWallMs - a.selfWallMs),
    route:
      (root && children.get(root.spanID)?.find((c) => c.operationName.startsWith('## '))?.operationName) ??
      '',
    error: trace.spans.some(isErrorSpan),
    spans: waterfallSpans(trace),
  };
};
