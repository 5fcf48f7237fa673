/**
 * Ships spans to an OTLP/HTTP JSON endpoint (Jaeger's :4318/v1/traces) in batches through a bounded
 * queue: when the queue is full new spans are dropped and counted, so a slow or absent Jaeger costs
 * the bridge a fixed amount of memory. One request in flight at a time, no retries (traces are
 * best-effort; a retry storm would only add load to whatever is already struggling).
 */
import type { BridgeSpan } from './xray';

export interface ExporterOptions {
  endpoint: string; // e.g. http://127.0.0.1:4318/v1/traces
  maxQueue: number;
  batchSize: number;
  timeoutMs: number;
}

export interface ExporterCounts {
  exported: number;
  droppedQueueFull: number;
  failed: number;
}

interface Queued {
  service: string;
  span: BridgeSpan;
}

export class OtlpExporter {
  private queue: Queued[] = [];
  private inFlight: Promise<void> | undefined;
  readonly counts: ExporterCounts = { exported: 0, droppedQueueFull: 0, failed: 0 };
  lastError: string | undefined;

  constructor(private readonly options: ExporterOptions) {}

  get queued(): number {
    return this.queue.length;
  }

  enqueue(service: string, spans: BridgeSpan[]): void {
    for (const span of spans) {
      if (this.queue.length >= this.options.maxQueue) this.counts.droppedQueueFull++;
      else this.queue.push({ service, span });
    }
    if (this.queue.length >= this.options.batchSize) void this.flush();
  }

  /** Sends one batch unless a send is already running; resolves when that send is done. */
  flush(): Promise<void> {
    if (this.inFlight || this.queue.length === 0) return this.inFlight ?? Promise.resolve();
    const batch = this.queue.splice(0, this.options.batchSize);
    this.inFlight = this.post(batch).finally(() => {
      this.inFlight = undefined;
    });
    return this.inFlight;
  }

  /** Drains the queue completely (shutdown, tests). */
  async drain(): Promise<void> {
    while (this.inFlight || this.queue.length > 0) await this.flush();
  }

  private async post(batch: Queued[]): Promise<void> {
    try {
      const response = await fetch(this.options.endpoint, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify(otlpRequest(batch)),
        signal: AbortSignal.timeout(this.options.timeoutMs),
      });
      await response.arrayBuffer();
      if (!response.ok) throw new Error(`HTTP ${response.status}`);
      this.counts.exported += batch.length;
    } catch (error) {
      this.counts.failed += batch.length;
      this.lastError = (error as Error).message;
    }
  }
}

/** ExportTraceServiceRequest in OTLP/JSON (ids as hex strings, times as decimal nanosecond strings). */
export function otlpRequest(batch: { service: string; span: BridgeSpan }[]): unknown {
  const byService = new Map<string, BridgeSpan[]>();
  for (const { service, span } of batch) {
    const list = byService.get(service);
    if (list) list.push(span);
    else byService.set(service, [span]);
  }
  return {
    resourceSpans: [...byService].map(([service, spans]) => ({
      resource: {
        attributes: [
          { key: 'service.name', value: { stringValue: service } },
          { key: 'telemetry.sdk.name', value: { stringValue: 'xray-bridge' } },
        ],
      },
      scopeSpans: [
        {
          scope: { name: 'aws-xray-bridge' },
          spans: spans.map((s) => ({
            traceId: s.traceId,
            spanId: s.spanId,
            ...(s.parentSpanId ? { parentSpanId: s.parentSpanId } : {}),
            name: s.name,
            kind: s.kind,
            startTimeUnixNano: s.startTimeUnixNano,
            endTimeUnixNano: s.endTimeUnixNano,
            attributes: s.attributes,
            status: s.status,
          })),
        },
      ],
    })),
  };
}
