/**
 * `GET /maps/api/elevation/json`: Google's Elevation API on the default dataset (or `GOOGLE_DATASET`), so
 * Google's client libraries work with only their URL changed. Errors keep Google's shape:
 * `{"error_message": …, "results": [], "status": "INVALID_REQUEST" | "UNKNOWN_ERROR"}`.
 */
import { answerGoogleQuery, parseGoogleQuery } from '../layers/elevation';
import { route } from './route';
import { errorResponse, jsonResponse, type Response } from './http';
import { datasetFields } from './dataset-fields';

export const handler = route('google', ['GET', 'OPTIONS'], async (event, t, app, ctx) => {
  try {
    const locations = await t.phase('parse', () =>
      parseGoogleQuery(event.queryStringParameters ?? {}, app.limits),
    );
    const datasetSpec = app.settings.googleDataset ?? app.settings.defaultDataset ?? app.registry.names()[0];
    // GOOGLE_DATASET may be a chain "a,b" (not client-made, but the same rule keeps every route's dimension alike).
    const fields = datasetFields(app.registry.names(), app.registry.resolve(datasetSpec).name);
    t.set({ ...fields, points: locations.length });
    const answer = await answerGoogleQuery(app.registry, datasetSpec, locations, ctx);
    return jsonResponse(200, JSON.stringify(answer), app.corsOrigin);
  } catch (error) {
    return inGoogleShape(errorResponse(error, app.corsOrigin, t));
  }
});

/** Our error response (status, headers, logging already done) with Google's body. */
function inGoogleShape(response: Response): Response {
  const { error } = JSON.parse(String(response.body)) as { error: string };
  const status = (response.statusCode ?? 500) >= 500 ? 'UNKNOWN_ERROR' : 'INVALID_REQUEST';
  return { ...response, body: JSON.stringify({ error_message: error, results: [], status }) };
}
