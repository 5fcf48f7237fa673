/** Per-request state the handler fills in: read stats, fields for the wide log line, phase timings. */
import { performance } from 'node:perf_hooks';
import { newRequestCounters, noSpans, type RequestCounters, type SpanHooks } from './ports';
import type { XraySegment } from './trace-spans';
import { subsegmentHooks } from './trace-spans';

export interface RequestFields {
  dataset?: string;
  points?: number;
  interpolation?: string;
  [k: string]: unknown;
}

export interface RequestTelemetry {
  readonly stats: RequestCounters;
  readonly trace: SpanHooks;
  set(fields: RequestFields): void;
  /** The error behind a 5xx answer: recorded on the trace as an exception (OpenTelemetry's exception event). */
  recordServerError(error: unknown): void;
  phase<T>(name: string, fn: () => Promise<T> | T): Promise<T>;
}

/** Fields that also become annotations (indexed, searchable) on the handler subsegment. */
const ANNOTATED = ['dataset', 'points', 'interpolation'] as const;

export class RequestState implements RequestTelemetry {
  readonly stats = newRequestCounters();
  readonly trace: SpanHooks;
  readonly fields: RequestFields = {};
  readonly phases: Record<string, number> = {};
  /** Set by recordServerError; the handler and root spans record it when the request ends. */
  serverError: unknown = undefined;

  constructor(private readonly handlerSegment: XraySegment | undefined) {
    this.trace = handlerSegment ? subsegmentHooks(handlerSegment) : noSpans;
  }

  set(fields: RequestFields): void {
    Object.assign(this.fields, fields);
    if (!this.handlerSegment) return;
    for (const key of ANNOTATED) {
      const value = fields[key];
      if (typeof value === 'string' || typeof value === 'number')
        this.handlerSegment.addAnnotation(key, value);
    }
  }

  recordServerError(error: unknown): void {
    this.serverError = error;
  }

  async phase<T>(name: string, fn: () => Promise<T> | T): Promise<T> {
    const started = performance.now();
    try {
      return await this.trace.span(name, async () => fn());
    } finally {
      this.phases[`${name}Ms`] = roundMs(performance.now() - started);
    }
  }
}

export function roundMs(ms: number): number {
  return Math.round(ms * 100) / 100;
}
