/** `GET /v1/datasets`: every configured dataset with bounds, resolution, CRS, pixel type and tile count. */
import { instrumentHandler } from '../layers/telemetry';
import { corsOriginOrNull, getApp } from './app';
import { errorResponse, jsonResponse, requireMethod } from './http';

export const handler = instrumentHandler('datasets', async (event, t) => {
  try {
    const app = getApp();
    requireMethod(event, ['GET']);
    const results = await t.phase('describe', () =>
      Promise.all(app.registry.names().map((name) => app.registry.get(name).describe())),
    );
    return jsonResponse(200, JSON.stringify({ status: 'OK', results }), app.corsOrigin);
  } catch (error) {
    return errorResponse(error, corsOriginOrNull(), t);
  }
});
