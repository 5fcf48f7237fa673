/**
 * The clock of every trace timestamp: epoch seconds with microsecond precision. X-Ray documents carry times as
 * float epoch seconds, and the X-Ray SDK fills them from `Date.now() / 1000` (whole milliseconds), so a 300 µs
 * decode would read as 0 or 1 ms in Jaeger. Here wall-clock time is read once and advanced by the monotonic
 * `performance.now()`: sub-millisecond and never going backwards within a trace. A float64 near 1.8e9 s resolves
 * ~0.24 µs, and the collector's awsxray receiver multiplies by 1e9 into nanoseconds, so the microseconds survive
 * into OTLP and Jaeger.
 */
import { performance } from 'node:perf_hooks';
import { SegmentUtils } from 'aws-xray-sdk-core';

/** How far the monotonic clock may drift from the wall clock (NTP slews it) before we re-anchor. */
const MAX_DRIFT_MS = 10;
/** Re-anchoring is checked at most this often: reading Date.now() is cheap, but only needed rarely. */
const CHECK_EVERY_MS = 1000;

let anchorWallMs = Date.now();
let anchorPerfMs = performance.now();
let checkedAtPerfMs = anchorPerfMs;

/** Epoch milliseconds with a fractional part (microsecond precision). */
export function epochMs(): number {
  const perf = performance.now();
  if (perf - checkedAtPerfMs >= CHECK_EVERY_MS) {
    checkedAtPerfMs = perf;
    const wall = Date.now();
    if (Math.abs(wall - (anchorWallMs + (perf - anchorPerfMs))) > MAX_DRIFT_MS) {
      anchorWallMs = wall;
      anchorPerfMs = perf;
    }
  }
  return anchorWallMs + (perf - anchorPerfMs);
}

/** Epoch seconds, as X-Ray documents carry `start_time` and `end_time`. */
export function epochSeconds(): number {
  return epochMs() / 1000;
}

/**
 * Every segment and subsegment the X-Ray SDK creates takes its times from `SegmentUtils.getCurrentTime` (one
 * shared module object), so replacing it once gives every span, ours and the SDK's, microsecond times.
 */
export function useMicrosecondSegmentTimes(): void {
  (SegmentUtils as { getCurrentTime: () => number }).getCurrentTime = epochSeconds;
}
