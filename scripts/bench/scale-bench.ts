/**
 * `npm run bench:scale [-- --quick]`: the API on real-sized data (issue 12). Builds once (.build/bench-scale/) a
 * 36-tile, ~1.4 GB Copernicus-layout dataset and its dem:optimize version, starts `npm start` over each with
 * BLOCK_CACHE_MB=128 and the data layer as its own process, and drives it closed-loop at 1, 4, 16 and 64
 * connections with four workloads. Prints per cell elevations/s, p50/p99, CPU ms per point (API tree and data
 * layer), range requests and bytes per point, block-cache hit ratio and peak RSS of the API tree; then every
 * target with its figure and ✔/✘. Writes results/bench-scale.md. Not gating: a shared 2-core machine is noisy.
 *
 * --quick (CI): a 4-tile dataset (.build/bench-scale-quick/, ~160 MB), 4 and 64 connections, two workloads,
 * short cells: about 3-5 minutes with the build. Figures from it are not the large-dataset figures.
 * Env: BENCH_SECONDS (measured seconds per cell; 10, quick 4); to rerun a few cells, comma-separated
 * BENCH_DATASETS (cop1024, opt256), BENCH_WORKLOADS (e.g. "GET-1 uniform"), BENCH_CONNECTIONS (e.g. 4,64).
 * LOCAL_CONCURRENCY and LOCAL_QUEUE are passed to npm start when set.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { measureCell, type CellResult } from './scale/cell';
import { ensureScaleDatasets, writeConfig } from './scale/datasets';
import { listenForEmf } from './scale/emf-listener';
import { evaluateTargets, formatRow, markdownReport, TABLE_HEADER } from './scale/report';
import {
  PASSED_LOCAL_SETTINGS,
  SCALE_BLOCK_CACHE_MB,
  scaleApiEnv,
  startApi,
  startDataLayer,
} from './scale/stack';
import { WORKLOADS } from './scale/workloads';
import { localConcurrency } from '../start/local-api';
import { nodeFlags } from '../start/serverless-offline';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

async function main(): Promise<void> {
  const quick = process.argv.includes('--quick');
  const seconds = Number(process.env.BENCH_SECONDS ?? (quick ? 4 : 10));
  if (!(seconds > 0 && seconds <= 600)) throw new Error(`BENCH_SECONDS must be 1-600, got ${seconds}`);
  const connectionCounts =
    listFromEnv('BENCH_CONNECTIONS')?.map(Number) ?? (quick ? [4, 64] : [1, 4, 16, 64]);
  const workloadNames = listFromEnv('BENCH_WORKLOADS');
  const workloads = WORKLOADS.filter((w) =>
    workloadNames ? workloadNames.includes(w.name) : !quick || w.name.includes('uniform'),
  );
  const variantNames = listFromEnv('BENCH_DATASETS');
  const datasets = ensureScaleDatasets(quick, (line) => console.log(line));
  for (const v of datasets.variants) {
    console.log(`dataset ${v.name}: ${v.tiles} tiles, ${(v.bytes / 1e9).toFixed(2)} GB (${v.description})`);
  }
  fs.mkdirSync(path.join(REPO_ROOT, 'results'), { recursive: true });
  const apiLog = fs.openSync(path.join(REPO_ROOT, 'results', 'bench-scale-api.log'), 'w');
  const emf = await listenForEmf();
  const data = await startDataLayer(datasets.root);
  const apiEnv = scaleApiEnv(data.url, emf.endpoint);
  const cells: CellResult[] = [];
  const started = Date.now();
  try {
    for (const variant of datasets.variants) {
      if (variantNames && !variantNames.includes(variant.name)) continue;
      const api = await startApi({ ...apiEnv, CONFIG_PATH: writeConfig(datasets, variant.name) }, apiLog);
      console.log(`\n${variant.name} via npm start (${api.url}), BLOCK_CACHE_MB=${SCALE_BLOCK_CACHE_MB}`);
      console.log(TABLE_HEADER);
      try {
        for (const workload of workloads) {
          for (const connections of connectionCounts) {
            const cell = await measureCell(
              {
                dataset: variant.name,
                workload: workload.name,
                connections,
                next: workload.make(datasets, connections * 7919 + cells.length),
                durationMs: seconds * 1000,
                warmupMs: quick ? 1500 : 3000,
              },
              api,
              data,
              emf,
            );
            cells.push(cell);
            console.log(formatRow(cell));
          }
        }
      } finally {
        await api.stop();
      }
    }
  } finally {
    await data.stop();
    emf.close();
  }
  const targets = evaluateTargets(cells, quick);
  console.log('\nTargets (issue 12; one run on a shared 2-core machine, not gating):');
  for (const t of targets)
    console.log(
      `  ${t.pass === null ? '–' : t.pass ? '✔' : '✘'} ${t.name}: ${t.figure} (target ${t.target})`,
    );
  const report = markdownReport({
    cells,
    targets,
    datasets,
    quick,
    seconds,
    settings: {
      ...pick(apiEnv, ['BLOCK_CACHE_MB', ...PASSED_LOCAL_SETTINGS]),
      // Its default follows the machine's cores: the effective value, set or not.
      LOCAL_CONCURRENCY: String(localConcurrency(apiEnv)),
      // They reach npm start with the rest of the environment: a run with other GC flags or partial decoding
      // must say so in its report.
      OFFLINE_NODE_FLAGS: `"${nodeFlags(process.env.OFFLINE_NODE_FLAGS).join(' ')}"`,
      ...(process.env.PARTIAL_DECODE ? { PARTIAL_DECODE: process.env.PARTIAL_DECODE } : {}),
      ...pick(apiEnv, ['POWERTOOLS_LOG_LEVEL']),
    },
    machine: `${os.cpus().length} cores (${os.cpus()[0]?.model ?? 'unknown'}), load average at the end ${os
      .loadavg()
      .map((l) => l.toFixed(1))
      .join(' ')}`,
    minutes: (Date.now() - started) / 60_000,
  });
  fs.writeFileSync(path.join(REPO_ROOT, 'results', 'bench-scale.md'), report);
  console.log('\nwrote results/bench-scale.md (API output in results/bench-scale-api.log)');
  process.exit(targets.every((t) => t.pass !== false) ? 0 : 1);
}

/** A comma-separated list from the environment (to rerun a few cells), or undefined when unset. */
function listFromEnv(name: string): string[] | undefined {
  const raw = process.env[name];
  return raw ? raw.split(',').map((s) => s.trim()) : undefined;
}

function pick(env: Record<string, string>, names: readonly string[]): Record<string, string> {
  return Object.fromEntries(names.filter((n) => env[n] !== undefined).map((n) => [n, env[n]]));
}

main().catch((error: unknown) => {
  console.error(
    `bench:scale failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`,
  );
  process.exit(2);
});
