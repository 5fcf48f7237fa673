// Prometheus metric names the panels read. The API's names come from the EMF→Prometheus bridge
// (catalogue: docs/metrics.md); k6_* are the names k6's experimental-prometheus-rw output writes
// (the project's runner writes the same); node_* and process_* are node exporter / client defaults.

export const api = {
  elevations: 'elevation_api_elevations_computed_total',
  requests: 'elevation_api_requests_total',
  latency: 'elevation_api_request_latency_seconds',
  pointsPerRequest: 'elevation_api_points_per_request',
  cacheHits: 'elevation_api_block_cache_hits_total',
  cacheMisses: 'elevation_api_block_cache_misses_total',
  rangeRequests: 'elevation_api_range_requests_total',
  rangeBytes: 'elevation_api_range_bytes_total',
  rangeLatency: 'elevation_api_range_latency_seconds',
  decode: 'elevation_api_decode_seconds',
  coldStarts: 'elevation_api_cold_starts_total',
  dataSourceAnswers: 'elevation_api_data_source_answers_total',
} as const;

/** Runtime health of the execution environments (layers/telemetry/runtime-health.ts), every 10 s per function. */
export const runtime = {
  loopDelayP50: 'elevation_api_runtime_event_loop_delay_p50_seconds',
  loopDelayP99: 'elevation_api_runtime_event_loop_delay_p99_seconds',
  heapUsed: 'elevation_api_runtime_heap_used_bytes',
  heapLimit: 'elevation_api_runtime_heap_limit_bytes',
  gcPause: 'elevation_api_runtime_gc_pause_seconds_total',
  activeHandles: 'elevation_api_runtime_active_handles',
  blockCacheBytes: 'elevation_api_runtime_block_cache_bytes',
  blockCacheEntries: 'elevation_api_runtime_block_cache_entries',
} as const;

/** k6 remote-write names: counters get `_total`, rates `_rate`, trends one gauge per stat (seconds). */
export const k6 = {
  httpReqs: 'k6_http_reqs_total',
  iterations: 'k6_iterations_total',
  droppedIterations: 'k6_dropped_iterations_total',
  vus: 'k6_vus',
  vusMax: 'k6_vus_max',
  httpReqFailed: 'k6_http_req_failed_rate',
  checks: 'k6_checks_rate',
  /** The runner only (k6 pushes no such series): how many checks each `k6_checks_rate` series counted. */
  checksSamples: 'k6_checks_samples_total',
  /** Trend stats the runner must push (K6_PROMETHEUS_RW_TREND_STATS=p(50),p(95),p(99)). */
  durationP50: 'k6_http_req_duration_p50',
  durationP95: 'k6_http_req_duration_p95',
  durationP99: 'k6_http_req_duration_p99',
  /** The load scripts' custom Counter('elevations') of elevations returned. */
  elevations: 'k6_elevations_total',
} as const;

export const host = {
  cpu: 'node_cpu_seconds_total',
  memTotal: 'node_memory_MemTotal_bytes',
  memAvailable: 'node_memory_MemAvailable_bytes',
  processCpu: 'process_cpu_seconds_total',
  processMemory: 'process_resident_memory_bytes',
  /** The same for the OpenTelemetry Collector and Jaeger (collector distributions prefix them otelcol_). */
  collectorCpu: 'otelcol_process_cpu_seconds_total',
  collectorMemory: 'otelcol_process_memory_rss_bytes',
  /** The bridge's /proc reading of the processes under test (stack/bridge/process-metrics.ts), by `process`. */
  stackProcessCpu: 'elevation_stack_process_cpu_seconds_total',
  stackProcessMemory: 'elevation_stack_process_resident_memory_bytes',
} as const;
