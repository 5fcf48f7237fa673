/**
 * Loads the file, profile and Google-compatible handlers (plus /v1, to compare heights) in a fresh module
 * registry with the environment a test asks for, like ./handlers.ts does for the original four.
 */
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Handler } from './api-gateway';
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
