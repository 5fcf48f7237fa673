/** k6's built-in metrics, defined up front so thresholds and the summary can name them. */
import type { Metric, Registry } from './registry.ts';
import type { MetricType, ValueType } from './sinks.ts';

const BUILTIN: [string, MetricType, ValueType][] = [
  ['vus', 'gauge', 'default'],
  ['vus_max', 'gauge', 'default'],
  ['iterations', 'counter', 'default'],
  ['iteration_duration', 'trend', 'time'],
  ['dropped_iterations', 'counter', 'default'],
  ['data_sent', 'counter', 'data'],
  ['data_received', 'counter', 'data'],
  ['checks', 'rate', 'default'],
  ['group_duration', 'trend', 'time'],
  // Not k6's: the engine thread's event loop lag (ms), so a saturated load generator shows.
  ['runner_event_loop_lag', 'gauge', 'time'],
  ['http_reqs', 'counter', 'default'],
  ['http_req_failed', 'rate', 'default'],
  ['http_req_duration', 'trend', 'time'],
  ['http_req_blocked', 'trend', 'time'],
  ['http_req_connecting', 'trend', 'time'],
  ['http_req_tls_handshaking', 'trend', 'time'],
  ['http_req_sending', 'trend', 'time'],
  ['http_req_waiting', 'trend', 'time'],
  ['http_req_receiving', 'trend', 'time'],
];

/**
 * The runner_event_loop_lag (ms, worst per second) above which the runner was saturated and its latencies include
 * its own delay: its summary warns, and so does `npm run report` for a summary whose metrics show it.
 */
export const LAG_WARNING_MS = 10;

export type BuiltinMetrics = Record<string, Metric>;

export function defineBuiltins(registry: Registry): BuiltinMetrics {
  return Object.fromEntries(
    BUILTIN.map(([name, type, contains]) => [name, registry.define(name, type, contains)]),
  );
}
