/**
 * The local API as `npm start` and the e2e tests run it: serverless-offline on an internal port behind the local
 * gateway (scripts/gateway) on the public one. Settings: LOCAL_CONCURRENCY (invocations per function at once,
 * default: the cores, 2 to 4), LOCAL_QUEUE (requests waiting per function before 429, default 1000). npm start splits BLOCK_CACHE_MB over
 * the LOCAL_CONCURRENCY workers of a function (cacheMbPerEnvironment).
 */
import os from 'node:os';
import path from 'node:path';
import { startGateway, type Gateway, type GatewayOptions } from '../gateway/gateway';
import { loadRoutes } from '../gateway/routes';
import { freePort } from './free-port';
import { spawnServerlessOffline, type OfflineOptions, type OfflineProcess } from './serverless-offline';

export interface LocalApi {
  /** The gateway's URL: what clients use. */
  baseUrl: string;
  offline: OfflineProcess;
  gateway: Gateway;
  /** Resolves once serverless-offline answers /health. */
  ready: Promise<void>;
  stop(): Promise<void>;
}

/**
 * One worker per core, 2 to 4: each worker is an execution environment with its own isolate (~70-100 MB) and its
 * share of BLOCK_CACHE_MB. On this 2-core machine 2 workers instead of 4 measured, in two A/B pairs of bench:scale
 * on the 1024-px dataset (2026-12-04): peak RSS lower in all 10 cells, by 177-249 MB but 51 MB for POST-512 at
 * 64 connections (GET-1 uniform at 64: 963 -> 780 MB); POST-512 in one tile 3.1 k -> 101-104 k elevations/s (a
 * worker's 64 MiB holds the tile's 16 blocks, 32 MiB thrashed: 4 % cache hits -> 100 %); cold GET-1 within the
 * noise (58-77 vs 61-66 points/s), warm POST-100 city too (45-58 k vs 45-70 k). More workers than cores mostly
 * split the cache.
 */
const MIN_DEFAULT_CONCURRENCY = 2;
const MAX_DEFAULT_CONCURRENCY = 4;
/** A burst of 1,000 waits rather than failing; beyond that a client gets 429 at once. */
const DEFAULT_QUEUE = 1000;
/** API Gateway's HTTP API integration timeout. */
const GATEWAY_TIMEOUT_MS = 30_000;

export async function startLocalApi(
  options: OfflineOptions & Pick<GatewayOptions, 'accessLog'>,
): Promise<LocalApi> {
  const env = { ...process.env, ...options.env };
  const maxConcurrent = localConcurrency(env);
  const maxQueued = count('LOCAL_QUEUE', env.LOCAL_QUEUE, DEFAULT_QUEUE, 0);
  const routes = loadRoutes(path.join(options.serviceDir, 'serverless.yml'));
  const offline = spawnServerlessOffline({ ...options, httpPort: await freePort() });
  let gateway: Gateway;
  try {
    gateway = await startGateway({
      upstream: offline.baseUrl,
      routes,
      port: options.httpPort,
      maxConcurrent,
      maxQueued,
      timeoutMs: GATEWAY_TIMEOUT_MS,
      upstreamReady: offline.ready,
      accessLog: options.accessLog,
    });
  } catch (error) {
    await offline.stop();
    throw error;
  }
  return {
    baseUrl: gateway.url,
    offline,
    gateway,
    ready: offline.ready,
    stop: async () => {
      await Promise.allSettled([offline.stop(), gateway.close()]);
    },
  };
}

/**
 * SHUTDOWN_DRAIN_S: how long Ctrl-C or SIGTERM lets the requests already received be answered before npm start
 * stops (default 30 s, API Gateway's integration timeout: every request is answered or timed out by then).
 */
export const DEFAULT_DRAIN_S = 30;
const MAX_DRAIN_S = 600;

export function drainSeconds(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.SHUTDOWN_DRAIN_S;
  if (raw === undefined || raw.trim() === '') return DEFAULT_DRAIN_S;
  const value = Number(raw);
  if (!/^\s*\d+\s*$/.test(raw) || value > MAX_DRAIN_S) {
    throw new Error(
      `SHUTDOWN_DRAIN_S must be a whole number of seconds from 0 to ${MAX_DRAIN_S}, got "${raw}"`,
    );
  }
  return value;
}

/** LOCAL_CONCURRENCY: how many invocations of one function run at once, i.e. how many workers (environments) it has. */
export function localConcurrency(
  env: NodeJS.ProcessEnv = process.env,
  cores: number = os.availableParallelism(),
): number {
  return count('LOCAL_CONCURRENCY', env.LOCAL_CONCURRENCY, defaultConcurrency(cores), 1);
}

/** LOCAL_CONCURRENCY's default: the cores, at least 2 (one cold read overlaps another's decode), at most 4. */
export function defaultConcurrency(cores: number): number {
  return Math.min(MAX_DEFAULT_CONCURRENCY, Math.max(MIN_DEFAULT_CONCURRENCY, Math.floor(cores)));
}

/**
 * npm start's BLOCK_CACHE_MB is the budget of one function, split over its LOCAL_CONCURRENCY workers: each worker
 * is an execution environment with its own module-scope cache, so a per-worker size would multiply memory by the
 * concurrency (4 x 128 MiB of decoded blocks plus their garbage measured 1.5-1.9 GB RSS under bench:scale).
 */
export function cacheMbPerEnvironment(
  env: NodeJS.ProcessEnv,
  fallbackBudgetMb: number,
): { budgetMb: number; perEnvironmentMb: number } {
  const budgetMb = count('BLOCK_CACHE_MB', env.BLOCK_CACHE_MB, fallbackBudgetMb, 1);
  return { budgetMb, perEnvironmentMb: Math.max(1, Math.floor(budgetMb / localConcurrency(env))) };
}

function count(name: string, raw: string | undefined, fallback: number, min: number): number {
  if (raw === undefined || raw.trim() === '') return fallback;
  const value = Number(raw);
  if (!Number.isInteger(value) || value < min || value > 100_000) {
    throw new Error(`${name} must be an integer from ${min} to 100000, got "${raw}"`);
  }
  return value;
}
