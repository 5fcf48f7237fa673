/**
 * The telemetry bridge as a set of listeners around the pure pieces: EMF intake (UDP+TCP, optional
 * stdin) → prom-client registry → GET /metrics; X-Ray daemon UDP → trace assembler → OTLP exporter.
 */
import { createSocket, type Socket } from 'node:dgram';
import { createServer as createHttpServer, type Server as HttpServer } from 'node:http';
import { createServer as createTcpServer, type Server as TcpServer, type AddressInfo } from 'node:net';
import { createInterface } from 'node:readline';
import { Counter, Gauge, Registry } from 'prom-client';
import type { BridgeConfig } from './config';
import { EmfIngest, MAX_LINE_BYTES } from './emf-ingest';
import { EmfRegistry } from './emf-registry';
import { OtlpExporter } from './otlp-exporter';
import { DEFAULT_ASSEMBLER, TraceAssembler } from './trace-assembler';
import { parseDatagram } from './xray';

export interface RunningBridge {
  ports: { metrics: number; emf: number; xray: number };
  registry: Registry;
  exporter: OtlpExporter;
  assembler: TraceAssembler;
  ingest: EmfIngest;
  /** Releases pending traces and drains the export queue (tests call it before asserting on Jaeger). */
  flush(): Promise<void>;
  close(): Promise<void>;
}

const TICK_MS = 100;

export async function startBridge(config: BridgeConfig): Promise<RunningBridge> {
  const registry = new Registry();
  const ingest = new EmfIngest(new EmfRegistry(registry), registry);
  const exporter = new OtlpExporter({
    endpoint: config.otlpEndpoint,
    maxQueue: config.maxQueue,
    batchSize: config.batchSize,
    timeoutMs: 5000,
  });
  const assembler = new TraceAssembler(
    (service, spans) => exporter.enqueue(service, spans),
    DEFAULT_ASSEMBLER,
  );
  const segments = new Counter({
    name: 'telemetry_bridge_xray_documents_total',
    help: 'X-Ray daemon datagrams by result',
    labelNames: ['result'],
    registers: [registry],
  });
  selfMetrics(registry, exporter, assembler);

  const timer = setInterval(() => {
    assembler.tick(Date.now());
    void exporter.flush();
  }, TICK_MS);

  const xray = await bindUdp(config.host, config.xrayPort, (msg) => {
    const parsed = parseDatagram(msg.toString('utf8'));
    segments.inc({ result: parsed.ok ? 'accepted' : 'malformed' });
    if (parsed.ok) assembler.add(parsed.spans, Date.now());
  });
  const emfUdp = await bindUdp(config.host, config.emfPort, (msg) =>
    ingest.text(msg.toString('utf8'), 'udp'),
  );
  // TCP on the port UDP got, so an ephemeral EMF port (0, in tests) is one number for both.
  const emfTcp = await listenTcp(config.host, emfUdp.address().port, ingest);
  const http = await listenHttp(config.host, config.metricsPort, registry);
  if (config.readStdin) {
    createInterface({ input: process.stdin, crlfDelay: Infinity }).on('line', (line) =>
      ingest.line(line, 'stdin'),
    );
  }

  const flush = async (): Promise<void> => {
    assembler.tick(Date.now(), true);
    await exporter.drain();
  };
  return {
    ports: { metrics: portOf(http), emf: emfUdp.address().port, xray: xray.address().port },
    registry,
    exporter,
    assembler,
    ingest,
    flush,
    async close() {
      clearInterval(timer);
      xray.close();
      emfUdp.close();
      await flush();
      await Promise.all([closeServer(emfTcp), closeServer(http)]);
    },
  };
}

function selfMetrics(registry: Registry, exporter: OtlpExporter, assembler: TraceAssembler): void {
  new Gauge({
    name: 'telemetry_bridge_spans',
    help: 'Spans handled by the X-Ray → OTLP path, by state (cumulative except queued/pending_traces)',
    labelNames: ['state'],
    registers: [registry],
    collect() {
      this.set({ state: 'exported' }, exporter.counts.exported);
      this.set({ state: 'dropped_queue_full' }, exporter.counts.droppedQueueFull);
      this.set({ state: 'export_failed' }, exporter.counts.failed);
      this.set({ state: 'dropped_trace_too_large' }, assembler.droppedSpans);
      this.set({ state: 'queued' }, exporter.queued);
      this.set({ state: 'pending_traces' }, assembler.pendingTraces);
    },
  });
}

function bindUdp(host: string, port: number, onMessage: (msg: Buffer) => void): Promise<Socket> {
  return new Promise((resolve, reject) => {
    const socket = createSocket('udp4');
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
