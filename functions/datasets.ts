/**
 * `GET /v1/datasets`: every configured dataset with bounds, resolution, CRS, pixel type and tile count. A dataset
 * that cannot be opened is listed as unavailable (details in the log) instead of failing the whole list.
 */
import { route } from './route';
import { jsonResponse } from './http';

export const handler = route('datasets', ['GET'], async (_event, t, app) => {
  const names = app.registry.names();
  const settled = await t.phase('describe', () =>
    Promise.allSettled(names.map((name) => app.registry.get(name).describe())),
  );
  const failures: Record<string, string> = {};
  const results = settled.map((outcome, i) => {
    if (outcome.status === 'fulfilled') return outcome.value;
    failures[names[i]] = String(outcome.reason);
    return { name: names[i], status: 'UNAVAILABLE', error: 'This dataset cannot be opened right now.' };
  });
  if (Object.keys(failures).length > 0) t.set({ unavailableDatasets: failures });
  return jsonResponse(200, JSON.stringify({ status: 'OK', results }), app.corsOrigin);
});
