/**
 * The telemetry bridge as a set of listeners around the pure pieces: EMF intake (UDP+TCP, optional
 * stdin) → prom-client registry → GET /metrics. Traces do not pass through here: the OpenTelemetry
 * Collector's awsxray receiver takes the functions' X-Ray segments (stack/otelcol/).
 */
import { createSocket, type Socket } from 'node:dgram';
import { readFileSync } from 'node:fs';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Counter, Registry } from 'prom-client';
import type { BridgeConfig } from './config';
import { EmfIngest, MAX_LINE_BYTES } from './emf-ingest';
import { EmfRegistry } from './emf-registry';
import { registerProcessMetrics } from './process-metrics';
import { udpDrops } from './udp-drops';

export interface RunningBridge {
  ports: { metrics: number; emf: number };
  registry: Registry;
  ingest: EmfIngest;
  close(): Promise<void>;
}

export async function startBridge(config: BridgeConfig): Promise<RunningBridge> {
  const registry = new Registry();
  const ingest = new EmfIngest(new EmfRegistry(registry), registry);
  const emfUdp = await bindUdp(config.host, config.emfPort, config.udpReceiveBufferBytes, (msg) =>
    ingest.text(msg.toString('utf8'), 'udp'),
  );
  kernelDrops(registry, emfUdp.address().port);
  if (config.pidsDir) registerProcessMetrics(registry, config.pidsDir);
  // TCP on the port UDP got, so an ephemeral EMF port (0, in tests) is one number for both.
  const emfTcp = await listenTcp(config.host, emfUdp.address().port, ingest);
  const http = await listenHttp(config.host, config.metricsPort, registry);
  if (config.readStdin) {
    createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) =>
      ingest.line(line, 'stdin'),
    );
  }

  return {
    ports: { metrics: portOf(http), emf: emfUdp.address().port },
    registry,
    ingest,
    async close() {
      emfUdp.close();
      await Promise.all([closeServer(emfTcp), closeServer(http)]);
    },
  };
}

/**
 * Datagrams the kernel dropped for the EMF socket (receive buffer full): lost metrics the bridge never saw, read
 * from /proc/net/udp at scrape time and exposed as a counter (the kernel's count only grows while the socket lives).
 */
function kernelDrops(registry: Registry, port: number): void {
  let reported = 0;
  new Counter({
    name: 'telemetry_bridge_udp_kernel_drops_total',
    help: 'EMF datagrams dropped by the kernel before the bridge read them (/proc/net/udp drops)',
    registers: [registry],
    collect() {
      const drops = udpDrops(readProcNetUdp(), port);
      if (drops === null || drops <= reported) return;
      this.inc(drops - reported);
      reported = drops;
    },
  });
}

function readProcNetUdp(): string {
  try {
    return readFileSync('/proc/net/udp', 'utf8');
  } catch {
    return ''; // not Linux: no drops to report
  }
}

function bindUdp(
  host: string,
  port: number,
  recvBufferSize: number,
  onMessage: (msg: Buffer) => void,
): Promise<Socket> {
  return new Promise((resolve, reject) => {
    // The kernel caps the size at net.core.rmem_max; asking for more is not an error.
    const socket = createSocket({ type: 'udp4', recvBufferSize });
    socket.once('error', reject);
    socket.on('message', (msg) => onMessage(msg));
    socket.bind(port, host, () => {
      socket.off('error', reject);
      socket.on('error', () => undefined);
      resolve(socket);
    });
  });
}

/** Newline-delimited EMF over TCP, as the CloudWatch agent accepts it; over-long lines cut the connection. */
function listenTcp(host: string, port: number, ingest: EmfIngest): Promise<TcpServer> {
  const server = createTcpServer((socket) => {
    let buffered = '';
    socket.setEncoding('utf8');
    socket.on('data', (chunk: string) => {
      buffered += chunk;
      const lines = buffered.split('\n');
      buffered = lines.pop() ?? '';
      for (const line of lines) if (line.trim() !== '') ingest.line(line, 'tcp');
      if (buffered.length > MAX_LINE_BYTES) {
        ingest.line(buffered, 'tcp');
        socket.destroy();
      }
    });
    socket.on('end', () => buffered.trim() !== '' && ingest.line(buffered, 'tcp'));
    socket.on('error', () => undefined);
  });
  return listen(server, host, port);
}

function listenHttp(host: string, port: number, registry: Registry): Promise<HttpServer> {
  const server = createHttpServer((req, res) => {
    if (req.url === '/health') {
      res.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK"}');
    } else if (req.url === '/metrics' && req.method === 'GET') {
      registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': registry.contentType }).end(text),
        (error: Error) => res.writeHead(500).end(error.message),
      );
    } else {
      res.writeHead(404).end();
    }
  });
  return listen(server, host, port);
}

function listen<T extends HttpServer | TcpServer>(server: T, host: string, port: number): Promise<T> {
  return new Promise((resolve, reject) => {
    server.once('error', reject);
    server.listen(port, host, () => resolve(server));
  });
}

function portOf(server: HttpServer | TcpServer): number {
  return (server.address() as AddressInfo).port;
}

function closeServer(server: HttpServer | TcpServer): Promise<void> {
  if ('closeAllConnections' in server) server.closeAllConnections();
  return new Promise((resolve) => server.close(() => resolve()));
}
