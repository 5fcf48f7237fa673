/**
 * The geoid grids (EGM96, EGM2008 undulations N in metres) as datasets of their own registry, so they are
 * read like any COG (range reads, the shared block cache) but never listed or queried as elevation datasets.
 * Declared in the datasets file as `geoids: {egm96: <path>, egm2008: <path>}` (paths as dataset paths).
 */
import { readFileSync } from 'node:fs';
import { parse, stringify } from 'yaml';
import { parseApiConfig } from '../config/dataset-config';
import { DatasetRegistry, type RegistryOptions } from '../dataset/registry';
import { DatasetConfigError, InvalidRequestError } from '../errors';
import type { Elevation, LatLon, ReadContext } from '../types';
import type { Geoid } from './vertical-datum';

/**
 * @example
 * ```ts
 * const grids = new GeoidGrids(readGeoidPaths('layers/dem-sample/config.yaml'), {
 *   dataRoot: 'layers/dem-sample', headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 2, missingTtlMs: 60000,
 * });
 * const [n] = await grids.undulations('egm96', [{ lat: 48.7, lon: 9.1 }]);
 * assert.ok(n !== null && n > 45 && n < 50); // EGM96 lies ~48 m above the ellipsoid near Stuttgart
 * assert.throws(() => grids.undulations('egm2008', [{ lat: 0, lon: 0 }]), InvalidRequestError);
 * ```
 */
export class GeoidGrids {
  private readonly registry: DatasetRegistry | null;

  constructor(
    readonly paths: Readonly<Partial<Record<Geoid, string>>>,
    options: RegistryOptions,
  ) {
    const datasets = Object.entries(paths).map(([name, path]) => ({ name, path }));
    this.registry =
      datasets.length === 0
        ? null
        : new DatasetRegistry(parseApiConfig(stringify({ datasets }), 'geoids'), options);
  }

  has(geoid: Geoid): boolean {
    return this.paths[geoid] !== undefined;
  }

  /** N at each point (bilinear, as PROJ interpolates geoid grids); a 400 when that grid is not configured. */
  undulations(geoid: Geoid, points: readonly LatLon[], ctx: Partial<ReadContext> = {}): Promise<Elevation[]> {
    if (!this.registry || !this.has(geoid)) {
      throw new InvalidRequestError(
        `No ${geoid.toUpperCase()} geoid grid is configured, so heights cannot be converted to or from ${geoid}. An operator adds it as 'geoids: {${geoid}: <path to the grid COG>}' in the datasets file.`,
      );
    }
    return this.registry.get(geoid).sample(points, 'bilinear', ctx);
  }
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
  const raw: unknown = parse(readFileSync(configPath, 'utf8'));
  const geoids =
    typeof raw === 'object' && raw !== null ? (raw as Record<string, unknown>).geoids : undefined;
  if (geoids === undefined || geoids === null) return {};
  if (typeof geoids !== 'object' || Array.isArray(geoids))
    throw new DatasetConfigError(`${configPath}: 'geoids' must be a mapping`);
  const paths: Partial<Record<Geoid, string>> = {};
  for (const [key, value] of Object.entries(geoids as Record<string, unknown>)) {
    if (key !== 'egm96' && key !== 'egm2008') {
      throw new DatasetConfigError(`${configPath}: unknown geoid '${key}' (use egm96 or egm2008)`);
    }
    if (typeof value !== 'string')
      throw new DatasetConfigError(`${configPath}: geoids.${key} must be a path`);
    paths[key] = value;
  }
  return paths;
}
