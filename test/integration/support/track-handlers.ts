/**
 * Loads the file, profile and Google-compatible handlers (plus /v1, to compare heights) in a fresh module
 * registry with the environment a test asks for, like ./handlers.ts does for the original four.
 */
import path from 'node:path';
import { jest } from '@jest/globals';
import { invoke, type EventOptions, type Handler } from './api-gateway';
import { resetAppEnvironment } from './handlers';

/** The bundled Stuttgart SRTM3 sample: real terrain, so filled heights differ from point to point. */
export const SAMPLE_CONFIG = path.resolve('layers/dem-sample/config.yaml');

export interface TrackHandlers {
  elevation: Handler;
  file: Handler;
  google: Handler;
  profile: Handler;
  app: Handler;
}

export async function loadTrackHandlers(
  env: Record<string, string> = {},
  configPath = SAMPLE_CONFIG,
): Promise<TrackHandlers> {
  resetAppEnvironment(configPath, env);
  let handlers: TrackHandlers | undefined;
  await jest.isolateModulesAsync(async () => {
    const [elevation, file, google, profile, app] = await Promise.all([
      import('../../../functions/elevation'),
      import('../../../functions/file'),
      import('../../../functions/google'),
      import('../../../functions/profile'),
      import('../../../functions/web-app'),
    ]);
    handlers = {
      elevation: elevation.handler,
      file: file.handler,
      google: google.handler,
      profile: profile.handler,
      app: app.handler,
    };
  });
  if (!handlers) throw new Error('handlers did not load');
  return handlers;
}

/** POSTs a track file's bytes to `/v1/sample/file` as a client sends a binary body (base64, octet-stream). */
export const postFile = (
  h: TrackHandlers,
  body: Buffer,
  query: Record<string, string> = {},
  extra: Partial<EventOptions> = {},
) =>
  invoke(h.file, {
    method: 'POST',
    path: '/v1/sample/file',
    pathParameters: { dataset: 'sample' },
    query,
    body: body.toString('base64'),
    isBase64Encoded: true,
    headers: { 'content-type': 'application/octet-stream' },
    ...extra,
  });

/** The same, to `/profile`: a track file as the POST body (base64, as a binary body arrives). */
export const postProfile = (
  h: TrackHandlers,
  body: Buffer,
  query: Record<string, string> = {},
  extra: Partial<EventOptions> = {},
) =>
  invoke(h.profile, {
    method: 'POST',
    path: '/v1/sample/profile',
    pathParameters: { dataset: 'sample' },
    query,
    body: body.toString('base64'),
    isBase64Encoded: true,
    ...extra,
  });
