/**
 * Google's Elevation API answer over one dataset or chain: `{"results":[{"elevation","location","resolution"}],
 * "status":"OK"}`. A point without data answers `elevation: null`; when no point has data the status is
 * Google's `DATA_NOT_AVAILABLE`. Dataset facts for `resolution` are looked up once per dataset and kept.
 */
import type { DatasetRegistry } from '../dataset/registry';
import { roundElevation } from '../service/elevation-query';
import type { DatasetInfo, LatLon, ReadContext } from '../types';
import { pixelSizeMetres } from './pixel-size';

export interface GoogleResult {
  elevation: number | null;
  location: { lat: number; lng: number };
  resolution: number | null;
}

export interface GoogleAnswer {
  results: GoogleResult[];
  status: 'OK' | 'DATA_NOT_AVAILABLE';
}

/** One promise per dataset name (the config's few names bound it); a rejected one is dropped and retried. */
const infos = new Map<string, Promise<DatasetInfo>>();

function datasetInfo(registry: DatasetRegistry, name: string): Promise<DatasetInfo> {
  let info = infos.get(name);
  if (!info) {
    info = registry.get(name).describe();
    infos.set(name, info);
    void info.catch(() => infos.delete(name));
  }
  return info;
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const answer = await answerGoogleQuery(registry, 'plane-point', [{ lat: 49.9, lon: 10.1 }, { lat: 0, lon: 0 }], {});
 * assert.equal(answer.status, 'OK');
 * assert.equal(answer.results[0].elevation, 1038.4);
 * assert.equal(answer.results[1].elevation, null);
 * ```
 */
export async function answerGoogleQuery(
  registry: DatasetRegistry,
  datasetSpec: string,
  locations: readonly LatLon[],
  ctx: Partial<ReadContext>,
): Promise<GoogleAnswer> {
  const { elevations, datasets } = await registry
    .resolve(datasetSpec)
    .sampleAttributed(locations, 'bilinear', ctx);
  const answering = [...new Set(datasets.filter((_, i) => elevations[i] !== null))];
  const facts = new Map(
    await Promise.all(answering.map(async (name) => [name, await datasetInfo(registry, name)] as const)),
  );
  const results = locations.map((location, i): GoogleResult => {
    const elevation = elevations[i];
    const info = elevation === null ? undefined : facts.get(datasets[i]);
    const resolution = info ? pixelSizeMetres(info, location.lat) : null;
    return {
      elevation: elevation === null ? null : roundElevation(elevation),
      location: { lat: location.lat, lng: location.lon },
      resolution: resolution === null ? null : Math.round(resolution * 1000) / 1000,
    };
  });
  return { results, status: answering.length === 0 ? 'DATA_NOT_AVAILABLE' : 'OK' };
}
