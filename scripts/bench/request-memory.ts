/**
 * Per-request peak memory of the worst legitimate request: 512 points, each in a different cold 1024x1024
 * Float32 block (32 Copernicus-layout tiles x 16 blocks, 2 GiB if decoded at once), with a 1 MiB block cache so
 * nothing is kept. The request's block budget and read cap (REQUEST_BLOCK_BUDGET_MB, MAX_CONCURRENT_READS) must
 * bound it: the figure printed is the peak of (ArrayBuffers + external) memory above the idle level.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  configureBlockCache,
  fullContext,
  loadDatasetRegistry,
  ReadLimiter,
  type LatLon,
} from '../../layers/elevation';

export interface RequestMemory {
  points: number;
  blocks: number;
  peakMiB: number;
  budgetMiB: number;
  ms: number;
}

const TILES_ACROSS = 8;
const TILES_DOWN = 4;
const BLOCKS_PER_SIDE = 4; // 3600 px in 1024-px blocks

/**
 * Builds (once, cached in .build/bench-tiles) 32 one-degree tiles N40-N43 x E000-E007 as copies of the one
 * Copernicus-layout file, each re-georeferenced in place with GDAL's gdal_edit.py (same bytes, new tiepoint),
 * so they are distinct objects with distinct blocks. Null when GDAL is not installed.
 */
export function buildTiles(sourceFile: string, cacheDir: string): string | null {
  if (spawnSync('sh', ['-c', 'command -v gdal_edit.py'], { stdio: 'ignore' }).status !== 0) return null;
  // v2: tiles written before EPSG:4326 was set explicitly have no CRS, which the reader now refuses.
  const stamp = path.join(cacheDir, 'complete-v2');
  if (fs.existsSync(stamp)) return cacheDir;
  fs.rmSync(cacheDir, { recursive: true, force: true });
  fs.mkdirSync(cacheDir, { recursive: true });
  const half = 0.5 / 3600; // pixel-is-point: the tile's outer edge is half a pixel beyond its whole degrees
  for (let j = 0; j < TILES_DOWN; j++) {
    for (let i = 0; i < TILES_ACROSS; i++) {
      const file = path.join(cacheDir, `N${40 + j}E${String(i).padStart(3, '0')}.tif`);
      fs.copyFileSync(sourceFile, file);
      const ullr = [i - half, 41 + j + half, i + 1 - half, 40 + j + half].map(String);
      // -a_ullr alone leaves an engineering CRS ("unnamed"); the CRS is set again with it.
      execFileSync('gdal_edit.py', ['-a_srs', 'EPSG:4326', '-a_ullr', ...ullr, file], { stdio: 'inherit' });
    }
  }
  fs.writeFileSync(stamp, '');
  return cacheDir;
}

export async function measureRequestMemory(
  dataRoot: string,
  budgetBytes: number,
  maxConcurrentReads: number,
): Promise<RequestMemory> {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bench-memory-'));
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:\n  - name: tiles\n    path: '${dataRoot}'\n    filename_tile_size: 1\n    tile_template: '{NS}{lat:02}{EW}{lon:03}.tif'\n`,
  );
  const registry = loadDatasetRegistry({
    configPath: path.join(dir, 'config.yaml'),
    dataRoot,
    partialDecode: process.env.PARTIAL_DECODE === 'true',
  });
  const tiles = registry.get('tiles');
  const points: LatLon[] = [];
  const step = 1 / BLOCKS_PER_SIDE;
  for (let j = 0; j < TILES_DOWN; j++)
    for (let i = 0; i < TILES_ACROSS; i++)
      for (let by = 0; by < BLOCKS_PER_SIDE; by++)
        for (let bx = 0; bx < BLOCKS_PER_SIDE; bx++)
          points.push({ lat: 41 + j - (by + 0.5) * step, lon: i + (bx + 0.5) * step });
  configureBlockCache(1024 * 1024);
  // Open every tile header first, so the figure is about blocks, not headers.
  await tiles.sample(
    points.filter((_, k) => k % 16 === 0),
    'nearest',
  );
  configureBlockCache(1024 * 1024);
  global.gc?.();
  const idle = external();
  let peak = idle;
  const sampler = setInterval(() => (peak = Math.max(peak, external())), 2);
  const started = performance.now();
  const ctx = fullContext({ limiter: new ReadLimiter(maxConcurrentReads), blockBudgetBytes: budgetBytes });
  const heights = await tiles.sample(points, 'nearest', ctx);
  const ms = performance.now() - started;
  clearInterval(sampler);
  peak = Math.max(peak, external());
  fs.rmSync(dir, { recursive: true, force: true });
  if (heights.some((h) => h === null)) throw new Error('memory bench: a point had no height');
  return {
    points: points.length,
    blocks: ctx.stats.blocksRead,
    peakMiB: (peak - idle) / 2 ** 20,
    budgetMiB: budgetBytes / 2 ** 20,
    ms,
  };
}

function external(): number {
  const usage = process.memoryUsage();
  return usage.arrayBuffers + usage.external;
}
