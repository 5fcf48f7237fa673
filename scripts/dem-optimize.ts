/**
 * `npm run dem:optimize -- [--block 128|256|512] IN... OUT`: rewrites DEM tiles as COGs laid out for point
 * queries (needs Debian's gdal-bin and python3-gdal):
 *  - small internal blocks (default 256: a cold point inflates 256 KB of Float32 instead of Copernicus' 4 MB;
 *    README "Optimising tiles" has the measured 128/256/512 trade-off);
 *  - DEFLATE with a predictor (2 for integers, 3 for floats): the lossless codec both GDAL and the API's reader
 *    decode that carries a checksum (the reader also decodes ZSTD, which GDAL writes without one; README);
 *  - an integer type where every stored value is whole and fits (SRTM-derived Float32 tiles become Int16, half
 *    the bytes), Float32 otherwise (scripts/gdal/integer_fit.py); a band scale/offset of the input is kept (the
 *    reader applies it), none is added: Float32(k × 0.1) is not k × 0.1, so floats quantised into a scaled integer
 *    type would change the heights answered;
 *  - no overviews: point queries read full resolution only.
 * IN is a tile file or a folder of tiles (searched recursively, so Copernicus' folder-per-tile layout keeps its
 * relative paths); OUT is a folder. Each tile keeps its name (extension .tif), so a folder dataset's config only
 * needs its path changed, or nothing at all when OUT replaces the folder it serves.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import {
  checkTile,
  optimizeTile,
  planOutputs,
  UsageError,
  type OptimizeOptions,
} from './dem-optimize/optimize';

const BLOCK_SIZES = [128, 256, 512] as const;
const DEFAULT_BLOCK = 256;
const USAGE = 'usage: npm run dem:optimize -- [--block 128|256|512] IN... OUT   (IN: tile files or folders)';

export function parseArgs(argv: string[]): { inputs: string[]; out: string; options: OptimizeOptions } {
  const rest: string[] = [];
  let block: number = DEFAULT_BLOCK;
  for (let i = 0; i < argv.length; i++) {
    if (argv[i] === '--block') {
      block = Number(argv[++i]);
      if (!(BLOCK_SIZES as readonly number[]).includes(block)) {
        throw new UsageError(`--block must be one of ${BLOCK_SIZES.join(', ')}, got "${argv[i] ?? ''}"`);
      }
    } else if (argv[i].startsWith('--')) {
      throw new UsageError(`unknown option ${argv[i]}`);
    } else {
      rest.push(argv[i]);
    }
  }
  if (rest.length < 2) throw new UsageError('give at least one input and the output folder');
  return { inputs: rest.slice(0, -1), out: rest[rest.length - 1], options: { block } };
}

function requireGdal(): void {
  for (const [tool, hint] of [
    ['gdal_translate', 'apt-get install gdal-bin'],
    ['/usr/bin/python3', 'apt-get install python3-gdal python3-numpy'],
  ]) {
    try {
      execFileSync(tool, tool.endsWith('python3') ? ['-c', 'import osgeo, numpy'] : ['--version'], {
        stdio: 'ignore',
      });
    } catch {
      throw new UsageError(`${tool} (with GDAL) is not usable here: ${hint}`);
    }
  }
}

function main(): void {
  const { inputs, out, options } = parseArgs(process.argv.slice(2));
  requireGdal();
  if (fs.existsSync(out) && !fs.statSync(out).isDirectory()) {
    throw new UsageError(`OUT must be a folder, but ${out} is a file`);
  }
  const plan = planOutputs(inputs, out);
  const infos = plan.map((tile) => checkTile(tile.input)); // every refusal before anything is written
  fs.mkdirSync(out, { recursive: true });
  let bytesIn = 0;
  let bytesOut = 0;
  for (const [i, tile] of plan.entries()) {
    const result = optimizeTile(tile.input, tile.output, options, infos[i]);
    bytesIn += result.bytesIn;
    bytesOut += result.bytesOut;
    console.log(
      `  ${tile.input} -> ${tile.output} (${result.fromType} -> ${result.toType}, block ${options.block}, ` +
        `${mb(result.bytesIn)} -> ${mb(result.bytesOut)} MB)`,
    );
  }
  console.log(`optimised ${plan.length} tile(s) into ${out}: ${mb(bytesIn)} MB -> ${mb(bytesOut)} MB`);
}

function mb(bytes: number): string {
  return (bytes / 1e6).toFixed(1);
}

if (require.main === module) {
  try {
    main();
  } catch (error) {
    const message = error instanceof Error ? error.message : String(error);
    console.error(`dem:optimize: ${message}`);
    if (error instanceof UsageError) console.error(USAGE);
    process.exit(error instanceof UsageError ? 2 : 1);
  }
}
