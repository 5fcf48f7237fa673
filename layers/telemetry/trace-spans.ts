/**
 * SpanHooks (ports.ts) over X-Ray subsegments. The parent of a new span is the innermost span of the same async
 * chain (AsyncLocalStorage), not the SDK's "current segment": in Lambda mode that one is effectively a
 * global, so concurrent block reads would nest inside each other if we used tracer.setSegment().
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import type { Tracer } from '@aws-lambda-powertools/tracer';
import type { SpanHooks } from './ports';

export type XraySegment = NonNullable<ReturnType<Tracer['getSegment']>>;

const innermost = new AsyncLocalStorage<XraySegment>();

export function subsegmentHooks(root: XraySegment): SpanHooks {
  return {
    async span(name, fn) {
      const sub = (innermost.getStore() ?? root).addNewSubsegment(name);
      const annotate = (key: string, value: string | number | boolean): void => sub.addAnnotation(key, value);
      let result;
      try {
        result = await innermost.run(sub, () => fn(annotate));
      } catch (error) {
        sub.close(error as Error);
        throw error;
      }
      sub.close();
      return result;
    },
  };
}
