/** TraceHooks that record every span a test's request opens, with its annotations, in opening order. */
import type { TraceHooks } from '../../layers/elevation/types';

export interface RecordedSpan {
  name: string;
  annotations: Record<string, string | number | boolean>;
}

export function recordingTrace(spans: RecordedSpan[]): TraceHooks {
  return {
    span: (name, fn) => {
      const span: RecordedSpan = { name, annotations: {} };
      spans.push(span);
      return fn((key, value) => {
        span.annotations[key] = value;
      });
    },
  };
}
