/**
 * `GET /v1/datasets`: every configured dataset with bounds, resolution, CRS, pixel type and tile count. A dataset
 * that cannot be opened is listed as unavailable (details in the log) instead of failing the whole list.
 * `GET /datasets`: OpenTopoData's shape, names and child datasets from the config (no data is read), by name.
 * A dataset named "datasets" has its heights at `GET /v1/datasets?locations=…`, as in OpenTopoData.
 */
import { answerElevations } from './elevation';
import { route } from './route';
import { jsonResponse } from './http';

export const handler = route('datasets', ['GET'], async (event, t, app, ctx) => {
  const names = app.registry.names();
  const path = (event.rawPath ?? '').replace(/\/+$/, ''); // a direct invoke may leave it out
  if (path === '/datasets') {
    // Sorted by name, as OpenTopoData lists them.
    const results = app.registry.config.datasets
      .map((d) => ({ name: d.name, child_datasets: d.childDatasets ?? [] }))
      .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
    return jsonResponse(200, JSON.stringify({ status: 'OK', results }), app.corsOrigin);
  }
  // OpenTopoData lets a dataset be named "datasets": a request for its heights is answered with them, not
  // with this list (the gateway routes GET /v1/datasets here before /v1/{dataset}).
  if (names.includes('datasets') && path.endsWith('/v1/datasets') && hasLocations(event.rawQueryString)) {
    return answerElevations({ ...event, pathParameters: { dataset: 'datasets' } }, t, app, ctx);
  }
  const settled = await t.phase('describe', () =>
    Promise.allSettled(names.map((name) => app.registry.get(name).describe(ctx))),
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

/** Whether the query string has a `locations` parameter. */
function hasLocations(rawQuery: string | undefined): boolean {
  return new URLSearchParams(rawQuery ?? '').has('locations');
}
