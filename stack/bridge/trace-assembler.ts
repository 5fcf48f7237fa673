/**
 * Holds spans per trace until the trace is complete enough to export with one service name: the
 * root segment arrives last offline (it is sent when the invocation ends) while its subsegments are
 * streamed as they close, sometimes after it (the SDK batches sends). A trace is released once its
 * root has been seen and `settleMs` passed without news, or `maxHoldMs` after its first span.
 * Bounded: at most `maxTraces` pending traces (the oldest is released early) and `maxSpansPerTrace`.
 */
import type { BridgeSpan } from './xray';

export interface AssemblerOptions {
  settleMs: number;
  maxHoldMs: number;
  maxTraces: number;
  maxSpansPerTrace: number;
  defaultService: string;
}

export const DEFAULT_ASSEMBLER: AssemblerOptions = {
  settleMs: 300,
  maxHoldMs: 5000,
  maxTraces: 5000,
  maxSpansPerTrace: 1000,
  defaultService: 'xray',
};

interface PendingTrace {
  spans: Map<string, BridgeSpan>;
  service?: string;
  hint?: string;
  firstAt: number;
  lastAt: number;
  rootSeen: boolean;
}

export type ReleaseFn = (service: string, spans: BridgeSpan[]) => void;

export class TraceAssembler {
  private readonly pending = new Map<string, PendingTrace>();
  /** Service names of recently released traces, so late subsegments land in the same service. */
  private readonly released = new Map<string, string>();
  droppedSpans = 0;

  constructor(
    private readonly release: ReleaseFn,
    private readonly options: AssemblerOptions = DEFAULT_ASSEMBLER,
  ) {}

  get pendingTraces(): number {
    return this.pending.size;
  }

  add(spans: BridgeSpan[], now: number): void {
    for (const span of spans) this.addOne(span, now);
  }

  private addOne(span: BridgeSpan, now: number): void {
    let trace = this.pending.get(span.traceId);
    if (!trace) {
      if (this.pending.size >= this.options.maxTraces) this.releaseOldest();
      trace = {
        spans: new Map(),
        firstAt: now,
        lastAt: now,
        rootSeen: false,
        service: this.released.get(span.traceId),
      };
      this.pending.set(span.traceId, trace);
    }
    const known = trace.spans.get(span.spanId);
    // An in-progress document never replaces the completed one of the same span.
    if (known && !known.inProgress && span.inProgress) return;
    if (!known && trace.spans.size >= this.options.maxSpansPerTrace) {
      this.droppedSpans++;
      return;
    }
    trace.spans.set(span.spanId, span);
    trace.lastAt = now;
    if (span.isRoot) {
      trace.service = span.name;
      trace.rootSeen = !span.inProgress;
    }
    trace.hint ??= span.serviceHint;
  }

  /** Releases every trace that is due; call it on a timer. `force` releases everything (shutdown). */
  tick(now: number, force = false): void {
    for (const [traceId, trace] of this.pending) {
      const settled = trace.rootSeen && now - trace.lastAt >= this.options.settleMs;
      if (force || settled || now - trace.firstAt >= this.options.maxHoldMs)
        this.releaseTrace(traceId, trace);
    }
  }

  private releaseOldest(): void {
    const first = this.pending.entries().next();
    if (!first.done) this.releaseTrace(first.value[0], first.value[1]);
  }

  private releaseTrace(traceId: string, trace: PendingTrace): void {
    this.pending.delete(traceId);
    const service = trace.service ?? trace.hint ?? this.options.defaultService;
    this.released.set(traceId, service);
    if (this.released.size > this.options.maxTraces)
      this.released.delete(this.released.keys().next().value as string);
    this.release(service, [...trace.spans.values()]);
  }
}
