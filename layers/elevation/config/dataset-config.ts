/**
 * The datasets file: OpenTopoData's config.yaml format, so its users can switch unchanged, plus optional
 * extensions (`tile_template`, `vertical_datum`). Validated once at cold start; errors name the field.
 */
import { readFileSync } from 'node:fs';
import { parse } from 'yaml';
import { DatasetConfigError } from '../errors';
import { expandTemplate, isValidTemplate, TEMPLATE_PRESETS } from '../dataset/tile-names';

export interface DatasetDefinition {
  name: string;
  path: string | null;
  filenameEpsg: number;
  filenameTileSize: number | null;
  tileTemplate: string | null;
  childDatasets: string[] | null;
  verticalDatum: string | null;
  /** OpenTopoData's `wgs84_bounds`: points outside [west, south, east, north] are null without any read. */
  wgs84Bounds: [number, number, number, number] | null;
}

export interface ApiConfig {
  maxLocationsPerRequest: number;
  accessControlAllowOrigin: string | null;
  datasets: DatasetDefinition[];
}

const DEFAULT_MAX_LOCATIONS = 100;

/**
 * @example
 * ```ts
 * const config = loadApiConfig('test/fixtures/config.yaml');
 * assert.equal(config.datasets[0].name, 'plane-point');
 * ```
 */
export function loadApiConfig(file: string): ApiConfig {
  let text: string;
  try {
    text = readFileSync(file, 'utf8');
  } catch (error) {
    throw new DatasetConfigError(
      `Cannot read config file ${file} (CONFIG_PATH): ${(error as Error).message}`,
    );
  }
  return parseApiConfig(text, file);
}

/**
 * @example
 * ```ts
 * const config = parseApiConfig('datasets:\n  - name: srtm\n    path: data/srtm/\n    filename_tile_size: 1\n');
 * assert.equal(config.maxLocationsPerRequest, 100); // OpenTopoData's default
 * assert.equal(config.datasets[0].filenameTileSize, 1);
 * assert.throws(() => parseApiConfig('datasets: []'), DatasetConfigError);
 * ```
 */
export function parseApiConfig(text: string, source = 'config'): ApiConfig {
  let raw: unknown;
  try {
    raw = parse(text);
  } catch (error) {
    throw new DatasetConfigError(`${source} is not valid YAML: ${(error as Error).message}`);
  }
  const fail = (message: string): never => {
    throw new DatasetConfigError(`${source}: ${message}`);
  };
  if (!isRecord(raw)) return fail('expected a mapping with a `datasets` list');
  const datasetsRaw = raw.datasets;
  if (!Array.isArray(datasetsRaw) || datasetsRaw.length === 0)
    return fail('`datasets` must be a non-empty list');
  // OpenTopoData's default when the config omits it (its users' clients are written against it).
  const maxLocations = raw.max_locations_per_request ?? DEFAULT_MAX_LOCATIONS;
  if (!Number.isInteger(maxLocations) || (maxLocations as number) < 1)
    fail('`max_locations_per_request` must be a positive integer');
  const datasets = datasetsRaw.map((entry, i) => parseDataset(entry, i, fail));
  const names = new Set<string>();
  for (const d of datasets) {
    if (names.has(d.name)) fail(`dataset name '${d.name}' is declared twice`);
    names.add(d.name);
  }
  for (const d of datasets) {
    const children = d.childDatasets ?? [];
    for (const child of children) {
      if (!names.has(child)) fail(`dataset '${d.name}' lists unknown child dataset '${child}'`);
      if (children.indexOf(child) !== children.lastIndexOf(child))
        fail(`dataset '${d.name}' lists child dataset '${child}' twice`);
      if (datasets.find((c) => c.name === child)?.childDatasets)
        fail(`dataset '${d.name}': child '${child}' may not itself have children`);
    }
  }
  const origin = raw.access_control_allow_origin;
  return {
    maxLocationsPerRequest: maxLocations as number,
    accessControlAllowOrigin: origin === undefined || origin === null ? null : String(origin),
    datasets,
  };
}

function parseDataset(entry: unknown, index: number, fail: (message: string) => never): DatasetDefinition {
  if (!isRecord(entry)) return fail(`datasets[${index}] must be a mapping`);
  const name = String(entry.name ?? '');
  // A literal per call, not a module constant: StrykerJS cannot test mutants of module-level values per test.
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    fail(`datasets[${index}].name must be letters, digits, '.', '_' or '-', got '${name}'`);
  const children = entry.child_datasets;
  if (children !== undefined) {
    if (!Array.isArray(children) || children.length === 0 || !children.every((c) => typeof c === 'string')) {
      fail(`dataset '${name}': child_datasets must be a non-empty list of dataset names`);
    }
    // Read nowhere (each point's height is in its answering child's datum): kept, it would look converted.
    if (entry.vertical_datum !== undefined)
      fail(
        `dataset '${name}': vertical_datum is not read on a multi-dataset; each point's height is in the datum of the child dataset that answers it, so set it on those`,
      );
    return {
      name,
      path: null,
      filenameEpsg: 4326,
      filenameTileSize: null,
      tileTemplate: null,
      childDatasets: children as string[],
      verticalDatum: null,
      wgs84Bounds: null,
    };
  }
  if (typeof entry.path !== 'string' || entry.path.trim() === '')
    fail(`dataset '${name}' needs a path (or child_datasets)`);
  const epsg = entry.filename_epsg ?? 4326;
  if (!Number.isInteger(epsg)) fail(`dataset '${name}': filename_epsg must be an EPSG code like 4326`);
  const tileSize = entry.filename_tile_size ?? null;
  if (tileSize !== null && !(typeof tileSize === 'number' && tileSize > 0))
    fail(`dataset '${name}': filename_tile_size must be a positive number`);
  const template =
    typeof entry.tile_template === 'string'
      ? expandTemplate(entry.tile_template)
      : (entry.tile_template ?? null);
  if (template !== null && (typeof template !== 'string' || !isValidTemplate(template))) {
    fail(
      `dataset '${name}': tile_template must contain {NS}, {lat}, {EW} and {lon}, or be one of ${Object.keys(TEMPLATE_PRESETS).join(', ')}`,
    );
  }
  return {
    name,
    path: (entry.path as string).trim(),
    filenameEpsg: epsg as number,
    filenameTileSize: tileSize as number | null,
    tileTemplate: template as string | null,
    childDatasets: null,
    verticalDatum: verticalDatumOf(entry.vertical_datum, name, fail),
    wgs84Bounds: parseBounds(entry.wgs84_bounds, name, fail),
  };
}

/** `wgs84_bounds: {left, right, bottom, top}` in degrees, as OpenTopoData writes it. */
function parseBounds(
  raw: unknown,
  name: string,
  fail: (message: string) => never,
): [number, number, number, number] | null {
  if (raw === undefined || raw === null) return null;
  const b = isRecord(raw) ? raw : {};
  const [left, bottom, right, top] = [b.left, b.bottom, b.right, b.top].map(Number);
  if (![left, bottom, right, top].every(Number.isFinite) || left >= right || bottom >= top) {
    return fail(`dataset '${name}': wgs84_bounds needs numeric left < right and bottom < top (degrees)`);
  }
  return [left, bottom, right, top];
}

function isRecord(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

/**
 * `vertical_datum` as written (any name: one this API cannot convert is still listed), trimmed; null when absent
 * or blank. Anything but text is refused: YAML reads `vertical_datum: 5773` as a number, which was dropped.
 */
function verticalDatumOf(raw: unknown, name: string, fail: (message: string) => never): string | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw !== 'string')
    return fail(
      `dataset '${name}': vertical_datum must be a name such as EGM96, EGM2008 or ellipsoid, got ${String(raw)}`,
    );
  return raw.trim() === '' ? null : raw.trim();
}
