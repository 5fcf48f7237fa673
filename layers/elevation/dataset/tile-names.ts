/**
 * Tile names carry their lower-left corner in the dataset's filename CRS (OpenTopoData's convention):
 * SRTM `N48E009.hgt`, EU-DEM `N2000000E4000000.TIF` (metres), Copernicus `Copernicus_DSM_COG_10_N48_00_E009_00_DEM.tif`.
 * Remote buckets cannot be listed, so names are also *computed* from a template such as "{NS}{lat:02}{EW}{lon:03}.tif".
 */
import { exactSteps, stepsText } from './decimal-steps';

/** Tile grid position: the lower-left corner divided by the tile size. */
export interface TileKey {
  readonly ix: number;
  readonly iy: number;
}

export function tileKeyId(key: TileKey): string {
  return `${key.ix},${key.iy}`;
}

export function parseTileKeyId(id: string): TileKey {
  const comma = id.indexOf(',');
  return { ix: Number(id.slice(0, comma)), iy: Number(id.slice(comma + 1)) };
}

/**
 * OpenTopoData's corner, `[NS][\dx]+_?[WE][\dx]+` in any case with `x` read as the decimal point
 * (`N48x5E009x5.tif` is 48.5 N, 9.5 E); also Copernicus's `N48_00_E009_00` and `N48.5E009.5`.
 */
const CORNER = /([NS])([\dx]+(?:\.\d+)?)(?:_\d+)?_?([EW])([\dx]+(?:\.\d+)?)/i;

/** A corner's number, `x` or `.` as its point; NaN for two points or none but `x` (OpenTopoData's Decimal fails). */
function cornerNumber(text: string): number {
  const decimal = text.replace(/x/gi, '.');
  return /^(?:\d+\.?\d*|\.\d+)$/.test(decimal) ? Number(decimal) : NaN;
}

/** Lower-left corner parsed from a file name, or null when the name carries none. */
export function tryParseTileCorner(fileName: string): { x: number; y: number } | null {
  const match = CORNER.exec(fileName);
  if (!match) return null;
  const [north, east] = [cornerNumber(match[2]), cornerNumber(match[4])];
  if (Number.isNaN(north) || Number.isNaN(east)) return null;
  const y = match[1].toUpperCase() === 'S' ? -north : north;
  const x = match[3].toUpperCase() === 'W' ? -east : east;
  return { x, y };
}

/** The corner's grid key, or null when the corner is not a whole number of tile sizes from 0 (48.5 in 1° tiles). */
export function tileKeyOfCorner(corner: { x: number; y: number }, tileSize: number): TileKey | null {
  const ix = exactSteps(corner.x, tileSize);
  const iy = exactSteps(corner.y, tileSize);
  return ix === null || iy === null ? null : { ix, iy };
}

const copernicus = (arcSeconds: 10 | 30) => {
  const name = `Copernicus_DSM_COG_${arcSeconds}_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM`;
  return `${name}/${name}.tif`;
};

/** Named templates for well-known public layouts (config `tile_template: copernicus-glo30`). */
export const TEMPLATE_PRESETS: Record<string, string> = {
  'copernicus-glo30': copernicus(10),
  'copernicus-glo90': copernicus(30),
  srtm: '{NS}{lat:02}{EW}{lon:03}.tif',
};

export function expandTemplate(template: string): string {
  return TEMPLATE_PRESETS[template] ?? template;
}

/** The raster files OpenTopoData reads, in any case: GeoTIFF (.tif, .tiff, .geotiff) and SRTM (.hgt, .hgt.zip). */
const RASTER_FILE = /\.(tif|tiff|geotiff|hgt|hgt\.zip)$/i;

export function isRasterFile(name: string): boolean {
  return RASTER_FILE.test(name);
}

/** A GDAL VRT (read as a mosaic of its sources, see vrt-mosaic.ts); never a tile of a tiled dataset. */
export function isVrtFile(name: string): boolean {
  return /\.vrt$/i.test(name);
}

/**
 * Where a folder cannot be listed, each tile's name is computed and these extensions are tried in this order
 * (each miss costs one 404, remembered for MISSING_TTL_S): GeoTIFF first (COGs are what we recommend), then SRTM
 * in its two forms, then the rarer spellings OpenTopoData also accepts. `tile_template` skips the guessing.
 */
export const FALLBACK_EXTENSIONS = ['.tif', '.hgt', '.hgt.zip', '.tiff', '.TIF', '.geotiff'] as const;

export function defaultTemplates(filenameEpsg: number): string[] {
  const stem = defaultTemplate(filenameEpsg).replace(/\.tif$/, '');
  return FALLBACK_EXTENSIONS.map((ext) => stem + ext);
}

/** Default template: SRTM-style names for degrees, EU-DEM-style names for metres. */
export function defaultTemplate(filenameEpsg: number): string {
  return filenameEpsg === 4326 ? '{NS}{lat:02}{EW}{lon:03}.tif' : '{NS}{lat}{EW}{lon}.tif';
}

const PLACEHOLDER = /\{(NS|EW|lat|lon)(?::0(\d+))?\}/g;

export function formatTileName(template: string, key: TileKey, tileSize: number): string {
  const [x, y] = [key.ix, key.iy];
  return template.replace(PLACEHOLDER, (_all, field: string, width?: string) => {
    if (field === 'NS') return y < 0 ? 'S' : 'N';
    if (field === 'EW') return x < 0 ? 'W' : 'E';
    // A fraction is written with x for its point, as OpenTopoData reads names (N48x5E009x5).
    const { whole, fraction } = stepsText(field === 'lat' ? key.iy : key.ix, tileSize);
    return (width ? whole.padStart(Number(width), '0') : whole) + (fraction ? `x${fraction}` : '');
  });
}

export function isValidTemplate(template: string): boolean {
  const fields = new Set([...template.matchAll(PLACEHOLDER)].map((m) => m[1]));
  return ['NS', 'EW', 'lat', 'lon'].every((f) => fields.has(f));
}

/** The public Copernicus DEM GLO-30 COG layout (1 arc-second). */
export const COPERNICUS_TEMPLATE = TEMPLATE_PRESETS['copernicus-glo30'];
