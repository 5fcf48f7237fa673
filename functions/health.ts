/**
 * `GET /health`: 200 when the configuration loads; touches no data (cheap enough for probes).
 * `GET /health?deep=1`: also opens every dataset (a header read or a folder listing each) and answers 503 naming
 * each dataset that cannot be served, so a wrong DATA_ROOT or a missing file shows before users see nulls; and
 * each geoid grid (`geoids.egm96`: a sample at 0,0 that also checks it covers the globe), before datum= fails.
 */
import { InvalidRequestError, servabilityChecks, unservable } from '../layers/elevation';
import { geoidGrids } from './geoids';
import { route } from './route';
import { jsonResponse, rejectRepeatedParameters } from './http';

export const handler = route('health', ['GET'], async (event, t, app, ctx) => {
  const names = app.registry.names();
  rejectRepeatedParameters(event.rawQueryString, '|', ['deep']); // API Gateway would join them: '1,1'
  const deep = deepParameter(event.queryStringParameters?.deep);
  if (!deep) return jsonResponse(200, JSON.stringify({ status: 'OK', datasets: names }), app.corsOrigin);
  const checks = servabilityChecks(app.registry, () => geoidGrids(app), {
    stats: ctx.stats,
    trace: ctx.trace,
  });
  const failed = await t.phase('describe', () => unservable(checks));
  const unavailable = failed.map(({ name }) => name);
  if (failed.length > 0)
    t.set({
      unavailableDatasets: Object.fromEntries(failed.map(({ name, reason }) => [name, String(reason)])),
    });
  const body = {
    status: unavailable.length === 0 ? 'OK' : 'UNAVAILABLE',
    datasets: names,
    unavailable,
  };
  return jsonResponse(unavailable.length === 0 ? 200 : 503, JSON.stringify(body), app.corsOrigin);
});

/**
 * `deep`: 1 or true opens every dataset; 0, false or nothing does not. Anything else is a 400: a probe set up
 * with `deep=yes` must not get the shallow 200 and believe its datasets were checked.
 */
function deepParameter(raw: string | undefined): boolean {
  const value = (raw ?? '').trim().toLowerCase();
  if (value === '1' || value === 'true') return true;
  if (value === '' || value === '0' || value === 'false') return false;
  throw new InvalidRequestError(
    `Invalid deep '${(raw ?? '').slice(0, 64)}': use deep=1 (or true) to open every dataset, 0 (or false) not to.`,
  );
}
