/**
 * Loads the data and listing handlers in a fresh module registry with the environment a test asks for. Telemetry reads
 * the environment at import and the app at first use, so each call sets process.env first and then imports
 * fresh modules: module-scope state (app, registry, block cache) never leaks between configurations.
 */
import path from 'node:path';
import { jest } from '@jest/globals';
import type { Handler } from './api-gateway';

export const FIXTURE_CONFIG = path.resolve('test/fixtures/config.yaml');

export interface Handlers {
  elevation: Handler;
  legacy: Handler;
  openElevation: Handler;
  datasets: Handler;
  health: Handler;
}

/** Every variable the app reads; cleared before each load so one test's settings never reach another's. */
const APP_VARIABLES = [
  'CONFIG_PATH',
  'DATA_ROOT',
  'DEFAULT_DATASET',
  'MAX_LOCATIONS',
  'MAX_BODY_BYTES',
  'MAX_SAMPLES',
  'CORS_ORIGIN',
  'BLOCK_CACHE_MB',
  'HEADER_PREFETCH_BYTES',
  'RANGE_TIMEOUT_MS',
  'RANGE_RETRIES',
  'MISSING_TTL_S',
  'MAX_CONCURRENT_READS',
  'REQUEST_BLOCK_BUDGET_MB',
  'DEADLINE_MARGIN_MS',
  'MAX_FILE_BYTES',
  'MAX_FILE_COORDINATES',
  'MAX_KMZ_UNZIPPED_MB',
  'GOOGLE_DATASET',
];

/** Quiet telemetry: Powertools dev mode prints no EMF; the logger is silent. */
const QUIET = { POWERTOOLS_DEV: 'true', POWERTOOLS_LOG_LEVEL: 'SILENT', POWERTOOLS_METRICS_DISABLED: 'true' };

/** Every app setting unset, telemetry quiet, then the test's own: the environment a fresh module registry sees. */
export function resetAppEnvironment(configPath: string, env: Record<string, string>): void {
  for (const name of APP_VARIABLES) delete process.env[name];
  Object.assign(process.env, QUIET, { CONFIG_PATH: configPath }, env);
}

export async function loadHandlers(env: Record<string, string> = {}): Promise<Handlers> {
  resetAppEnvironment(FIXTURE_CONFIG, env);
  let handlers: Handlers | undefined;
  await jest.isolateModulesAsync(async () => {
    const [elevation, legacy, openElevation, datasets, health] = await Promise.all([
      import('../../../functions/elevation'),
      import('../../../functions/legacy'),
      import('../../../functions/open-elevation'),
      import('../../../functions/datasets'),
      import('../../../functions/health'),
    ]);
    handlers = {
      elevation: elevation.handler,
      legacy: legacy.handler,
      openElevation: openElevation.handler,
      datasets: datasets.handler,
      health: health.handler,
    };
  });
  if (!handlers) throw new Error('handlers did not load');
  return handlers;
}

/** The body of a 5xx must be generic: no stack frames, file paths, URLs, hosts or error class names. */
export function leaksInternals(body: string): boolean {
  return /\bat .*:\d+:\d+|\/work\/|node_modules|https?:\/\/|127\.0\.0\.1|\.tif|\.ts\b|[a-z]Error\b|ENOENT|ECONN/.test(
    body,
  );
}
