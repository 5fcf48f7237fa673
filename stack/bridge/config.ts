/** Bridge settings from env, parsed once; a bad value fails at start with the variable's name. */
export interface BridgeConfig {
  host: string;
  metricsPort: number;
  emfPort: number;
  xrayPort: number;
  otlpEndpoint: string;
  maxQueue: number;
  batchSize: number;
  readStdin: boolean;
}

function port(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value < 0 || value > 65535)
    throw new Error(`${name} must be a port number, got "${raw}"`);
  return value;
}

function positive(env: NodeJS.ProcessEnv, name: string, fallback: number): number {
  const raw = env[name];
  const value = raw === undefined || raw === '' ? fallback : Number(raw);
  if (!Number.isInteger(value) || value <= 0)
    throw new Error(`${name} must be a positive integer, got "${raw}"`);
  return value;
}

export function bridgeConfig(env: NodeJS.ProcessEnv, argv: readonly string[]): BridgeConfig {
  const otlpBase = env.OTLP_HTTP_ENDPOINT || `http://127.0.0.1:${port(env, 'JAEGER_OTLP_HTTP_PORT', 4318)}`;
  return {
    // Loopback only: the bridge accepts unauthenticated metrics and traces.
    host: env.BRIDGE_HOST || '127.0.0.1',
    metricsPort: port(env, 'BRIDGE_METRICS_PORT', 9464),
    emfPort: port(env, 'EMF_PORT', 25888),
    xrayPort: port(env, 'XRAY_PORT', 2000),
    otlpEndpoint: `${otlpBase.replace(/\/$/, '')}/v1/traces`,
    // 20k spans × ~1 KB ≈ 20 MB worst case while Jaeger is away.
    maxQueue: positive(env, 'BRIDGE_MAX_QUEUED_SPANS', 20000),
    batchSize: positive(env, 'BRIDGE_BATCH_SPANS', 512),
    readStdin: argv.includes('--stdin'),
  };
}
