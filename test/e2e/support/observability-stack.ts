/**
 * `stack/up.sh` / `stack/down.sh` driven from tests on free ports and a private run folder, so a
 * developer's own stack (default ports, .run/) and parallel test runs are left alone.
 */
import { execFile } from 'node:child_process';
import { readdirSync, readFileSync } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface ObservabilityStack {
  env: Record<string, string>;
  prometheusUrl: string;
  jaegerUrl: string;
  bridgeUrl: string;
  /** The OpenTelemetry Collector's self-metrics (`/metrics`). */
  collectorUrl: string;
  /** Jaeger's self-metrics (`/metrics`). */
  jaegerMetricsUrl: string;
  /** Where X-Ray segment documents go (the collector's awsxray receiver, UDP). */
  xrayPort: number;
  /** What the functions need to reach the bridge (AWS_* variables pass through serverless-offline). */
  functionEnv: Record<string, string>;
  runDir: string;
  /** PIDs from the PID files, read after start-up. */
  pids(): number[];
  /** The PID of one service (`jaeger`, `collector`, …) from its PID file. */
  pidOf(service: string): number;
  down(): Promise<string>;
}

export async function stackUp(): Promise<ObservabilityStack> {
  const names = ['PROMETHEUS_PORT', 'NODE_EXPORTER_PORT', 'JAEGER_QUERY_PORT', 'JAEGER_QUERY_GRPC_PORT'];
  names.push(
    'JAEGER_OTLP_GRPC_PORT',
    'JAEGER_OTLP_HTTP_PORT',
    'BRIDGE_METRICS_PORT',
    'XRAY_PORT',
    'XRAY_PROXY_PORT',
    'COLLECTOR_METRICS_PORT',
    'JAEGER_METRICS_PORT',
    'EMF_PORT',
  );
  const env: Record<string, string> = { STACK_RUN_DIR: path.join(REPO_ROOT, '.run', `e2e-${process.pid}`) };
  const options = { cwd: REPO_ROOT, env: { ...process.env, ...env }, timeout: 120_000 };
  // A port free when picked can still be taken before the service binds it; that is retried with new ports.
  for (let attempt = 1; ; attempt++) {
    // Free TCP ports; the two UDP ones (X-Ray, EMF) are taken from the same pool of unused numbers.
    const ports = await stackPorts(names.length);
    names.forEach((name, i) => (env[name] = String(ports[i])));
    Object.assign(options.env, env);
    try {
      await run('bash', ['stack/up.sh'], options);
      break;
    } catch (error) {
      await run('bash', ['stack/down.sh'], options).catch(() => undefined);
      const stderr = String((error as { stderr?: unknown }).stderr ?? '');
      if (attempt >= STACK_UP_ATTEMPTS || !/address already in use/i.test(stderr)) throw error;
    }
  }
  const pidDir = path.join(env.STACK_RUN_DIR, 'pids');
  return {
    env,
    prometheusUrl: `http://127.0.0.1:${env.PROMETHEUS_PORT}`,
    jaegerUrl: `http://127.0.0.1:${env.JAEGER_QUERY_PORT}`,
    bridgeUrl: `http://127.0.0.1:${env.BRIDGE_METRICS_PORT}`,
    collectorUrl: `http://127.0.0.1:${env.COLLECTOR_METRICS_PORT}`,
    jaegerMetricsUrl: `http://127.0.0.1:${env.JAEGER_METRICS_PORT}`,
    xrayPort: Number(env.XRAY_PORT),
    functionEnv: {
      AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${env.XRAY_PORT}`,
      AWS_EMF_AGENT_ENDPOINT: `udp://127.0.0.1:${env.EMF_PORT}`,
    },
    runDir: env.STACK_RUN_DIR,
    pids: () => readdirSync(pidDir).map((f) => Number(readFileSync(path.join(pidDir, f), 'utf8').trim())),
    pidOf: (service) => Number(readFileSync(path.join(pidDir, `${service}.pid`), 'utf8').trim()),
    down: async () => (await run('bash', ['stack/down.sh'], options)).stdout,
  };
}

const STACK_UP_ATTEMPTS = 3;

/**
 * `count` distinct ports that are free now, picked at random below the kernel's ephemeral range: a port from
 * `listen(0)` lies inside that range, where any outgoing connection can take it before the service binds it
 * (it happened: Jaeger's query port, "address already in use").
 */
export async function stackPorts(count: number): Promise<number[]> {
  const low = ephemeralLow() > 12_000 ? 10_000 : 1_024;
  const high = Math.max(low + 2_000, Math.min(ephemeralLow(), 32_768)) - 1;
  const picked = new Set<number>();
  while (picked.size < count) {
    const port = low + Math.floor(Math.random() * (high - low + 1));
    if (!picked.has(port) && (await isFree(port))) picked.add(port);
  }
  return [...picked];
}

function ephemeralLow(): number {
  try {
    const low = Number(readFileSync('/proc/sys/net/ipv4/ip_local_port_range', 'utf8').trim().split(/\s+/)[0]);
    return Number.isInteger(low) && low > 0 ? low : 32_768;
  } catch {
    return 32_768;
  }
}

function isFree(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const server = net.createServer();
    server.unref();
    server.once('error', () => resolve(false));
    server.listen(port, '127.0.0.1', () => server.close(() => resolve(true)));
  });
}

export function isAlive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
}

/** Polls `probe` until it returns a value (not undefined) or the time is up. */
export async function eventually<T>(
  probe: () => Promise<T | undefined>,
  timeoutMs: number,
  what: string,
): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await probe().catch(() => undefined);
    if (value !== undefined) return value;
    if (Date.now() > deadline) throw new Error(`timed out after ${timeoutMs} ms waiting for ${what}`);
    await new Promise((r) => setTimeout(r, 500));
  }
}
