/**
 * `GET /v1/datasets`: every configured dataset with bounds, resolution, CRS, pixel type and tile count. A dataset
 * that cannot be opened is listed as unavailable (details in the log) instead of failing the whole list.
 * `GET /datasets`: OpenTopoData's shape, names and child datasets from the config (no data is read).
 */
import { route } from './route';
import { jsonResponse } from './http';

export const handler = route('datasets', ['GET'], async (event, t, app) => {
  const names = app.registry.names();
  if (event.rawPath.replace(/\/+$/, '') === '/datasets') {
    const results = app.registry.config.datasets.map((d) => ({
      name: d.name,
      child_datasets: d.childDatasets ?? [],
    }));
    return jsonResponse(200, JSON.stringify({ status: 'OK', results }), app.corsOrigin);
  }
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
