/**
 * `GET|POST /v1/{dataset}/profile`: an elevation profile along a path (`locations`, or an uploaded track file),
 * resampled on the geodesic every `distance` metres or into `samples` points; JSON, an SVG chart, or CSV.
 */
import { answerProfile, parseProfileOptions, renderProfileCsv, renderProfileSvg } from '../layers/elevation';
import { route } from './route';
import { cacheableResponse, decodePathParameter } from './http';
import { heightConversion } from './geoids';
import { profileInput } from './profile-input';
import { datasetFields } from './dataset-fields';

/** RFC 4180's media type, saying the first row is the header. */
const CSV_TYPE = 'text/csv; charset=utf-8; header=present';

export const handler = route('profile', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const datasetSpec = decodePathParameter(event.pathParameters?.dataset ?? '');
  const dataset = app.registry.resolve(datasetSpec);
  const { params, path, source } = await t.phase('parse', () => profileInput(event, app));
  const options = parseProfileOptions(params, app.limits.maxSamples);
  t.set({
    ...datasetFields(app.registry.names(), dataset.name),
    interpolation: options.interpolation,
    pathPoints: path.length,
    source,
  });
  const convert = heightConversion(app, options.datum, ctx);
  const profile = await answerProfile(dataset, path, options, app.limits.maxSamples, ctx, convert);
  t.set({ points: profile.points.length });
  // Heights do not change: a profile is cacheable like /v1's answers (ETag, 304 on If-None-Match).
  if (options.format === 'svg') {
    return cacheableResponse(event, renderProfileSvg(profile, dataset.name), app.corsOrigin, 'image/svg+xml');
  }
  if (options.format === 'csv') {
    return cacheableResponse(event, renderProfileCsv(profile), app.corsOrigin, CSV_TYPE);
  }
  const body = { status: 'OK', dataset: dataset.name, summary: profile.summary, points: profile.points };
  return cacheableResponse(event, JSON.stringify(body), app.corsOrigin);
});
