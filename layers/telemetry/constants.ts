/** Names shared by every piece of telemetry; changing one here changes logs, metrics and traces together. */
export const SERVICE_NAME = 'elevation-api';
export const METRICS_NAMESPACE = 'ElevationAPI';

/** EMF metric names (the bridge maps them to Prometheus names; see docs/metrics.md). */
export const METRIC = {
  elevationsComputed: 'ElevationsComputed',
  requests: 'Requests',
  requestLatency: 'RequestLatency',
  pointsPerRequest: 'PointsPerRequest',
  blockCacheHits: 'BlockCacheHits',
  blockCacheMisses: 'BlockCacheMisses',
  rangeRequests: 'RangeRequests',
  rangeBytes: 'RangeBytes',
  rangeLatency: 'RangeLatency',
  decodeTime: 'DecodeTime',
  /** Own documents with dimension `answer` (data-answers.ts). */
  dataSourceAnswers: 'DataSourceAnswers',
} as const;

/** The `dataset` dimension of a request that named a fallback chain: `chain:<number of datasets>`. */
export function chainDimension(length: number): string {
  return `chain:${length}`;
}

/** Dimension value used when a request never named a dataset (health, datasets list, early 4xx). */
export const NO_DATASET = 'none';
