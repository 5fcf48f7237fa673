/**
 * A closed-loop load generator: `connections` clients, each sending its next request as soon as the previous
 * answer arrived (no think time), over keep-alive connections to 127.0.0.1. Bounded twice: no request starts
 * after `durationMs` or once `maxRequests` were sent, and requests still in flight `drainMs` after the end are
 * aborted (counted as errors), so one cell never runs longer than duration + drain.
 */
import { setMaxListeners } from 'node:events';
import { Pool } from 'undici';

export interface LoadRequest {
  method: 'GET' | 'POST';
  path: string;
  body?: string;
  points: number;
}

export interface LoadOptions {
  baseUrl: string;
  connections: number;
  durationMs: number;
  maxRequests: number;
  drainMs: number;
  next: () => LoadRequest;
}

export interface LoadResult {
  elapsedMs: number;
  /** Latency of every answered request with status 200, ms. */
  latenciesMs: number[];
  okRequests: number;
  okPoints: number;
  /** Status code (or 'error' for a failed or aborted request) -> count, for answers other than 200. */
  failures: Record<string, number>;
}

export async function runClosedLoop(options: LoadOptions): Promise<LoadResult> {
  const origin = new URL(options.baseUrl);
  if (origin.hostname !== '127.0.0.1')
    throw new Error(`the bench sends traffic to 127.0.0.1 only, not ${origin}`);
  const pool = new Pool(origin.origin, { connections: options.connections, pipelining: 1 });
  const abort = new AbortController();
  setMaxListeners(0, abort.signal); // one listener per request in flight, by design
  const result: LoadResult = { elapsedMs: 0, latenciesMs: [], okRequests: 0, okPoints: 0, failures: {} };
  const started = performance.now();
  const deadline = started + options.durationMs;
  let sent = 0;
  const client = async (): Promise<void> => {
    while (performance.now() < deadline && sent < options.maxRequests) {
      sent += 1;
      const request = options.next();
      const t0 = performance.now();
      try {
        const answer = await pool.request({
          method: request.method,
          path: request.path,
          body: request.body,
          headers: request.body ? { 'content-type': 'application/json' } : {},
          signal: abort.signal,
        });
        await answer.body.arrayBuffer();
        if (answer.statusCode === 200) {
          result.latenciesMs.push(performance.now() - t0);
          result.okRequests += 1;
          result.okPoints += request.points;
        } else {
          result.failures[answer.statusCode] = (result.failures[answer.statusCode] ?? 0) + 1;
        }
      } catch {
        result.failures.error = (result.failures.error ?? 0) + 1;
      }
    }
  };
  const clients = Promise.all(Array.from({ length: options.connections }, () => client()));
  const drainTimer = setTimeout(() => abort.abort(), options.durationMs + options.drainMs);
  await clients;
  clearTimeout(drainTimer);
  result.elapsedMs = performance.now() - started;
  await pool.destroy();
  return result;
}

export function percentile(values: number[], p: number): number {
  if (values.length === 0) return NaN;
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)];
}
