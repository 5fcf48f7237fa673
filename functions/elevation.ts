/** `GET|POST /v1/{dataset}`: OpenTopoData's API (JSON or GeoJSON), over one dataset or a fallback chain "a,b". */
import {
  answerElevationQuery,
  parseElevationQuery,
  renderElevationAnswer,
} from '../layers/elevation/service/elevation-query';
import { chainDimension } from '../layers/telemetry';
import { route } from './route';
import { decodePathParameter, jsonResponse, requestParams } from './http';

export const handler = route('v1', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const datasetSpec = decodePathParameter(event.pathParameters?.dataset ?? '');
  const query = await t.phase('parse', () =>
    parseElevationQuery(datasetSpec, requestParams(event, app.settings.maxBodyBytes), app.limits),
  );
  const dataset = app.registry.resolve(datasetSpec); // 404 before any work: only configured names get further
  // A request-made chain ("a,b") is one of thousands of orderings: as a metric dimension it is `chain:<n>`,
  // its names go to the log line. A configured dataset (child_datasets chains included) keeps its name.
  const chain = app.registry.names().includes(dataset.name) ? undefined : dataset.name.split(',');
  t.set({
    dataset: chain ? chainDimension(chain.length) : dataset.name,
    chain: chain?.join(','),
    points: query.locations.length,
    interpolation: query.options.interpolation,
  });
  const answer = await answerElevationQuery(app.registry, query, ctx);
  return jsonResponse(200, renderElevationAnswer(answer), app.corsOrigin);
});
