/**
 * `GET /` and `GET /v1/` (and `/v1`): OpenTopoData's help answer (404 INVALID_REQUEST, as its tests expect), naming
 * one of our datasets to try. OpenTopoData redirects `/v1` to `/v1/`; API Gateway does not tell the two apart.
 */
import { route } from './route';
import { jsonResponse } from './http';

export const handler = route('help', ['GET'], async (_event, _t, app) => {
  const example = `/v1/${app.registry.names()[0]}?locations=48.742275,9.101177`;
  const error = `No dataset name provided. Try a url like '${example}' to get started, and GET /v1/datasets for the datasets.`;
  return jsonResponse(404, JSON.stringify({ status: 'INVALID_REQUEST', error }), app.corsOrigin);
});
