/**
 * Google's Elevation API answer over one dataset or chain: `{"results":[{"elevation","location","resolution"}],
 * "status":"OK"}`, with a height in every result, as Google's always has. Where any point has no data (outside the
 * dataset, a nodata pixel) the answer is Google's `DATA_NOT_AVAILABLE` with no results and an `error_message`
 * naming the points: Google's typed clients read a `null` elevation as 0 m (the Go client's `Elevation float64`
 * does, with no error), the very heights this project exists to replace. `/v1` answers `null` per point instead.
 * Dataset facts for `resolution` are looked up once per dataset and kept.
 */
import type { DatasetRegistry } from '../dataset/registry';
import { roundElevation } from '../service/elevation-query';
import type { CountedReads, Dataset, DatasetInfo, LatLon, ReadContext } from '../types';
import { pixelSizeMetres } from './pixel-size';

export interface GoogleResult {
  elevation: number;
  location: { lat: number; lng: number };
  /**
   * Missing where the answering dataset's CRS or pixel size is unknown: Google documents that it leaves the property
   * out when it does not know it (a null would be a value its typed clients read as 0 m).
   */
  resolution?: number;
}

export type GoogleAnswer =
  | { results: GoogleResult[]; status: 'OK' }
  | { error_message: string; results: []; status: 'DATA_NOT_AVAILABLE' };

/** Points named in DATA_NOT_AVAILABLE's message; the rest are counted. */
const NAMED_MISSING = 5;

/** One promise per dataset name (the config's few names bound it); a rejected one is dropped and retried. */
const infos = new Map<string, Promise<DatasetInfo>>();

function datasetInfo(registry: DatasetRegistry, name: string, counted: CountedReads): Promise<DatasetInfo> {
  let info = infos.get(name);
  if (!info) {
    info = registry.get(name).describe(counted);
    infos.set(name, info);
    void info.catch(() => infos.delete(name));
  }
  return info;
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const dataset = registry.resolve('plane-point');
 * const answer = await answerGoogleQuery(registry, dataset, [{ lat: 49.9, lon: 10.1 }], {});
 * assert.equal(answer.status, 'OK');
 * assert.equal(answer.results[0].elevation, 1038.4);
 * const partly = await answerGoogleQuery(registry, dataset, [{ lat: 49.9, lon: 10.1 }, { lat: 0, lon: 0 }], {});
 * assert.equal(partly.status, 'DATA_NOT_AVAILABLE');
 * assert.deepEqual(partly.results, []);
 * ```
 */
export async function answerGoogleQuery(
  registry: DatasetRegistry,
  dataset: Dataset,
  locations: readonly LatLon[],
  ctx: Partial<ReadContext>,
): Promise<GoogleAnswer> {
  const { elevations, datasets } = await dataset.sampleAttributed(locations, 'bilinear', ctx);
  const missing = locations.flatMap((_, i) => (elevations[i] === null ? [i] : []));
  if (missing.length > 0) {
    return {
      error_message: notAvailableMessage(dataset.name, locations, missing),
      results: [],
      status: 'DATA_NOT_AVAILABLE',
    };
  }
  const answering = [...new Set(datasets)];
  const facts = new Map(
    await Promise.all(answering.map(async (name) => [name, await datasetInfo(registry, name, ctx)] as const)),
  );
  const results = locations.map((location, i): GoogleResult => {
    const resolution = pixelSizeMetres(facts.get(datasets[i]) as DatasetInfo, location);
    const result: GoogleResult = {
      elevation: roundElevation(elevations[i] as number),
      location: { lat: location.lat, lng: location.lon },
    };
    if (resolution !== null) result.resolution = Math.round(resolution * 1000) / 1000;
    return result;
  });
  return { results, status: 'OK' };
}

function notAvailableMessage(dataset: string, locations: readonly LatLon[], missing: number[]): string {
  const named = missing
    .slice(0, NAMED_MISSING)
    .map((i) => `${i + 1} (${locations[i].lat},${locations[i].lon})`)
    .join(', ');
  const more = missing.length > NAMED_MISSING ? ` and ${missing.length - NAMED_MISSING} more` : '';
  return (
    `No elevation data in dataset '${dataset}' at ${missing.length} of ${locations.length} locations: ` +
    `position ${named}${more}. Google's answer has a height for every location, so none is answered: leave ` +
    `these out, or ask /v1/${dataset}, which answers null where there is no data.`
  );
}
