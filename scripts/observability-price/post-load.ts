/**
 * A bounded closed-loop POST load: `concurrency` clients each send POST /v1/<dataset> with `points`
 * random locations (seeded, so every configuration gets the same sequence) until `durationMs` ends.
 * Client-side latency percentiles; elevations/min counts only points of 200 answers.
 */
import { Pool } from 'undici';

export interface LoadOptions {
  baseUrl: string;
  dataset: string;
  points: number;
  concurrency: number;
  durationMs: number;
  bounds: { south: number; north: number; west: number; east: number };
  seed: number;
}

export interface LoadResult {
  requests: number;
  failures: number;
  elevations: number;
  elevationsPerMin: number;
  p50Ms: number;
  p95Ms: number;
}

/** mulberry32: tiny deterministic PRNG (Math.random cannot be seeded). */
export function seededRandom(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = a;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

export function percentile(sorted: number[], p: number): number {
  if (sorted.length === 0) return NaN;
  return sorted[Math.min(sorted.length - 1, Math.max(0, Math.ceil((p / 100) * sorted.length) - 1))];
}

export async function runPostLoad(o: LoadOptions): Promise<LoadResult> {
  const url = new URL(o.baseUrl);
  const pool = new Pool(url.origin, { connections: o.concurrency, pipelining: 1 });
  const random = seededRandom(o.seed);
  const body = (): string => {
    const locations: string[] = [];
    for (let i = 0; i < o.points; i++) {
      const lat = o.bounds.south + random() * (o.bounds.north - o.bounds.south);
      const lon = o.bounds.west + random() * (o.bounds.east - o.bounds.west);
      locations.push(`${lat.toFixed(6)},${lon.toFixed(6)}`);
    }
    return JSON.stringify({ locations: locations.join('|') });
  };
  const latencies: number[] = [];
  let failures = 0;
  const started = performance.now();
  const deadline = started + o.durationMs;
  const client = async (): Promise<void> => {
    while (performance.now() < deadline) {
      const t0 = performance.now();
      try {
        const response = await pool.request({
          path: `/v1/${o.dataset}`,
          method: 'POST',
          headers: { 'content-type': 'application/json' },
          body: body(),
        });
        await response.body.text();
        if (response.statusCode === 200) latencies.push(performance.now() - t0);
        else failures++;
      } catch {
        failures++;
      }
    }
  };
  await Promise.all(Array.from({ length: o.concurrency }, client));
  const elapsedMs = performance.now() - started;
  await pool.close();
  latencies.sort((a, b) => a - b);
  const elevations = latencies.length * o.points;
  return {
    requests: latencies.length + failures,
    failures,
    elevations,
    elevationsPerMin: Math.round((elevations / elapsedMs) * 60_000),
    p50Ms: percentile(latencies, 50),
    p95Ms: percentile(latencies, 95),
  };
}
