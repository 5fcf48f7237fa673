/**
 * `GET|POST /` and `/v1/`: OpenTopoData's help answer (404 INVALID_REQUEST, as its tests expect), naming one of
 * our datasets to try. `GET /v1` redirects to `/v1/` with 308 as OpenTopoData (Flask's strict slashes) does.
 * API Gateway's rawPath keeps the client's trailing slash; under `npm start` the local gateway strips it for
 * serverless-offline's router and says so in `x-elevation-trailing-slash`.
 */
import { route } from './route';
import { headerValue, jsonResponse } from './http';

// POST too, as OpenTopoData's help route answers it (the same 404).
export const handler = route('help', ['GET', 'POST'], async (event, t, app) => {
  const asked = event.rawPath + (headerValue(event, 'x-elevation-trailing-slash') === '1' ? '/' : '');
  // `/v1`, or `/<stage>/v1` on a named API Gateway stage; the Location is always a path on this host.
  if (/^(\/[\w-]+)?\/v1$/.test(asked)) {
    const query = /^[\x21-\x7e]+$/.test(event.rawQueryString ?? '') ? `?${event.rawQueryString}` : '';
    const location = `${asked}/${query}`;
    const error = `Use ${location}: the API's root has a trailing slash.`;
    return jsonResponse(308, JSON.stringify({ status: 'INVALID_REQUEST', error }), app.corsOrigin, {
      location,
    });
  }
  const example = `/v1/${app.registry.names()[0]}?locations=48.742275,9.101177`;
  const error = `No dataset name provided. Try a url like '${example}' to get started, and GET /v1/datasets for the datasets.`;
  t.set({ errorCode: 'NoDatasetName', errorMessage: error }); // as every 4xx line has them (errorResponse)
  return jsonResponse(404, JSON.stringify({ status: 'INVALID_REQUEST', error }), app.corsOrigin);
});
