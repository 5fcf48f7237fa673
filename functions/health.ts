/** `GET /health`: answers 200 when the configuration loads; touches no data (cheap enough for probes). */
import { route } from './route';
import { jsonResponse } from './http';

export const handler = route('health', ['GET'], async (_event, _t, app) => {
  return jsonResponse(200, JSON.stringify({ status: 'OK', datasets: app.registry.names() }), app.corsOrigin);
});
