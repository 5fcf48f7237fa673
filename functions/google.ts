/**
 * `GET /maps/api/elevation/json` and `/maps/api/elevation/xml`: Google's Elevation API on the default dataset (or
 * `GOOGLE_DATASET`), so Google's client libraries, and spreadsheets and scripts that read its XML, work with only
 * their URL changed. Every error keeps Google's shape in the format asked for, the method check and the deadline
 * included: `{"error_message": …, "results": [], "status": "INVALID_REQUEST" | "UNKNOWN_ERROR"}` or
 * `<ElevationResponse><status>…</status><error_message>…</error_message></ElevationResponse>`.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  answerGoogleQuery,
  DatasetConfigError,
  InvalidRequestError,
  type Dataset,
  GOOGLE_PARAMETERS,
  GoogleInvalidRequestError,
  googleAnswerXml,
  googleErrorXml,
  parseGoogleQuery,
} from '../layers/elevation';
import type { App } from './app';
import { route } from './route';
import { cacheableResponse, repeatedMessage, repeatedParameter, type Response } from './http';
import { datasetFields } from './dataset-fields';
import { defaultDatasetName } from './default-dataset';

/** Google's own media type for the XML output. */
const XML_TYPE = 'application/xml; charset=UTF-8';

export const handler = route(
  'google',
  ['GET', 'OPTIONS'],
  async (event, t, app, ctx) => {
    const locations = await t.phase('parse', () => {
      // API Gateway joins a repeated parameter with commas: `locations=48.7&locations=9.1` would be one location.
      const repeated = repeatedParameter(event.rawQueryString, GOOGLE_PARAMETERS);
      if (repeated !== null)
        throw new GoogleInvalidRequestError(`Invalid request. ${repeatedMessage(repeated, '|')}`);
      return parseGoogleQuery(event.queryStringParameters ?? {}, app.limits);
    });
    const dataset = googleDataset(app);
    const fields = datasetFields(app.registry.names(), dataset.name);
    t.set({ ...fields, points: locations.length });
    const answer = await answerGoogleQuery(app.registry, dataset, locations, ctx);
    // A 200 as Google answers it, but no heights: not counted as elevations computed, and the log line says why.
    if (answer.status !== 'OK') t.set({ answered: 0, googleStatus: answer.status });
    // Heights do not change: cacheable like /v1's answers (ETag, 304 on If-None-Match).
    return asksForXml(event)
      ? cacheableResponse(event, googleAnswerXml(answer), app.corsOrigin, XML_TYPE)
      : cacheableResponse(event, JSON.stringify(answer), app.corsOrigin);
  },
  inGoogleShape,
);

/** The output format is the path's last segment, as in Google's URL (the local gateway drops a trailing slash). */
function asksForXml(event: APIGatewayProxyEventV2): boolean {
  return /\/xml\/*$/.test(event.rawPath ?? '');
}

/** Our error response (status, headers and logging already done) with Google's body, in the format asked for. */
function inGoogleShape(event: APIGatewayProxyEventV2, response: Response): Response {
  const { error } = JSON.parse(String(response.body)) as { error: string };
  const status = (response.statusCode ?? 500) >= 500 ? 'UNKNOWN_ERROR' : 'INVALID_REQUEST';
  if (!asksForXml(event)) {
    return { ...response, body: JSON.stringify({ error_message: error, results: [], status }) };
  }
  return {
    ...response,
    headers: { ...response.headers, 'content-type': XML_TYPE },
    body: googleErrorXml(status, error),
  };
}

/**
 * The dataset Google's routes answer from: GOOGLE_DATASET (a name or a chain "a,b": not client-made, but the same
 * rule keeps every route's dimension alike), else the default. A GOOGLE_DATASET the datasets file lacks is the
 * operator's to fix (a 500 saying so), not the client's 400 (npm start refuses it before).
 */
function googleDataset(app: App): Dataset {
  const spec = app.settings.googleDataset;
  if (spec === null) return app.registry.resolve(defaultDatasetName(app));
  try {
    return app.registry.resolve(spec);
  } catch (error) {
    if (!(error instanceof InvalidRequestError)) throw error;
    throw new DatasetConfigError(`GOOGLE_DATASET '${spec}': ${error.message}`, { cause: error });
  }
}
