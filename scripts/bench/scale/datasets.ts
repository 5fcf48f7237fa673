/**
 * The datasets bench:scale measures, built once into an ignored folder (.build/) and reused: the large
 * Copernicus-layout dataset (scripts/bench/scale_dataset.py over ../shared/dem/srtm3-germany) and its
 * `dem:optimize` version. A `.complete.json` marker is written last, so an interrupted build is resumed
 * (finished tiles are kept) rather than trusted.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { checkTile, optimizeTile, planOutputs } from '../../dem-optimize/optimize';

const REPO_ROOT = path.resolve(__dirname, '..', '..', '..');
const SRTM = path.resolve(REPO_ROOT, '..', 'shared', 'dem', 'srtm3-germany');
const BUILDER = path.join(REPO_ROOT, 'scripts', 'bench', 'scale_dataset.py');
/** Bump when the builder's output changes, so stale caches are rebuilt. */
const BUILD_VERSION = 1;
/**
 * dem:optimize's block size for the optimised variant (its default; README "Optimising tiles" has the measured
 * choice). BENCH_OPTIMIZED_BLOCK=128|512 builds and measures another, for that table.
 */
const OPTIMIZED_BLOCK = Number(process.env.BENCH_OPTIMIZED_BLOCK ?? 256);
if (![128, 256, 512].includes(OPTIMIZED_BLOCK)) {
  throw new Error(`BENCH_OPTIMIZED_BLOCK must be 128, 256 or 512, got ${process.env.BENCH_OPTIMIZED_BLOCK}`);
}

export interface ScaleVariant {
  /** Folder name under the root, e.g. cop1024. */
  name: string;
  description: string;
  bytes: number;
  tiles: number;
}

export interface ScaleDatasets {
  /** Served by the data layer; paths in the configs are relative to it. */
  root: string;
  tilesAcross: number;
  /** South-west corner of the first tile, degrees. */
  south: number;
  west: number;
  variants: ScaleVariant[];
}

export function ensureScaleDatasets(quick: boolean, log: (line: string) => void): ScaleDatasets {
  const tilesAcross = quick ? 2 : 6;
  const root = path.join(REPO_ROOT, '.build', quick ? 'bench-scale-quick' : 'bench-scale');
  if (!fs.existsSync(SRTM)) throw new Error(`bench:scale builds its terrain from ${SRTM}, which is missing`);
  const large = path.join(root, 'cop1024');
  buildOnce(large, log, () => {
    log(
      `building ${tilesAcross * tilesAcross} Copernicus-layout tiles into ${path.relative(REPO_ROOT, large)}`,
    );
    execFileSync('/usr/bin/python3', [BUILDER, SRTM, large, String(tilesAcross)], { stdio: 'inherit' });
  });
  const optimized = path.join(root, `opt${OPTIMIZED_BLOCK}`);
  buildOnce(optimized, log, () => {
    log(`dem:optimize --block ${OPTIMIZED_BLOCK} into ${path.relative(REPO_ROOT, optimized)}`);
    for (const tile of planOutputs([large], optimized)) {
      if (!fs.existsSync(tile.output))
        optimizeTile(tile.input, tile.output, { block: OPTIMIZED_BLOCK }, checkTile(tile.input));
    }
  });
  return {
    root,
    tilesAcross,
    south: 45,
    west: 6,
    variants: [
      {
        name: 'cop1024',
        description: 'Float32 DEFLATE PREDICTOR=3, 1024-px blocks, overviews',
        ...sizeOf(large),
      },
      {
        name: `opt${OPTIMIZED_BLOCK}`,
        description: `dem:optimize (block ${OPTIMIZED_BLOCK}, no overviews)`,
        ...sizeOf(optimized),
      },
    ],
  };
}

/** A dataset config (OpenTopoData format) for one variant, written beside the data; returns its repo path. */
export function writeConfig(datasets: ScaleDatasets, variant: string): string {
  const file = path.join(datasets.root, `config-${variant}.yaml`);
  fs.writeFileSync(
    file,
    [
      '# Written by npm run bench:scale.',
      'max_locations_per_request: 512',
      'datasets:',
      '  - name: scale',
      `    path: ${variant}/`,
      '    filename_epsg: 4326',
      '    filename_tile_size: 1',
      '',
    ].join('\n'),
  );
  return path.relative(REPO_ROOT, file);
}

function buildOnce(folder: string, log: (line: string) => void, build: () => void): void {
  const marker = path.join(folder, '.complete.json');
  if (fs.existsSync(marker)) {
    const done = JSON.parse(fs.readFileSync(marker, 'utf8')) as { version?: number };
    if (done.version === BUILD_VERSION) return;
    log(`${folder} was built by an older bench:scale: rebuilding`);
    fs.rmSync(folder, { recursive: true, force: true });
  }
  const started = Date.now();
  build();
  fs.writeFileSync(marker, JSON.stringify({ version: BUILD_VERSION, builtMs: Date.now() - started }));
  log(`  built in ${((Date.now() - started) / 1000).toFixed(0)} s`);
}

function sizeOf(folder: string): { bytes: number; tiles: number } {
  const tiles = fs.readdirSync(folder).filter((name) => name.endsWith('.tif'));
  return {
    bytes: tiles.reduce((sum, name) => sum + fs.statSync(path.join(folder, name)).size, 0),
    tiles: tiles.length,
  };
}
