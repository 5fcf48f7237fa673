/** `GET|POST /v1/{dataset}`: OpenTopoData's API (JSON or GeoJSON), over one dataset or a fallback chain "a,b". */
import {
  answerElevationQuery,
  parseElevationQuery,
  renderElevationAnswer,
} from '../layers/elevation/service/elevation-query';
import { route } from './route';
import { cacheableResponse, decodePathParameter, requestParams } from './http';

export const handler = route('v1', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const datasetSpec = decodePathParameter(event.pathParameters?.dataset ?? '');
  const query = await t.phase('parse', () =>
    parseElevationQuery(datasetSpec, requestParams(event, app.settings.maxBodyBytes), app.limits),
  );
  const dataset = app.registry.resolve(datasetSpec); // 404 before any work; also bounds the metric dimension
  t.set({
    dataset: dataset.name,
    points: query.locations.length,
    interpolation: query.options.interpolation,
  });
  const answer = await answerElevationQuery(app.registry, query, ctx);
  return cacheableResponse(event, renderElevationAnswer(answer), app.corsOrigin);
});
