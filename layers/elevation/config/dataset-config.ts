/**
 * The datasets file: OpenTopoData's config.yaml format, so its users can switch unchanged, plus optional
 * extensions (`tile_template`, `vertical_datum`). Validated once at cold start; errors name the field.
 */
import { readFileSync, statSync } from 'node:fs';
import { parse } from 'yaml';
import { decimalNumber } from '../request/decimal';
import { DatasetConfigError, excerpt } from '../errors';
import { expandTemplate, isValidTemplate, TEMPLATE_PRESETS } from '../dataset/tile-names';
import { PYYAML_SCALARS } from './pyyaml-scalars';

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
  return parseApiConfig(readConfigText(file), file);
}

/**
 * The largest config read: OpenTopoData's run to a few KB, 1,000 datasets to ~100 KB. A 50 MB string in one
 * passed the start-up check and then killed every function as it loaded, so npm start never came up nor stopped
 * (a helper's probe).
 */
export const MAX_CONFIG_BYTES = 1024 * 1024;
/** The most datasets a config names: 100,000 made npm start's check open that many files at once (EMFILE). */
export const MAX_DATASETS = 1000;

/** A config file's text (CONFIG_PATH), refused unread past MAX_CONFIG_BYTES. */
export function readConfigText(file: string): string {
  try {
    const size = statSync(file).size;
    if (size > MAX_CONFIG_BYTES) {
      throw new DatasetConfigError(
        `Config file ${file} (CONFIG_PATH) is ${size} bytes, over the ${MAX_CONFIG_BYTES} bytes read: a config names datasets, it holds no data.`,
      );
    }
    const bytes = readFileSync(file);
    // A UTF-16 file read as UTF-8 was "expected a mapping with a `datasets` list", naming nothing of its encoding.
    if ((bytes[0] === 0xff && bytes[1] === 0xfe) || (bytes[0] === 0xfe && bytes[1] === 0xff)) {
      throw new DatasetConfigError(`Config file ${file} (CONFIG_PATH) is UTF-16: save it as UTF-8.`);
    }
    return bytes.toString('utf8');
  } catch (error) {
    if (error instanceof DatasetConfigError) throw error;
    throw new DatasetConfigError(
      `Cannot read config file ${file} (CONFIG_PATH): ${(error as Error).message}`,
    );
  }
}

/** The schema of a datasets file: strings, mappings and lists, plain scalars resolved as PyYAML resolves them. */
export const YAML_OPTIONS = { schema: 'failsafe', customTags: PYYAML_SCALARS } as const;

/**
 * A datasets file's YAML as OpenTopoData reads it (PyYAML), where the two differ in a way a config shows: merge
 * keys (`<<: *defaults`) are applied, and plain scalars are numbers, booleans and nulls by YAML 1.1's rules
 * (pyyaml-scalars.ts: `1_000` is 1000, `010` is 8, `1e3` a string). YAML 1.2 (the parser's default) reads `<<` as a
 * plain key, so settings shared by an anchor (a `vertical_datum`, `wgs84_bounds`) were dropped without a word,
 * answering heights in the wrong datum.
 */
export function parseConfigYaml(text: string): unknown {
  return parse(text, { merge: true, ...YAML_OPTIONS });
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
    raw = parseConfigYaml(text);
  } catch (error) {
    throw new DatasetConfigError(`${source} is not valid YAML: ${(error as Error).message}`);
  }
  const fail = (message: string): never => {
    throw new DatasetConfigError(`${source}: ${message}`);
  };
  if (!isRecord(raw)) return fail('expected a mapping with a `datasets` list');
  // The keys OpenTopoData reads, and ours (geoids).
  refuseMisspelt(
    raw,
    ['max_locations_per_request', 'access_control_allow_origin', 'datasets', 'geoids'],
    '',
    fail,
  );
  const datasetsRaw = raw.datasets;
  if (!Array.isArray(datasetsRaw) || datasetsRaw.length === 0)
    return fail('`datasets` must be a non-empty list');
  if (datasetsRaw.length > MAX_DATASETS)
    fail(`\`datasets\` lists ${datasetsRaw.length} datasets, more than the ${MAX_DATASETS} one API serves`);
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
  return {
    maxLocationsPerRequest: maxLocations as number,
    accessControlAllowOrigin: originOf(raw.access_control_allow_origin, fail),
    datasets,
  };
}

/** What YAML made of a scalar meant as text, when it is a number or a boolean; undefined for text (or nothing). */
function readAsOtherThanText(value: unknown): string | undefined {
  if (typeof value === 'number') return `the number ${value}`;
  if (typeof value === 'boolean') return `the boolean ${value}`;
  return undefined;
}

function parseDataset(entry: unknown, index: number, fail: (message: string) => never): DatasetDefinition {
  if (!isRecord(entry)) return fail(`datasets[${index}] must be a mapping`);
  // PyYAML reads `name: 1.5e+3` as 1500, `name: 0x10` as 16 and `name: no` (Norway) as false: a dataset no URL
  // written as the file says would reach (`no` was served as "false").
  const unquoted = readAsOtherThanText(entry.name);
  if (unquoted) fail(`datasets[${index}].name is read as ${unquoted} by YAML (PyYAML): quote it ('...')`);
  const name = String(entry.name ?? '');
  // A literal per call, not a module constant: StrykerJS cannot test mutants of module-level values per test.
  if (!/^[A-Za-z0-9_.-]+$/.test(name))
    fail(`datasets[${index}].name must be letters, digits, '.', '_' or '-', got '${excerpt(name)}'`);
  if (name === '.' || name === '..') fail(`datasets[${index}].name '${name}' cannot be reached by a URL`);
  // A name is a metric dimension: CloudWatch refuses a value over 1,024 characters (the request's whole metric
  // document with it) and alarms take at most 255.
  if (name.length > 255)
    fail(
      `datasets[${index}].name is ${name.length} characters long, more than 255 (a metric dimension's limit)`,
    );
  // The keys OpenTopoData reads, and ours (vertical_datum, tile_template).
  refuseMisspelt(
    entry,
    [
      'name',
      'path',
      'filename_epsg',
      'filename_tile_size',
      'child_datasets',
      'wgs84_bounds',
      'vertical_datum',
      'tile_template',
    ],
    `dataset '${name}': `,
    fail,
  );
  const children = entry.child_datasets;
  if (children !== undefined) {
    const unquotedChild = Array.isArray(children)
      ? children.map(readAsOtherThanText).find(Boolean)
      : undefined;
    if (unquotedChild)
      fail(
        `dataset '${name}': a child_datasets name is read as ${unquotedChild} by YAML (PyYAML): quote it ('...')`,
      );
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
  const unquotedPath = readAsOtherThanText(entry.path);
  if (unquotedPath)
    fail(`dataset '${name}': path is read as ${unquotedPath} by YAML (PyYAML): quote it ('...')`);
  if (typeof entry.path !== 'string' || entry.path.trim() === '')
    fail(`dataset '${name}' needs a path (or child_datasets)`);
  const epsg = entry.filename_epsg ?? 4326;
  if (!Number.isInteger(epsg)) fail(`dataset '${name}': filename_epsg must be an EPSG code like 4326`);
  const tileSize = tileSizeOf(entry.filename_tile_size, name, fail);
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
    filenameTileSize: tileSize,
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
  // A number, or decimal text as OpenTopoData's float() reads it; an empty value (YAML null) or true is not 0 or 1.
  const degrees = (v: unknown) =>
    typeof v === 'number' ? v : typeof v === 'string' ? decimalNumber(v) : NaN;
  const [left, bottom, right, top] = [b.left, b.bottom, b.right, b.top].map(degrees);
  if (![left, bottom, right, top].every(Number.isFinite) || left >= right || bottom >= top) {
    return fail(`dataset '${name}': wgs84_bounds needs numeric left < right and bottom < top (degrees)`);
  }
  return [left, bottom, right, top];
}

/**
 * `access_control_allow_origin`: one origin, as the header holds one (a list of one is read as it). A list of
 * several was sent joined by commas, which browsers refuse, and a mapping as '[object Object]'.
 */
function originOf(raw: unknown, fail: (message: string) => never): string | null {
  if (raw === undefined || raw === null) return null;
  const [one, ...more] = Array.isArray(raw) ? raw : [raw];
  // As OpenTopoData checks it: '*', or a scheme and a host (and port), no path.
  if (more.length === 0 && typeof one === 'string') {
    const origin = one === '*' ? one : tryParseOrigin(one);
    if (origin !== null) return origin;
  }
  return fail(
    `\`access_control_allow_origin\` must be one origin, '*' or a scheme and host such as https://example.org (no path), got ${excerpt(JSON.stringify(raw) ?? String(raw))}`,
  );
}

/**
 * `text` as the Access-Control-Allow-Origin header must hold it (serialised as browsers send Origin), or null where
 * it is no origin: a scheme and a host (and port), no path, query or fragment (OpenTopoData's check of its config's
 * value). A trailing slash, as in OpenTopoData's own example config (`https://api.example.com/`), is dropped:
 * browsers compare the header with their origin exactly, so sent with the slash every answer was refused.
 */
export function tryParseOrigin(text: string): string | null {
  let url: URL;
  try {
    url = new URL(text);
  } catch {
    return null;
  }
  if (url.host === '' || (url.pathname !== '/' && url.pathname !== '') || url.search || url.hash) return null;
  // Not url.origin: that is 'null' for an app's own scheme (capacitor://localhost), which browsers send as written.
  return `${url.protocol}//${url.host}`;
}

/**
 * A key a letter or two from a known one (`max_location_per_request`, `wgs84_bound`) is a typo whose setting would
 * be ignored without a word, as OpenTopoData ignores every key it does not read: refused, naming the key meant.
 * Other keys (notes an operator keeps in the file) are ignored, as there.
 */
function refuseMisspelt(
  record: Record<string, unknown>,
  known: readonly string[],
  where: string,
  fail: (message: string) => never,
): void {
  for (const key of Object.keys(record)) {
    if (known.includes(key)) continue;
    const meant = known.find((k) => editDistance(key.toLowerCase(), k) <= 2);
    if (meant) fail(`${where}unknown key '${excerpt(key)}': did you mean '${meant}'?`);
  }
}

/** Levenshtein distance, stopping early: only "within 2" matters. */
function editDistance(a: string, b: string): number {
  if (Math.abs(a.length - b.length) > 2) return 3;
  let previous = Array.from({ length: b.length + 1 }, (_, j) => j);
  for (let i = 1; i <= a.length; i++) {
    const current = [i];
    for (let j = 1; j <= b.length; j++)
      current[j] = Math.min(
        previous[j] + 1,
        current[j - 1] + 1,
        previous[j - 1] + (a[i - 1] === b[j - 1] ? 0 : 1),
      );
    previous = current;
  }
  return previous[b.length];
}

/** Decimal text with Python's digit grouping (`1_000_000`), as OpenTopoData's `Decimal(filename_tile_size)` reads it. */
const GROUPED_DECIMAL =
  /^\s*[+-]?(?:\d(?:_?\d)*(?:\.(?:\d(?:_?\d)*)?)?|\.\d(?:_?\d)*)(?:[eE][+-]?\d(?:_?\d)*)?\s*$/;

/**
 * `filename_tile_size`: a number, or decimal text. OpenTopoData refuses a bare fraction (`0.5`: "Non-integer tile
 * sizes should be specified as a string") and reads `'0.5'` as a Decimal, so a config that runs there has the text.
 * A bare fraction is read too (YAML's double for 0.1 prints back as 0.1, which tile-names.ts reads as decimal).
 */
function tileSizeOf(raw: unknown, name: string, fail: (message: string) => never): number | null {
  if (raw === undefined || raw === null) return null;
  const size =
    typeof raw === 'number'
      ? raw
      : typeof raw === 'string' && GROUPED_DECIMAL.test(raw)
        ? Number(raw.replace(/_/g, ''))
        : NaN;
  if (Number.isFinite(size) && size > 0) return size;
  const got = typeof raw === 'string' ? `'${excerpt(raw)}'` : excerpt(JSON.stringify(raw) ?? String(raw));
  return fail(
    `dataset '${name}': filename_tile_size must be a positive number, a fraction best as text as OpenTopoData needs it ('0.5'); got ${got}`,
  );
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
