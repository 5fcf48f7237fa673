/**
 * dem:optimize's steps: which output each input becomes (refusing what cannot work), then one gdal_translate per
 * tile with the type integer_fit.py proved lossless.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

/** Wrong input or usage: the CLI prints the message and its usage line, and exits 2. */
export class UsageError extends Error {}

export interface OptimizeOptions {
  block: number;
}

export interface TilePlan {
  input: string;
  output: string;
}

export interface TileResult {
  fromType: string;
  toType: string;
  bytesIn: number;
  bytesOut: number;
}

const RASTER = /\.(tif|tiff|geotiff|hgt|hgt\.zip)$/i;
const PYTHON = '/usr/bin/python3'; // Debian's, where python3-gdal lives (a pyenv python has no osgeo)
const INTEGER_FIT = path.join(__dirname, '..', 'gdal', 'integer_fit.py');

/** Every input tile with its output path; throws a UsageError naming the problem before anything is written. */
export function planOutputs(inputs: string[], out: string): TilePlan[] {
  const plan: TilePlan[] = [];
  for (const input of inputs) {
    if (!fs.existsSync(input)) throw new UsageError(`input ${input} does not exist`);
    if (fs.statSync(input).isDirectory()) {
      const tiles = rastersUnder(input);
      if (tiles.length === 0)
        throw new UsageError(`input folder ${input} holds no .tif/.tiff/.hgt/.hgt.zip tile`);
      for (const tile of tiles)
        plan.push({ input: path.join(input, tile), output: path.join(out, tifName(tile)) });
    } else if (!RASTER.test(input)) {
      throw new UsageError(`input ${input} is not a .tif/.tiff/.geotiff/.hgt/.hgt.zip tile`);
    } else {
      plan.push({ input, output: path.join(out, tifName(path.basename(input))) });
    }
  }
  const seen = new Map<string, string>();
  for (const tile of plan) {
    const target = path.resolve(tile.output);
    if (target === path.resolve(tile.input)) {
      throw new UsageError(`${tile.input} would be overwritten by its own output: choose another OUT folder`);
    }
    const earlier = seen.get(target);
    if (earlier) throw new UsageError(`${earlier} and ${tile.input} would both be written to ${tile.output}`);
    seen.set(target, tile.input);
  }
  return plan;
}

/**
 * Refuses a tile that cannot become a DEM COG the API reads (UsageError): called for every tile before any is
 * written, so a bad tile among good ones leaves OUT untouched.
 */
export function checkTile(input: string): RasterInfo {
  const info = rasterInfo(gdalPath(input), input);
  if (info.bands !== 1) throw new UsageError(`${input} has ${info.bands} bands; a DEM tile has one`);
  if (info.scale === 0) {
    // Kept as it is (below), it would make every pixel one height; the API refuses such a file.
    throw new UsageError(`${input} has a band scale of 0, which turns no stored value into a height`);
  }
  if (info.type.startsWith('C')) {
    throw new UsageError(`${input} holds complex samples (${info.type}); a DEM tile holds real heights`);
  }
  return info;
}

/** `info`: what checkTile read of the input (gdalinfo is not run twice per tile). */
export function optimizeTile(
  input: string,
  output: string,
  options: OptimizeOptions,
  info: RasterInfo,
): TileResult {
  const gdalInput = gdalPath(input);
  const toType = narrowestType(gdalInput, input);
  fs.mkdirSync(path.dirname(output), { recursive: true });
  const partial = `${output}.partial`;
  fs.rmSync(partial, { force: true });
  execFileSync(
    'gdal_translate',
    [
      '-q',
      '-of',
      'COG',
      '-ot',
      toType,
      ...['-co', `BLOCKSIZE=${options.block}`],
      ...['-co', 'COMPRESS=DEFLATE', '-co', 'PREDICTOR=YES'], // YES: 2 for integers, 3 for floats
      ...['-co', 'OVERVIEWS=NONE', '-co', 'NUM_THREADS=2'],
      gdalInput,
      partial,
    ],
    { stdio: ['ignore', 'ignore', 'pipe'] },
  );
  fs.renameSync(partial, output); // a reader never sees half a tile under the served name
  return {
    fromType: info.type,
    toType,
    bytesIn: fs.statSync(input).size,
    bytesOut: fs.statSync(output).size,
  };
}

function gdalPath(input: string): string {
  return /\.hgt\.zip$/i.test(input) ? `/vsizip/${input}/${path.basename(input, '.zip')}` : input;
}

/** N48E009.hgt.zip -> N48E009.tif; sub/Name.TIF -> sub/Name.tif (the name part the tile index parses is kept). */
function tifName(relative: string): string {
  return relative.replace(RASTER, '.tif');
}

function rastersUnder(folder: string): string[] {
  return (fs.readdirSync(folder, { recursive: true, encoding: 'utf8' }) as string[])
    .filter((name) => RASTER.test(name) && fs.statSync(path.join(folder, name)).isFile())
    .sort();
}

export interface RasterInfo {
  bands: number;
  type: string;
  /**
   * GDAL's band scale (height = stored × scale + offset). gdal_translate copies scale and offset to the output
   * and integer_fit.py judges the stored values, so the heights the API answers do not change.
   */
  scale: number;
}

function rasterInfo(gdalInput: string, input: string): RasterInfo {
  let text: string;
  try {
    text = execFileSync('gdalinfo', ['-json', gdalInput], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'pipe'],
    });
  } catch (error) {
    throw new UsageError(`${input} is not a raster GDAL can read: ${firstLine(error)}`);
  }
  const json = JSON.parse(text) as { bands?: { type: string; scale?: number }[] };
  const bands = json.bands ?? [];
  const first = bands[0] ?? { type: 'unknown' };
  return {
    bands: bands.length,
    type: first.type,
    scale: first.scale ?? 1,
  };
}

function narrowestType(gdalInput: string, input: string): string {
  try {
    const text = execFileSync(PYTHON, [INTEGER_FIT, gdalInput], { encoding: 'utf8' });
    return (JSON.parse(text) as { type: string }).type;
  } catch (error) {
    throw new Error(`could not read the values of ${input}: ${firstLine(error)}`, { cause: error });
  }
}

function firstLine(error: unknown): string {
  const stderr = (error as { stderr?: Buffer | string }).stderr;
  const text = stderr ? String(stderr) : error instanceof Error ? error.message : String(error);
  return text.trim().split('\n')[0] ?? '';
}
