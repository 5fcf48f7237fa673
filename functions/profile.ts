/**
 * `GET|POST /v1/{dataset}/profile`: an elevation profile along a path (`locations`, or an uploaded track file),
 * resampled on the geodesic every `distance` metres or into `samples` points; JSON, an SVG chart, or CSV.
 */
import { answerProfile, parseProfileOptions, renderProfileCsv, renderProfileSvg } from '../layers/elevation';
import { route } from './route';
import { corsHeaders, decodePathParameter, jsonResponse } from './http';
import { heightConversion } from './geoids';
import { profileInput } from './profile-input';
import { datasetFields } from './dataset-fields';

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
  if (options.format === 'svg') {
    return {
      statusCode: 200,
      headers: { 'content-type': 'image/svg+xml', ...corsHeaders(app.corsOrigin) },
      body: renderProfileSvg(profile, dataset.name),
    };
  }
  if (options.format === 'csv') {
    return {
      statusCode: 200,
      headers: { 'content-type': 'text/csv; charset=utf-8; header=present', ...corsHeaders(app.corsOrigin) },
      body: renderProfileCsv(profile),
    };
  }
  const body = { status: 'OK', dataset: dataset.name, summary: profile.summary, points: profile.points };
  return jsonResponse(200, JSON.stringify(body), app.corsOrigin);
});
