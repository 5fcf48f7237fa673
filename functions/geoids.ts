/**
 * The geoid grids of the datasets file (`geoids:`), built on first use like the app, and the vertical datum
 * conversion a request asks for (`datum=`), composed from the datasets' declared `vertical_datum`.
 */
import path from 'node:path';
import {
  convertHeights,
  type HeightConversion,
  GeoidGrids,
  readGeoidPaths,
  tryParseVerticalDatum,
  type VerticalDatum,
  type ReadContext,
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

/** `vertical_datum` of a configured dataset, as a datum (null when it declares none we know). */
export function datasetDatum(app: App, dataset: string): VerticalDatum | null {
  return tryParseVerticalDatum(app.registry.config.datasets.find((d) => d.name === dataset)?.verticalDatum);
}

/** The conversion to `datum`, or undefined when the request asked for none. */
export function heightConversion(
  app: App,
  datum: VerticalDatum | null,
  ctx: Partial<ReadContext>,
): HeightConversion | undefined {
  if (datum === null) return undefined;
  return (sampled, points) =>
    convertHeights({ ...sampled, points }, datum, (name) => datasetDatum(app, name), geoidGrids(app), ctx);
}
