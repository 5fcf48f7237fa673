/**
 * The geoid grids of the datasets file (`geoids:`), built on first use like the app, and the vertical datum
 * conversion a request asks for (`datum=`), composed from the datasets' declared `vertical_datum`.
 */
import path from 'node:path';
import {
  convertHeights,
  type HeightConversion,
  GeoidGrids,
  InvalidRequestError,
  readGeoidPaths,
  tryParseVerticalDatum,
  type VerticalDatum,
  type ReadContext,
  type CountedReads,
} from '../layers/elevation';
import type { App } from './app';

let grids: { app: App; grids: GeoidGrids } | null = null;

export function geoidGrids(app: App): GeoidGrids {
  if (grids?.app === app) return grids.grids;
  const { settings } = app;
  const built = new GeoidGrids(readGeoidPaths(settings.configPath), {
    dataRoot: settings.dataRoot ?? path.dirname(settings.configPath),
    headerPrefetchBytes: settings.headerPrefetchBytes,
    timeoutMs: settings.rangeTimeoutMs,
    retries: settings.rangeRetries,
    missingTtlMs: settings.missingTtlMs,
  });
  grids = { app, grids: built };
  return built;
}

/**
 * The vertical datum of a dataset as /v1/datasets lists it: its `vertical_datum`, else what its rasters declare
 * (an SRTM .hgt: EGM96; a GeoTIFF's VerticalCSTypeGeoKey); null when neither says. A 400 names a declared one that
 * cannot be converted (NAVD88: it was "declares no vertical datum", contradicting /v1/datasets).
 */
export async function datasetDatum(
  app: App,
  dataset: string,
  counted?: CountedReads,
): Promise<VerticalDatum | null> {
  const declared =
    app.registry.config.datasets.find((d) => d.name === dataset)?.verticalDatum ??
    (await app.registry.get(dataset).describe(counted)).verticalDatum;
  if (declared === null) return null;
  const datum = tryParseVerticalDatum(declared);
  if (datum) return datum;
  throw new InvalidRequestError(
    `Dataset '${dataset}' declares the vertical datum '${declared.slice(0, 64)}', which cannot be converted: only EGM96, EGM2008 and ellipsoidal heights can.`,
  );
}

/** The conversion to `datum`, or undefined when the request asked for none. */
export function heightConversion(
  app: App,
  datum: VerticalDatum | null,
  ctx: Partial<ReadContext>,
): HeightConversion | undefined {
  if (datum === null) return undefined;
  return (sampled, points) =>
    convertHeights(
      { ...sampled, points },
      datum,
      (name) => datasetDatum(app, name, ctx),
      geoidGrids(app),
      ctx,
    );
}
