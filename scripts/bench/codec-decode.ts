/**
 * Decode cost per block of the given GeoTIFFs through the reader (openCogRaster), to compare codecs on the same
 * tile: `npx tsx scripts/bench/codec-decode.ts [--blocks N] [--rounds R] FILE...`, e.g. one tile written by
 * `gdal_translate -of COG -co BLOCKSIZE=256 -co OVERVIEWS=NONE` with COMPRESS=DEFLATE/ZSTD (PREDICTOR=YES) and
 * LERC_ZSTD (MAX_Z_ERROR=0).
 *
 * Per file: bytes on disk, compressed KB per block, and process CPU ms per block (the event loop and libuv's pool:
 * read from the file, decode, predictor) for N blocks spread over the raster, every block decoded whole. The files
 * take turns, R rounds (ABAB...), and the median round is printed beside the others: the machine is shared.
 */
import { statSync } from 'node:fs';
import { fullContext } from '../../layers/elevation';
import { RetryingSource } from '../../layers/elevation/data/byte-source';
import { FileSource } from '../../layers/elevation/data/file-source';
import { allRows } from '../../layers/elevation/raster/block-rows';
import { openCogRaster } from '../../layers/elevation/raster/cog-raster';
import type { Raster } from '../../layers/elevation/raster/raster';
import { cpuMs, median } from './decode-bench';

const POLICY = { timeoutMs: 10_000, retries: 0 };

interface Args {
  blocks: number;
  rounds: number;
  files: string[];
}

function parseArgs(argv: string[]): Args {
  const args: Args = { blocks: 150, rounds: 3, files: [] };
  for (let i = 0; i < argv.length; i++) {
    const flag = argv[i];
    if (flag === '--blocks' || flag === '--rounds') {
      const value = Number(argv[++i]);
      if (!Number.isInteger(value) || value < 1 || value > 10_000) throw new Error(`${flag} wants 1..10000`);
      args[flag === '--blocks' ? 'blocks' : 'rounds'] = value;
    } else args.files.push(flag);
  }
  if (args.files.length === 0) throw new Error('usage: codec-decode.ts [--blocks N] [--rounds R] FILE...');
  return args;
}

/** Block indexes spread over the raster (a fixed stride, so every file of one tile reads the same blocks). */
function spread(raster: Raster, count: number): number[] {
  const total = raster.blocksAcross * raster.blocksDown;
  return Array.from({ length: Math.min(count, total) }, (_, i) => (i * 7919) % total);
}

async function decodeAll(raster: Raster, indexes: number[]): Promise<void> {
  for (const index of indexes) {
    const block = await raster.readBlock(index, fullContext());
    await block.rows(allRows(block.rowCount), fullContext());
  }
}

async function main(): Promise<void> {
  const { blocks, rounds, files } = parseArgs(process.argv.slice(2));
  const rasters = await Promise.all(
    files.map((file) => openCogRaster(new RetryingSource(new FileSource(file), POLICY), 64 * 1024)),
  );
  const indexes = rasters.map((r) => spread(r, blocks));
  const perRound: number[][] = files.map(() => []);
  for (let i = 0; i < rasters.length; i++) await decodeAll(rasters[i], indexes[i].slice(0, 10)); // JIT warm-up
  for (let round = 0; round < rounds; round++) {
    for (let i = 0; i < rasters.length; i++) {
      const started = cpuMs();
      await decodeAll(rasters[i], indexes[i]);
      perRound[i].push((cpuMs() - started) / indexes[i].length);
    }
  }
  console.log(`| file | MB on disk | blocks | CPU ms per block (median of ${rounds}) | rounds |`);
  console.log('| ---- | ---------: | -----: | ---------------: | ------ |');
  files.forEach((file, i) => {
    const mb = (statSync(file).size / 1e6).toFixed(1);
    const all = perRound[i].map((v) => v.toFixed(2)).join(', ');
    console.log(`| ${file} | ${mb} | ${indexes[i].length} | ${median(perRound[i]).toFixed(2)} | ${all} |`);
  });
}

main().catch((error: unknown) => {
  console.error(error instanceof Error ? error.message : error);
  process.exit(2);
});
