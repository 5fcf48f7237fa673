/**
 * One bench:scale cell: a workload at a connection count against a running stack, measured between two
 * snapshots (after a warm-up that starts the workers and is not counted): what the clients got, what the API
 * tree and the data layer spent in CPU, what the data layer served, what the handlers' caches reported, and the
 * API tree's peak resident memory (sampled every 200 ms).
 */
import { percentile, runClosedLoop, type LoadRequest } from './closed-loop';
import type { EmfListener } from './emf-listener';
import { treeStats } from './process-tree';
import type { DataLayer, RunningProcess } from './stack';

export interface CellResult {
  dataset: string;
  workload: string;
  connections: number;
  seconds: number;
  requests: number;
  elevationsPerS: number;
  p50Ms: number;
  p99Ms: number;
  apiCpuMsPerPoint: number;
  dataCpuMsPerPoint: number;
  rangeRequestsPerPoint: number;
  bytesPerPoint: number;
  cacheHitRatio: number;
  peakRssBytes: number;
  failures: Record<string, number>;
}

export interface CellPlan {
  dataset: string;
  workload: string;
  connections: number;
  next: () => LoadRequest;
  durationMs: number;
  warmupMs: number;
}

const RSS_SAMPLE_MS = 200;
/** In-flight requests may take the gateway's whole 30 s timeout; a little more, then they are aborted. */
const DRAIN_MS = 35_000;
const MAX_REQUESTS = 1_000_000;

export async function measureCell(
  plan: CellPlan,
  api: RunningProcess,
  data: DataLayer,
  emf: EmfListener,
): Promise<CellResult> {
  const load = { baseUrl: api.url, connections: plan.connections, drainMs: DRAIN_MS, next: plan.next };
  await runClosedLoop({ ...load, durationMs: plan.warmupMs, maxRequests: MAX_REQUESTS });
  await settle();
  const before = {
    api: treeStats(api.pid),
    data: treeStats(data.pid),
    served: await data.stats(),
    emf: emf.totals(),
  };
  let peakRss = before.api.rssBytes;
  const sampler = setInterval(() => {
    peakRss = Math.max(peakRss, treeStats(api.pid).rssBytes);
  }, RSS_SAMPLE_MS);
  const result = await runClosedLoop({ ...load, durationMs: plan.durationMs, maxRequests: MAX_REQUESTS });
  clearInterval(sampler);
  await settle();
  const after = {
    api: treeStats(api.pid),
    data: treeStats(data.pid),
    served: await data.stats(),
    emf: emf.totals(),
  };
  peakRss = Math.max(peakRss, after.api.rssBytes);
  const points = Math.max(result.okPoints, 1);
  const hits = after.emf.BlockCacheHits - before.emf.BlockCacheHits;
  const misses = after.emf.BlockCacheMisses - before.emf.BlockCacheMisses;
  return {
    dataset: plan.dataset,
    workload: plan.workload,
    connections: plan.connections,
    seconds: result.elapsedMs / 1000,
    requests: result.okRequests,
    elevationsPerS: result.okPoints / (result.elapsedMs / 1000),
    p50Ms: percentile(result.latenciesMs, 50),
    p99Ms: percentile(result.latenciesMs, 99),
    apiCpuMsPerPoint: (after.api.cpuMs - before.api.cpuMs) / points,
    dataCpuMsPerPoint: (after.data.cpuMs - before.data.cpuMs) / points,
    rangeRequestsPerPoint: (after.served.rangeRequests - before.served.rangeRequests) / points,
    bytesPerPoint: (after.served.bytesSent - before.served.bytesSent) / points,
    cacheHitRatio: hits + misses > 0 ? hits / (hits + misses) : NaN,
    peakRssBytes: peakRss,
    failures: result.failures,
  };
}

/** Lets the last EMF datagrams arrive and the last responses' CPU be spent before a snapshot. */
function settle(): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, 500));
}
