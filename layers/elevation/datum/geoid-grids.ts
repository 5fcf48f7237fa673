/**
 * The geoid grids (EGM96, EGM2008 undulations N in metres) as datasets of their own registry, so they are
 * read like any COG (range reads, the shared block cache) but never listed or queried as elevation datasets.
 * Declared in the datasets file as `geoids: {egm96: <path>, egm2008: <path>}` (paths as dataset paths).
 */
import { stringify } from 'yaml';
import { parseApiConfig, parseConfigYaml, readConfigText, YAML_OPTIONS } from '../config/dataset-config';
import { DatasetRegistry, type RegistryOptions } from '../dataset/registry';
import { DatasetConfigError, DatasetUnavailableError, InvalidRequestError } from '../errors';
import type { Raster } from '../raster/raster';
import type { Elevation, LatLon, ReadContext } from '../types';
import { tryParseVerticalDatum, type Geoid } from './vertical-datum';

/**
 * @example
 * ```ts
 * const grids = new GeoidGrids(readGeoidPaths('layers/dem-sample/config.yaml'), {
 *   dataRoot: 'layers/dem-sample', headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 2, missingTtlMs: 60000,
 * });
 * const [n] = await grids.undulations('egm96', [{ lat: 48.7, lon: 9.1 }]);
 * assert.ok(n !== null && n > 45 && n < 50); // EGM96 lies ~48 m above the ellipsoid near Stuttgart
 * assert.throws(() => grids.require('egm2008'), InvalidRequestError);
 * ```
 */
export class GeoidGrids {
  private readonly registry: DatasetRegistry | null;

  constructor(
    readonly paths: Readonly<Partial<Record<Geoid, string>>>,
    options: RegistryOptions,
  ) {
    const datasets = Object.entries(paths).map(([name, path]) => ({ name, path }));
    // Every grid file is checked when it is opened, and again when it is opened anew (replaced under a running
    // environment: a check made once would let a grid swapped in later answer a wrong N).
    this.registry =
      datasets.length === 0
        ? null
        : // Written with the resolvers it is read with, so a path PyYAML reads as a number (`1_000`) is quoted.
          new DatasetRegistry(parseApiConfig(stringify({ datasets }, YAML_OPTIONS), 'geoids'), {
            ...options,
            accept: (raster) => checkGlobal(raster, `geoid grid ${raster.url}`),
          });
  }

  has(geoid: Geoid): boolean {
    return this.paths[geoid] !== undefined;
  }

  /** A 400 when `geoid`'s grid is not configured: checked for every grid a conversion needs before any is read. */
  require(geoid: Geoid): void {
    if (this.registry && this.has(geoid)) return;
    throw new InvalidRequestError(
      `No ${geoid.toUpperCase()} geoid grid is configured, so heights cannot be converted to or from ${geoid}. An operator adds it as 'geoids: {${geoid}: <path to the grid COG>}' in the datasets file.`,
    );
  }

  /** N at each point (bilinear, as PROJ interpolates geoid grids); a 400 when that grid is not configured. */
  async undulations(
    geoid: Geoid,
    points: readonly LatLon[],
    ctx: Partial<ReadContext> = {},
  ): Promise<Elevation[]> {
    this.require(geoid);
    try {
      return await this.registry!.get(geoid).sample(points, 'bilinear', ctx);
    } catch (error) {
      // The registry names the grid as a dataset ('egm96'), which no client asked for.
      if (!(error instanceof DatasetUnavailableError)) throw error;
      throw new DatasetUnavailableError(geoid, error.reason, {
        cause: error,
        subject: `The ${geoid.toUpperCase()} geoid grid`,
      });
    }
  }
}

/** Pixel-centre tolerance, in degrees (a 2.5' grid's centres are not exact in binary). */
const GLOBE_TOLERANCE_DEG = 1e-6;

/**
 * A geoid grid must hold N everywhere a point can be: one geographic raster whose pixel centres reach both poles
 * and both sides of the antimeridian, with a repeated column at 180 (bilinear between 179.75 and 180 needs it;
 * PROJ wraps instead). PROJ's own grids (egm96_15.gtx, us_nga_egm08_25.tif) have no repeated column, so read
 * raw they answer wrong undulations east of their last column and null beyond it; a regional or 0..360 grid
 * answers null for much of the world. Refused, saying how to make a usable one.
 */
export function checkGlobal(raster: Pick<Raster, 'grid' | 'crs'>, which: string): void {
  const refuse = (why: string): never => {
    throw new DatasetConfigError(
      `${which}: ${why}; a geoid grid must be one EPSG:4326 raster whose pixel centres span longitude -180..180 (the column at -180 repeated at 180) and latitude -90..90: make it with scripts/geoid/make-geoid-cog.sh.`,
    );
  };
  if (raster.crs.key !== 'EPSG:4326') refuse(`its CRS is ${raster.crs.key}`);
  // The grid is corner-based (a pixel-is-point file's tiepoint already moved half a pixel): centres inside.
  const { originX, originY, width, height, resX, resY } = raster.grid;
  const centres = [
    originX + resX / 2,
    originY + (height - 0.5) * resY,
    originX + (width - 0.5) * resX,
    originY + resY / 2,
  ];
  const [w, s, e, n] = centres.map((v) => Math.round(v * 1e6) / 1e6);
  if (
    centres[0] > -180 + GLOBE_TOLERANCE_DEG ||
    centres[2] < 180 - GLOBE_TOLERANCE_DEG ||
    centres[1] > -90 + GLOBE_TOLERANCE_DEG ||
    centres[3] < 90 - GLOBE_TOLERANCE_DEG
  )
    refuse(`its pixel centres span longitude ${w}..${e} and latitude ${s}..${n}`);
}

/**
 * The `geoids:` mapping of a datasets file (OpenTopoData ignores the key); {} when absent.
 *
 * @example
 * ```ts
 * assert.deepEqual(readGeoidPaths('layers/dem-sample/config.yaml'), { egm96: 'geoid/egm96-15.tif' });
 * assert.deepEqual(readGeoidPaths('test/fixtures/config.yaml'), {});
 * ```
 */
export function readGeoidPaths(configPath: string): Partial<Record<Geoid, string>> {
  const raw: unknown = parseConfigYaml(readConfigText(configPath));
  const geoids =
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).geoids : undefined;
  if (geoids === undefined || geoids === null) return {};
  if (typeof geoids !== 'object' || Array.isArray(geoids))
    throw new DatasetConfigError(`${configPath}: 'geoids' must be a mapping`);
  const paths: Partial<Record<Geoid, string>> = {};
  for (const [key, value] of Object.entries(geoids as Record<string, unknown>)) {
    // Names as a request's datum= takes them (any case, egm08), so `EGM96:` is not a 500 at the first request.
    const geoid = tryParseVerticalDatum(key);
    if (geoid === null || geoid === 'ellipsoid') {
      throw new DatasetConfigError(`${configPath}: unknown geoid '${key}' (use egm96 or egm2008)`);
    }
    if (paths[geoid] !== undefined)
      throw new DatasetConfigError(`${configPath}: geoids names the ${geoid} grid twice ('${key}')`);
    if (typeof value !== 'string' || value.trim() === '')
      throw new DatasetConfigError(`${configPath}: geoids.${key} must be a path`);
    paths[geoid] = value;
  }
  return paths;
}
