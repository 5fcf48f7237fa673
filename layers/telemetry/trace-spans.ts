/**
 * SpanHooks (ports.ts) over X-Ray subsegments. The parent of a new span is the innermost span of the same async
 * chain (AsyncLocalStorage), not the SDK's "current segment": in Lambda mode that one is effectively a
 * global, so concurrent block reads would nest inside each other if we used tracer.setSegment().
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { SpanHooks } from './ports';
import { redactedError, redactUrlCredentials } from './redact';

export type XraySegment = NonNullable<ReturnType<Tracer['getSegment']>>;

/** Where a span opens: under `parent`, traced or not (a span inside an untraced one is untraced too). */
interface Place {
  parent: XraySegment;
  traced: boolean;
}

const innermost = new AsyncLocalStorage<Place>();

/**
 * Spans of one name a trace records: a request over hundreds of cold blocks opened a `read-block` and a `decode`
 * span for each (714 for 512 points over 16-px blocks), a tree past a datagram sent as 714 datagrams at once, of
 * which a receiver with the default socket buffer lost ~40 %, the root with them. 20 of each keep a trace in one
 * datagram; the rest run untraced and are counted on the handler segment (metadata `untracedSpans`), and so do
 * the spans inside them. An untraced span that fails is still recorded (with its start time, under the nearest
 * traced span), up to as many failures of each name again.
 */
export const MAX_SPANS_PER_NAME = 20;

/**
 * Annotations the domain's spans add to one trace: X-Ray indexes at most 50 per trace, and which it keeps past
 * that is not said, so the handler's own (ColdStart, Service, dataset, points, interpolation: what a search
 * filters on) must stay within it. Past 40, a span's facts are written as metadata (shown, not indexed).
 */
export const MAX_SPAN_ANNOTATIONS = 40;

export function subsegmentHooks(root: XraySegment): SpanHooks {
  const spans = new Map<string, number>();
  const failures = new Map<string, number>();
  const untraced: Record<string, number> = {};
  let annotations = 0;
  /** Runs `fn` with no span of its own, counted; a server error is recorded after the fact, within its cap. */
  async function untracedSpan<T>(name: string, parent: XraySegment, fn: () => Promise<T>): Promise<T> {
    untraced[name] = (untraced[name] ?? 0) + 1;
    root.addMetadata('untracedSpans', { ...untraced });
    const started = Date.now() / 1000;
    try {
      return await innermost.run({ parent, traced: false }, fn);
    } catch (error) {
      const failed = failures.get(name) ?? 0;
      if (!isClientError(error) && failed < MAX_SPANS_PER_NAME) {
        failures.set(name, failed + 1);
        const sub = parent.addNewSubsegment(name);
        sub.start_time = started;
        sub.close(redactedError(error as Error));
      }
      throw error;
    }
  }
  return {
    async span(name, fn) {
      const place = innermost.getStore() ?? { parent: root, traced: true };
      const count = spans.get(name) ?? 0;
      if (!place.traced || count >= MAX_SPANS_PER_NAME)
        return untracedSpan(name, place.parent, () => fn(() => undefined));
      spans.set(name, count + 1);
      const sub = place.parent.addNewSubsegment(name);
      const annotate = (key: string, value: string | number | boolean): void => {
        const shown = typeof value === 'string' ? redactUrlCredentials(value) : value;
        if (annotations >= MAX_SPAN_ANNOTATIONS) return sub.addMetadata(key, shown);
        annotations++;
        sub.addAnnotation(key, shown);
      };
      let result;
      try {
        result = await innermost.run({ parent: sub, traced: true }, () => fn(annotate));
      } catch (error) {
        // A client's error (4xx) is no fault of ours: an error flag, as the handler segment gets, and no exception
        // (whose stack the SDK formats: the first one in a process loads the source maps, ~0.6 s on the local stage).
        if (isClientError(error)) {
          sub.addErrorFlag();
          sub.close();
        } else sub.close(redactedError(error as Error));
        throw error;
      }
      sub.close();
      return result;
    },
  };
}

/** An error that maps to a 4xx: the domain's errors carry their status (`statusCode`, as elevation/errors.ts does). */
function isClientError(error: unknown): boolean {
  const status = (error as { statusCode?: unknown } | null)?.statusCode;
  return typeof status === 'number' && status >= 400 && status < 500;
}
