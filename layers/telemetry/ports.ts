/**
 * What the telemetry layer needs from the code it observes, as small interfaces it owns: the counters a request
 * accumulates, span hooks, and the size of a cache. Telemetry imports nothing from the elevation library
 * (eslint.boundaries.mjs); the library's ReadStats and TraceHooks have these shapes, and functions/route.ts, which
 * sees both, wires them: TypeScript checks there that each side satisfies the other (docs/architecture.md).
 */

/** Counters one request accumulates while reading: the wide log line, the EMF document and the trace report them. */
export interface RequestCounters {
  blocksRead: number;
  blockCacheHits: number;
  blockCacheMisses: number;
  rangeRequests: number;
  rangeBytes: number;
  rangeMs: number;
  decodeMs: number;
  /** Range-read attempts by how the data layer answered; the keys are the observed code's answer labels. */
  dataAnswers: Partial<Record<string, number>>;
}

export function newRequestCounters(): RequestCounters {
  return {
    blocksRead: 0,
    blockCacheHits: 0,
    blockCacheMisses: 0,
    rangeRequests: 0,
    rangeBytes: 0,
    rangeMs: 0,
    decodeMs: 0,
    dataAnswers: {},
  };
}

/** Opens a span around `fn`; `annotate` adds indexed scalars to it. */
export interface SpanHooks {
  span<T>(
    name: string,
    fn: (annotate: (key: string, value: string | number | boolean) => void) => Promise<T>,
  ): Promise<T>;
}

export const noSpans: SpanHooks = { span: (_name, fn) => fn(() => undefined) };

export interface CacheSize {
  readonly bytes: number;
  readonly size: number;
}

/** What the handler wrapper reads from the observed code besides a request's own counters. */
export interface Observed {
  /** The execution environment's block cache, sampled for the runtime-health document. */
  cache(): CacheSize;
  /**
   * The closed set of data-layer answers, the values of the `answer` metric dimension: a count under any other
   * key is not published, so the dimension stays bounded whatever a counter object holds.
   */
  readonly answers: readonly string[];
}
