/** Bridge settings from env, parsed once; a bad value fails at start with the variable's name. */
export interface BridgeConfig {
  host: string;
  metricsPort: number;
  emfPort: number;
  udpReceiveBufferBytes: number;
  readStdin: boolean;
  /** Folder of `<name>.pid` files whose processes (and descendants) get CPU and memory metrics; unset: none. */
  pidsDir?: string;
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
  return {
    // Loopback only: the bridge accepts unauthenticated metrics.
    host: env.BRIDGE_HOST || '127.0.0.1',
    metricsPort: port(env, 'BRIDGE_METRICS_PORT', 9464),
    emfPort: port(env, 'EMF_PORT', 25888),
    // 8 MiB: ~8,000 EMF datagrams of ~1 KB in flight while the event loop is busy (the default ~200 KB holds
    // ~200, a burst of one load-test second); the kernel caps it at net.core.rmem_max.
    udpReceiveBufferBytes: positive(env, 'BRIDGE_UDP_RECV_BUFFER_BYTES', 8 * 1024 * 1024),
    readStdin: argv.includes('--stdin'),
    pidsDir: env.STACK_PIDS_DIR || undefined,
  };
}
