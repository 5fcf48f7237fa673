/** `GET /health`: answers 200 when the configuration loads; touches no data (cheap enough for probes). */
import { instrumentHandler } from '../layers/telemetry';
import { corsOriginOrNull, getApp } from './app';
import { errorResponse, jsonResponse, requireMethod } from './http';

export const handler = instrumentHandler('health', async (event, t) => {
  try {
    const app = getApp();
    requireMethod(event, ['GET']);
    return jsonResponse(
      200,
      JSON.stringify({ status: 'OK', datasets: app.registry.names() }),
      app.corsOrigin,
    );
  } catch (error) {
    return errorResponse(error, corsOriginOrNull(), t);
  }
});
