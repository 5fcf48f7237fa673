/** Public surface of the elevation library: what handlers, scripts and tests import. */
import path from 'node:path';
import { loadApiConfig } from './config/dataset-config';
import { DatasetRegistry } from './dataset/registry';

export * from './types';
export * from './errors';
export {
  loadS3Settings,
  loadSettings,
  SettingsError,
  type S3Settings,
  type Settings,
} from './config/settings';
export {
  loadApiConfig,
  parseApiConfig,
  type ApiConfig,
  type DatasetDefinition,
} from './config/dataset-config';
export { DatasetRegistry } from './dataset/registry';
export { configureBlockCache, blockCache } from './dataset/block-store';
export { ConcurrencyLimit, ReadLimiter } from './data/read-limiter';
export { fullContext } from './dataset/raster-dataset';
// The domain operations behind the handlers (functions/ imports the library only from here).
export {
  answerElevationQuery,
  parseElevationQuery,
  renderElevationAnswer,
  roundElevation,
  type ElevationAnswer,
  type ElevationQuery,
  type QueryLimits,
} from './service/elevation-query';
export { parseLocations } from './request/locations';
export { IGNORED_PARAMETERS, parseInterpolation, unreadHeightOption } from './request/options';
export {
  parseDatumParam,
  tryParseVerticalDatum,
  type Geoid,
  type VerticalDatum,
} from './datum/vertical-datum';
export { GeoidGrids, readGeoidPaths } from './datum/geoid-grids';
export { convertHeights, type HeightConversion } from './datum/convert-heights';
export { servabilityChecks, unservable, type ServabilityCheck, type Unservable } from './service/servability';
export {
  CONTENT_TYPES,
  detectTrackFormat,
  tryDetectTrackFormat,
  type TrackFormat,
} from './track/track-format';
export { readTrackLocations, readTrackPath } from './track/track-text';
export { isGzip } from './track/gzip-file';
export { isFit } from './track/fit';
export { parseFileOptions, type FileRequestOptions } from './track/file-options';
export {
  fillFileHeights,
  nothingFilledMessage,
  type FillReport,
  type FilledFile,
} from './track/fill-heights';
export {
  parseProfileOptions,
  rejectUnknownProfileParameters,
  type ProfileOptions,
} from './profile/profile-options';
export { answerProfile } from './profile/elevation-profile';
export { renderProfileSvg } from './profile/profile-svg';
export { renderProfileCsv } from './profile/profile-csv';
export { GOOGLE_PARAMETERS, GoogleInvalidRequestError, parseGoogleQuery } from './google/google-query';
export { answerGoogleQuery, type GoogleAnswer } from './google/google-answer';
export { googleAnswerXml, googleErrorXml, type GoogleStatus } from './google/google-xml';

export interface RegistryLoadOptions {
  configPath: string;
  /** Base for relative dataset paths (folder or http/s3 URL prefix); default: the config file's folder. */
  dataRoot?: string | null;
  headerPrefetchBytes?: number;
  /** Serve rows before a block's checksum is verified (PARTIAL_DECODE); default false. */
  partialDecode?: boolean;
  timeoutMs?: number;
  retries?: number;
  /** How long a missing tile or file stays known as missing (default 60 s). */
  missingTtlMs?: number;
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const [height] = await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'nearest');
 * assert.equal(height, 1036);
 * ```
 */
export function loadDatasetRegistry(options: RegistryLoadOptions): DatasetRegistry {
  const configPath = path.resolve(options.configPath);
  return new DatasetRegistry(loadApiConfig(configPath), {
    dataRoot: options.dataRoot ?? path.dirname(configPath),
    headerPrefetchBytes: options.headerPrefetchBytes ?? 64 * 1024,
    partialDecode: options.partialDecode ?? false,
    timeoutMs: options.timeoutMs ?? 5000,
    retries: options.retries ?? 2,
    missingTtlMs: options.missingTtlMs ?? 60_000,
  });
}
