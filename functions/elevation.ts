/** `GET|POST /v1/{dataset}`: OpenTopoData's API (JSON or GeoJSON), over one dataset or a fallback chain "a,b". */
import { answerElevationQuery, parseElevationQuery, renderElevationAnswer } from '../layers/elevation';
import { route, type RouteHandler } from './route';
import { cacheableResponse, decodePathParameter, requestParams } from './http';
import { heightConversion } from './geoids';
import { datasetFields } from './dataset-fields';

/** The elevation answer of `/v1/{dataset}` (also used by `/v1/datasets` for a dataset named "datasets"). */
export const answerElevations: RouteHandler = async (event, t, app, ctx) => {
  const datasetSpec = decodePathParameter(event.pathParameters?.dataset ?? '');
  const query = await t.phase('parse', async () =>
    parseElevationQuery(datasetSpec, await requestParams(event, app.settings.maxBodyBytes), app.limits),
  );
  const dataset = app.registry.resolve(datasetSpec); // 400 before any work: only configured names get further
  t.set({
    ...datasetFields(app.registry.names(), dataset.name),
    points: query.locations.length,
    interpolation: query.options.interpolation,
  });
  const answer = await answerElevationQuery(app.registry, query, ctx);
  const convert = heightConversion(app, query.options.datum, ctx);
  if (convert) answer.elevations = await convert(answer, query.locations);
  return cacheableResponse(event, renderElevationAnswer(answer), app.corsOrigin);
};

export const handler = route('v1', ['GET', 'POST', 'OPTIONS'], answerElevations);
