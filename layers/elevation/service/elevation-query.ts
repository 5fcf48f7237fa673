/**
 * The domain operation behind the OpenTopoData-style endpoint: parsed parameters in, response body out.
 * Knows nothing about API Gateway; handlers adapt events to `params` and the body to a response.
 */
import type { DatasetRegistry } from '../dataset/registry';
import { parseLocations } from '../request/locations';
import { parseRequestOptions, parseSamples, type NodataValue, type RequestOptions } from '../request/options';
import { samplePath } from '../request/path-sampling';
import type { Elevation, LatLon, ReadContext } from '../types';

export interface QueryLimits {
  maxLocations: number;
  maxSamples: number;
}

export interface ElevationQuery {
  datasetSpec: string;
  locations: LatLon[];
  options: RequestOptions;
}

export interface ElevationAnswer {
  query: ElevationQuery;
  elevations: Elevation[];
  datasets: string[];
  /** Per point: a null is a nodata pixel (replaced by `nodata_value`), not a point no raster covers (null). */
  nodataPixels: boolean[];
}

/**
 * @example
 * ```ts
 * const query = parseElevationQuery('plane-point', { locations: '49.9,10.1|49.8,10.2' }, { maxLocations: 100, maxSamples: 100 });
 * assert.equal(query.locations.length, 2);
 * assert.equal(query.options.interpolation, 'bilinear'); // OpenTopoData's default
 * assert.throws(() => parseElevationQuery('plane-point', { locations: '91,0' }, { maxLocations: 100, maxSamples: 100 }), InvalidLocationError);
 * ```
 */
export function parseElevationQuery(
  datasetSpec: string,
  params: Record<string, unknown>,
  limits: QueryLimits,
): ElevationQuery {
  // In OpenTopoData's order (interpolation, nodata_value, locations, then samples), so a request with two
  // mistakes is told the one OpenTopoData tells.
  const { samples: rawSamples, ...rest } = params;
  const parsed = parseRequestOptions(rest, limits.maxSamples);
  const path = parseLocations(params.locations, limits.maxLocations);
  const options = { ...parsed, samples: parseSamples(rawSamples, limits.maxSamples) };
  const locations = options.samples === null ? path : samplePath(path, options.samples);
  return { datasetSpec, locations, options };
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const query = parseElevationQuery('plane-point', { locations: '49.9,10.1', interpolation: 'nearest' }, { maxLocations: 100, maxSamples: 100 });
 * const answer = await answerElevationQuery(registry, query, fullContext());
 * assert.deepEqual(answer.elevations, [1036]);
 * ```
 */
export async function answerElevationQuery(
  registry: DatasetRegistry,
  query: ElevationQuery,
  ctx: ReadContext,
): Promise<ElevationAnswer> {
  const dataset = registry.resolve(query.datasetSpec);
  const { elevations, datasets, nodataPixels } = await dataset.sampleAttributed(
    query.locations,
    query.options.interpolation,
    ctx,
  );
  return { query, elevations, datasets, nodataPixels };
}

/** Sentinel replaced after JSON.stringify, because JSON itself cannot carry NaN (OpenTopoData emits it anyway). */
const NAN_TOKEN = '__NaN__';

/**
 * OpenTopoData's response body, or a GeoJSON FeatureCollection of Points with [lon, lat, z]. As in OpenTopoData,
 * `nodata_value` replaces nodata pixels only; a point outside the dataset or in a missing tile stays null.
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const query = parseElevationQuery('plane-point', { locations: '49.9,10.1', interpolation: 'nearest' }, { maxLocations: 100, maxSamples: 100 });
 * const body = renderElevationAnswer(await answerElevationQuery(registry, query, fullContext()));
 * assert.equal(body, '{"status":"OK","results":[{"dataset":"plane-point","elevation":1036,"location":{"lat":49.9,"lng":10.1}}]}');
 * ```
 */
export function renderElevationAnswer({
  query,
  elevations,
  datasets,
  nodataPixels,
}: ElevationAnswer): string {
  const values = elevations.map((e, i) =>
    e === null && !nodataPixels[i] ? null : nodata(e, query.options.nodataValue),
  );
  if (query.options.format === 'geojson') {
    return stringify({
      type: 'FeatureCollection',
      features: query.locations.map((loc, i) => ({
        type: 'Feature',
        geometry: { type: 'Point', coordinates: position(loc, values[i]) },
        properties: { dataset: datasets[i] },
      })),
    });
  }
  return stringify({
    status: 'OK',
    results: query.locations.map((loc, i) => ({
      dataset: datasets[i],
      elevation: values[i],
      location: { lat: loc.lat, lng: loc.lon },
    })),
  });
}

/** GeoJSON positions are numbers only (RFC 7946 §3.1.1): where there is no height the position has no z. */
function position(loc: LatLon, z: number | string | null): number[] {
  return typeof z === 'number' ? [loc.lon, loc.lat, z] : [loc.lon, loc.lat];
}

function nodata(elevation: Elevation, policy: NodataValue): number | string | null {
  if (elevation !== null) return roundElevation(elevation);
  return policy.kind === 'null' ? null : policy.kind === 'nan' ? NAN_TOKEN : policy.value;
}

/**
 * Millimetres: finer digits are noise for any DEM and only make responses longer. A value too large to scale by
 * 1000 (a Float64 pixel past ~1.8e305) stays as it is: scaled, it overflowed to Infinity and was answered null.
 *
 * @example
 * ```ts
 * assert.equal(roundElevation(1038.40000152), 1038.4);
 * assert.equal(roundElevation(1e306), 1e306);
 * ```
 */
export function roundElevation(value: number): number {
  const millimetres = value * 1000;
  return Number.isFinite(millimetres) ? Math.round(millimetres) / 1000 : value;
}

function stringify(body: unknown): string {
  const text = JSON.stringify(body);
  return text.includes(NAN_TOKEN) ? text.split(JSON.stringify(NAN_TOKEN)).join('NaN') : text;
}
