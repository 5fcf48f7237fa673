/**
 * Heights from their datasets' vertical datums to the one a request asks for, through the ellipsoid:
 * h = H + N(source), H' = h - N(target). Only the grids a conversion needs are read.
 */
import { InvalidRequestError } from '../errors';
import type { Elevation, LatLon, ReadContext, SampleResult } from '../types';
import type { GeoidGrids } from './geoid-grids';
import type { Geoid, VerticalDatum } from './vertical-datum';

/** Turns sampled heights into the ones to answer (a vertical-datum conversion); absent: as sampled. */
export type HeightConversion = (sampled: SampleResult, points: readonly LatLon[]) => Promise<Elevation[]>;

export interface HeightsToConvert {
  elevations: readonly Elevation[];
  /** Per point, the dataset that answered (and so the datum its height is in). */
  datasets: readonly string[];
  points: readonly LatLon[];
}

/**
 * @example
 * ```ts
 * const grids = new GeoidGrids(readGeoidPaths('layers/dem-sample/config.yaml'), {
 *   dataRoot: 'layers/dem-sample', headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 2, missingTtlMs: 60000,
 * });
 * const points = [{ lat: 48.7, lon: 9.1 }];
 * const [n] = await grids.undulations('egm96', points);
 * const [h] = await convertHeights({ elevations: [300], datasets: ['srtm'], points }, 'ellipsoid', () => 'egm96', grids);
 * assert.equal(h, 300 + (n ?? NaN)); // ellipsoidal height = orthometric height + N
 * ```
 */
export async function convertHeights(
  { elevations, datasets, points }: HeightsToConvert,
  target: VerticalDatum,
  datumOf: (dataset: string) => VerticalDatum | null | Promise<VerticalDatum | null>,
  grids: GeoidGrids,
  ctx: Partial<ReadContext> = {},
): Promise<Elevation[]> {
  // Each dataset that answered a height is asked once (a chain answers from several).
  const answered = [...new Set(datasets.filter((_, i) => elevations[i] !== null))];
  const datums = new Map<string, VerticalDatum>();
  for (const dataset of answered) datums.set(dataset, sourceDatum(dataset, target, await datumOf(dataset)));
  const sources = elevations.map((e, i) => (e === null ? null : datums.get(datasets[i])!));
  const needed = new Set<Geoid>();
  sources.forEach((source) => {
    if (source === null || source === target) return;
    if (source !== 'ellipsoid') needed.add(source);
    if (target !== 'ellipsoid') needed.add(target);
  });
  // Every grid the conversion needs is configured, or nothing is read (a 400, not a read of the other grid).
  for (const geoid of needed) grids.require(geoid);
  const undulation = new Map<Geoid, Elevation[]>();
  for (const geoid of needed) undulation.set(geoid, await grids.undulations(geoid, points, ctx));
  const n = (datum: VerticalDatum, i: number): number | null =>
    datum === 'ellipsoid' ? 0 : (undulation.get(datum)?.[i] ?? null);
  return elevations.map((elevation, i) => {
    const source = sources[i];
    if (elevation === null || source === null || source === target) return elevation;
    const from = n(source, i);
    const to = n(target, i);
    return from === null || to === null ? null : elevation + from - to;
  });
}

function sourceDatum(dataset: string, target: VerticalDatum, datum: VerticalDatum | null): VerticalDatum {
  if (datum) return datum;
  throw new InvalidRequestError(
    `Dataset '${dataset}' declares no vertical datum, so its heights cannot be converted to ${target}. An operator sets 'vertical_datum' (EGM96, EGM2008 or ellipsoid) for it in the datasets file.`,
  );
}
