/**
 * The decode side of a cold point on a 1024x1024 Float32 DEFLATE+PREDICTOR=3 block (the Copernicus layout):
 *  - the physical limit on this machine: node:zlib inflate MB/s (output bytes) and the float predictor's MB/s;
 *  - a cold point in a random row decoded whole (every row) vs partially (down to its window's last row), in
 *    CPU ms (process CPU: the event loop and zlib's thread pool), and how close partial comes to the limit
 *    (the inflate of the rows it needs at the measured MB/s, plus the predictor of two rows);
 *  - the resume path: a block decoded to row r1, then a point at row r2 > r1 (only rows r1..r2 are inflated).
 * Blocks are read from the file first (not timed): this is decode only; elevation-bench times fetch + decode.
 */
import { readFile } from 'node:fs/promises';
import { inflateSync } from 'node:zlib';
import { fromArrayBuffer } from 'geotiff';
import { fullContext } from '../../layers/elevation';
import { allRows } from '../../layers/elevation/raster/block-rows';
import { RetryingSource } from '../../layers/elevation/data/byte-source';
import { FileSource } from '../../layers/elevation/data/file-source';
import { openCogRaster } from '../../layers/elevation/raster/cog-raster';
import { undoFloatingPointPredictor } from '../../layers/elevation/raster/predictor';
import type { Raster } from '../../layers/elevation/raster/raster';

type Report = (name: string, value: string, target?: string, pass?: boolean) => void;

const BLOCK_ROWS = 1024;
const ROW_BYTES = 1024 * 4;
const BLOCK_BYTES = BLOCK_ROWS * ROW_BYTES;
/** Points per measurement: enough for a stable mean on a shared 2-core machine, short enough to rerun. */
const POINTS = 40;
/** The budget for a whole cold point (fetch + decode + sample) on such blocks. */
const TARGET_COLD_POINT_CPU_MS = 12;

/** CPU ms this process has used (the event loop and libuv's pool); codec-decode.ts measures with it too. */
export function cpuMs(): number {
  const { user, system } = process.cpuUsage();
  return (user + system) / 1000;
}

export function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function mean(values: number[]): number {
  return values.reduce((a, b) => a + b, 0) / values.length;
}

/** A deterministic row sequence, uniform over the block (as uniform random points are). */
function rows(n: number, seed: number): number[] {
  let s = seed;
  return Array.from({ length: n }, () => {
    s = (s * 1103515245 + 12345) % 2147483648;
    return Math.floor((s / 2147483648) * BLOCK_ROWS);
  });
}

async function compressedBlocks(file: string): Promise<Uint8Array[]> {
  const bytes = await readFile(file);
  const tiff = await fromArrayBuffer(
    bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength),
  );
  const directory = (await tiff.getImage(0)).fileDirectory;
  const offsets = (await directory.loadValue('TileOffsets')) as ArrayLike<number>;
  const counts = (await directory.loadValue('TileByteCounts')) as ArrayLike<number>;
  return Array.from({ length: 9 }, (_, i) => {
    const index = Math.floor(i / 3) * 4 + (i % 3); // the 3x3 full 1024-px blocks of a 3600-px tile
    return bytes.subarray(Number(offsets[index]), Number(offsets[index]) + Number(counts[index]));
  });
}

/** MB/s of output: node:zlib's inflate and the floating-point predictor, on whole blocks. */
function physicalLimit(blocks: Uint8Array[], report: Report): { inflateMBs: number; predictorMBs: number } {
  const inflateMs: number[] = [];
  const predictorMs: number[] = [];
  for (let pass = 0; pass < 3; pass++) {
    for (const block of blocks) {
      let started = cpuMs();
      const out = inflateSync(block, { chunkSize: BLOCK_BYTES });
      inflateMs.push(cpuMs() - started);
      const bytes = new Uint8Array(out.buffer, out.byteOffset, out.byteLength);
      started = cpuMs();
      undoFloatingPointPredictor(bytes, 1024, 4, 1);
      predictorMs.push(cpuMs() - started);
    }
  }
  const inflateMBs = BLOCK_BYTES / 1e6 / (median(inflateMs) / 1000);
  const predictorMBs = BLOCK_BYTES / 1e6 / (median(predictorMs) / 1000);
  const ratio = mean(blocks.map((b) => BLOCK_BYTES / b.byteLength));
  report('limit: node:zlib inflate, MB/s of output (median block)', inflateMBs.toFixed(0));
  report(`  = ms per whole 4 MiB block (compression ${ratio.toFixed(2)}:1)`, median(inflateMs).toFixed(1));
  report('limit: float predictor (PREDICTOR=3), MB/s', predictorMBs.toFixed(0));
  report('  = ms per whole 4 MiB block', median(predictorMs).toFixed(1));
  return { inflateMBs, predictorMBs };
}

/** A bilinear window's rows in a block: row r and the next (if the block has it). */
const windowRows = (r: number): number[] => (r + 1 < BLOCK_ROWS ? [r, r + 1] : [r]);
const WHOLE = allRows(BLOCK_ROWS);

/** CPU ms of decoding rows `needed(k)` of a fresh block per point. */
async function decodeCost(
  raster: Raster,
  needed: (k: number) => number[],
  points: number,
): Promise<number[]> {
  const ms: number[] = [];
  for (let k = 0; k < points; k++) {
    const block = await raster.readBlock([0, 1, 2, 4, 5, 6, 8, 9, 10][k % 9], fullContext());
    const started = cpuMs();
    await block.rows(needed(k), fullContext());
    ms.push(cpuMs() - started);
  }
  return ms;
}

export async function decodeBenches(file: string, report: Report): Promise<void> {
  const blocks = await compressedBlocks(file);
  const { inflateMBs, predictorMBs } = physicalLimit(blocks, report);
  const opened = (partialDecode: boolean) =>
    openCogRaster(
      new RetryingSource(new FileSource(file), { timeoutMs: 10_000, retries: 0 }),
      64 * 1024,
      undefined,
      { partialDecode },
    );
  // PARTIAL_DECODE=true: rows served as soon as they are inflated; the default inflates (and checksums) the
  // whole block first and undoes the predictor only for the rows read.
  const raster = await opened(true);
  const verifying = await opened(false);
  const random = rows(POINTS, 11);
  await decodeCost(raster, () => WHOLE, 3); // JIT warm-up
  const whole = await decodeCost(raster, () => WHOLE, POINTS);
  const partial = await decodeCost(raster, (k) => windowRows(random[k]), POINTS);
  const checked = await decodeCost(verifying, (k) => windowRows(random[k]), POINTS);
  const limit = mean(
    random.map((r) => {
      const inflated = (Math.min(BLOCK_ROWS, r + 2) * ROW_BYTES) / 1e6;
      return (inflated / inflateMBs + (2 * ROW_BYTES) / 1e6 / predictorMBs) * 1000;
    }),
  );
  report('cold point, random row: decode whole block (mean CPU ms)', mean(whole).toFixed(1));
  report(
    'cold point, random row: partial decode, PARTIAL_DECODE=true (mean CPU ms)',
    mean(partial).toFixed(1),
    `<= ${TARGET_COLD_POINT_CPU_MS} ms (the whole point's budget)`,
    mean(partial) <= TARGET_COLD_POINT_CPU_MS,
  );
  report('  limit for those rows: inflate + predictor of 2 rows (ms)', limit.toFixed(1));
  report(
    '  partial decode vs the limit (limit / measured)',
    `${((100 * limit) / mean(partial)).toFixed(0)}%`,
  );
  report('  saved by partial over whole (mean)', `${(mean(whole) / mean(partial)).toFixed(2)}x`);
  report(
    'cold point, random row: default (whole inflate + checksum, predictor for its rows; mean CPU ms)',
    mean(checked).toFixed(1),
  );

  // Resume: a block first decoded to row r1, then a point at r2 >= r1 (sorted pairs of random rows).
  const second = rows(POINTS, 29);
  const resumed: number[] = [];
  const fromScratch: number[] = [];
  for (let k = 0; k < POINTS; k++) {
    const [r1, r2] = [random[k], second[k]].sort((a, b) => a - b);
    const block = await raster.readBlock([0, 1, 2, 4, 5, 6, 8, 9, 10][k % 9], fullContext());
    await block.rows(windowRows(r1), fullContext());
    const started = cpuMs();
    await block.rows(windowRows(r2), fullContext());
    resumed.push(cpuMs() - started);
    const fresh = await raster.readBlock([0, 1, 2, 4, 5, 6, 8, 9, 10][k % 9], fullContext());
    const t = cpuMs();
    await fresh.rows(windowRows(r2), fullContext());
    fromScratch.push(cpuMs() - t);
  }
  report('resume: second point lower in a partly decoded block (mean CPU ms)', mean(resumed).toFixed(1));
  report('  the same point decoded from the block start (mean CPU ms)', mean(fromScratch).toFixed(1));
}
