/**
 * What every handler shares for the life of an execution environment: settings, dataset registry, limits.
 * Built on first use (not at import) so a broken config becomes a logged 500 on every request instead of an
 * opaque init crash; `npm start` validates the config up front so operators see the error at once.
 */
import {
  configureBlockCache,
  loadDatasetRegistry,
  loadSettings,
  SettingsError,
  type DatasetRegistry,
  type Settings,
} from '../layers/elevation';

export interface App {
  settings: Settings;
  registry: DatasetRegistry;
  limits: { maxLocations: number; maxSamples: number };
  /** Access-Control-Allow-Origin value, or null for no CORS headers. */
  corsOrigin: string | null;
}

let app: App | null = null;

export function getApp(): App {
  if (app) return app;
  const settings = loadSettings();
  const registry = loadDatasetRegistry({
    configPath: settings.configPath,
    dataRoot: settings.dataRoot,
    headerPrefetchBytes: settings.headerPrefetchBytes,
    timeoutMs: settings.rangeTimeoutMs,
    retries: settings.rangeRetries,
    missingTtlMs: settings.missingTtlMs,
    partialDecode: settings.partialDecode,
  });
  checkDefaultDataset(settings, registry);
  configureBlockCache(settings.blockCacheBytes);
  const maxLocations = settings.maxLocations ?? registry.config.maxLocationsPerRequest;
  app = {
    settings,
    registry,
    // As OpenTopoData: `samples` is bounded by the locations limit (a path sampled is that many locations);
    // MAX_SAMPLES may only lower it.
    limits: { maxLocations, maxSamples: Math.min(settings.maxSamples ?? maxLocations, maxLocations) },
    corsOrigin: settings.corsOrigin ?? registry.config.accessControlAllowOrigin,
  };
  return app;
}

/** A DEFAULT_DATASET that names no configured dataset fails at cold start, naming the variable. */
export function checkDefaultDataset(settings: Settings, registry: DatasetRegistry): void {
  const name = settings.defaultDataset;
  if (name !== null && !registry.names().includes(name)) {
    throw new SettingsError(
      `DEFAULT_DATASET '${name}' is not a configured dataset; configured: ${registry.names().join(', ')}.`,
    );
  }
}

/** The CORS origin when the app can be built, so even config errors answer with CORS headers if possible. */
export function corsOriginOrNull(): string | null {
  try {
    return getApp().corsOrigin;
  } catch {
    return null;
  }
}
