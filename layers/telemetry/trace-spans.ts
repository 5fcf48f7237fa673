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

const innermost = new AsyncLocalStorage<XraySegment>();

export function subsegmentHooks(root: XraySegment): SpanHooks {
  return {
    async span(name, fn) {
      const sub = (innermost.getStore() ?? root).addNewSubsegment(name);
      const annotate = (key: string, value: string | number | boolean): void =>
        sub.addAnnotation(key, typeof value === 'string' ? redactUrlCredentials(value) : value);
      let result;
      try {
        result = await innermost.run(sub, () => fn(annotate));
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
