/** What one finished request turns into: the wide log line's fields and its EMF metrics. Pure. */
import { METRIC, NO_DATASET } from './constants';
import type { RequestState } from './request-telemetry';
import { roundMs } from './request-telemetry';

export type Outcome = '2xx' | '4xx' | '5xx';
export type LogLevel = 'info' | 'warn' | 'error';
export type MetricUnitName = 'Count' | 'Milliseconds' | 'Bytes';

export interface FinishedRequest {
  route: string;
  /** HTTP method as the client sent it (upper case). */
  method: string;
  /** The route's path template (`/v1/{dataset}`), never the path with its values. */
  pathTemplate: string;
  status: number;
  durationMs: number;
  coldStart: boolean;
  state: RequestState;
}

export function outcomeOf(status: number): Outcome {
  return status >= 500 ? '5xx' : status >= 400 ? '4xx' : '2xx';
}

export function logLevelOf(status: number): LogLevel {
  return status >= 500 ? 'error' : status >= 400 ? 'warn' : 'info';
}

export function datasetOf(state: RequestState): string {
  const dataset = state.fields.dataset;
  return typeof dataset === 'string' && dataset !== '' ? dataset : NO_DATASET;
}

/** Most distinct `dataset` dimension values one execution environment emits; the rest become OTHER_VALUE. */
export const MAX_DIMENSION_VALUES = 64;
export const OTHER_VALUE = 'other';

/**
 * A safety net under the handlers' rule (dataset = a configured name or `chain:<n>`): whatever a handler sets,
 * one environment never emits more than `limit` distinct values, so no client can mint series.
 */
export class BoundedValues {
  private readonly seen = new Set<string>();
  constructor(private readonly limit = MAX_DIMENSION_VALUES) {}

  admit(value: string): string {
    if (this.seen.has(value)) return value;
    if (this.seen.size >= this.limit) return OTHER_VALUE;
    this.seen.add(value);
    return value;
  }
}

/** The request path with its values replaced by the template's names: `/v1/{dataset}`. */
export function pathTemplateOf(routeKey: string | undefined, fallback: string): string {
  const template = routeKey?.split(' ')[1];
  return template && template.startsWith('/') ? template : fallback;
}

export function pointsOf(state: RequestState): number {
  const points = state.fields.points;
  return typeof points === 'number' && Number.isFinite(points) ? points : 0;
}

/**
 * The points a successful answer holds heights (or nulls) for: `points`, unless the handler set `answered`
 * (Google's DATA_NOT_AVAILABLE: a 200 whose results are empty, so none were answered).
 */
export function answeredOf(state: RequestState): number {
  const answered = state.fields.answered;
  return typeof answered === 'number' && Number.isFinite(answered) ? answered : pointsOf(state);
}

/** The one wide log line: everything needed to explain this request without the trace. */
export function wideLogFields(r: FinishedRequest): Record<string, unknown> {
  const s = r.state.stats;
  return {
    ...r.state.fields,
    method: r.method,
    route: r.route,
    pathTemplate: r.pathTemplate,
    status: r.status,
    durationMs: roundMs(r.durationMs),
    phases: r.state.phases,
    blocksRead: s.blocksRead,
    cacheHits: s.blockCacheHits,
    cacheMisses: s.blockCacheMisses,
    rangeRequests: s.rangeRequests,
    rangeBytes: s.rangeBytes,
    dataAnswers: s.dataAnswers,
  };
}

export interface MetricPoint {
  name: string;
  unit: MetricUnitName;
  value: number;
}

/**
 * The request's metrics (one EMF document). Counters are always present, so sums stay exact;
 * ElevationsComputed counts only answered points (2xx; answeredOf). Latency-like values are sent only when
 * something was measured, so histograms are not flooded with zeros from cache-only requests.
 */
export function requestMetrics(r: FinishedRequest): MetricPoint[] {
  const s = r.state.stats;
  const points = pointsOf(r.state);
  const ok = r.status < 400;
  const list: MetricPoint[] = [
    { name: METRIC.requests, unit: 'Count', value: 1 },
    { name: METRIC.elevationsComputed, unit: 'Count', value: ok ? answeredOf(r.state) : 0 },
    { name: METRIC.requestLatency, unit: 'Milliseconds', value: roundMs(r.durationMs) },
    { name: METRIC.blockCacheHits, unit: 'Count', value: s.blockCacheHits },
    { name: METRIC.blockCacheMisses, unit: 'Count', value: s.blockCacheMisses },
    { name: METRIC.rangeRequests, unit: 'Count', value: s.rangeRequests },
    { name: METRIC.rangeBytes, unit: 'Bytes', value: s.rangeBytes },
  ];
  if (points > 0) list.push({ name: METRIC.pointsPerRequest, unit: 'Count', value: points });
  if (s.rangeRequests > 0)
    list.push({ name: METRIC.rangeLatency, unit: 'Milliseconds', value: roundMs(s.rangeMs) });
  if (s.decodeMs > 0)
    list.push({ name: METRIC.decodeTime, unit: 'Milliseconds', value: roundMs(s.decodeMs) });
  return list;
}
