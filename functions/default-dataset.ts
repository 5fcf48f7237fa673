/**
 * The routes that speak another API on the default dataset (the original system's, Open-Elevation's, Google's):
 * which dataset that is, and heights there in millimetres, `null` where it has no data.
 */
import { roundElevation, type Interpolation, type LatLon, type ReadContext } from '../layers/elevation';
import type { RequestTelemetry } from '../layers/telemetry';
import type { App } from './app';

/** DEFAULT_DATASET, or the config's first dataset. */
export function defaultDatasetName(app: App): string {
  return app.settings.defaultDataset ?? app.registry.names()[0];
}

/** Heights at `locations` on the default dataset, with the request's telemetry fields set. */
export async function heightsOnDefaultDataset(
  app: App,
  t: RequestTelemetry,
  ctx: ReadContext,
  locations: readonly LatLon[],
  interpolation: Interpolation,
): Promise<(number | null)[]> {
  const dataset = app.registry.get(defaultDatasetName(app));
  t.set({ dataset: dataset.name, points: locations.length, interpolation });
  const elevations = await dataset.sample(locations, interpolation, ctx);
  return elevations.map((elevation) => (elevation === null ? null : roundElevation(elevation)));
}
