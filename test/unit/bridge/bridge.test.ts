/** The bridge as a process would run it: real UDP/TCP/HTTP on loopback ephemeral ports. */
import { createSocket } from 'node:dgram';
import { createServer, type Server } from 'node:http';
import { connect, type AddressInfo } from 'node:net';
import { startBridge, type RunningBridge } from '../../../stack/bridge/bridge';
import { bridgeConfig } from '../../../stack/bridge/config';
import { recordedDatagrams, recordedOutputLines } from './recorded';

interface OtlpBody {
  resourceSpans: {
    resource: { attributes: { key: string; value: { stringValue: string } }[] };
    scopeSpans: { spans: { name: string; traceId: string }[] }[];
  }[];
}

let receiver: Server;
const received: OtlpBody[] = [];
let bridge: RunningBridge;

beforeAll(async () => {
  receiver = createServer((req, res) => {
    let body = '';
    req.on('data', (c: Buffer) => (body += c.toString('utf8')));
    req.on('end', () => {
      received.push(JSON.parse(body) as OtlpBody);
      res.writeHead(200, { 'content-type': 'application/json' }).end('{}');
    });
  });
  await new Promise<void>((resolve) => receiver.listen(0, '127.0.0.1', resolve));
  const otlp = `http://127.0.0.1:${(receiver.address() as AddressInfo).port}`;
  const env = { BRIDGE_METRICS_PORT: '0', EMF_PORT: '0', XRAY_PORT: '0', OTLP_HTTP_ENDPOINT: otlp };
  bridge = await startBridge(bridgeConfig(env, []));
});

afterAll(async () => {
  await bridge.close();
  await new Promise((resolve) => receiver.close(resolve));
});

function sendUdp(port: number, messages: string[]): Promise<void> {
  const socket = createSocket('udp4');
  return Promise.all(
    messages.map(
      (m) =>
        new Promise<void>((resolve, reject) =>
          socket.send(m, port, '127.0.0.1', (e) => (e ? reject(e) : resolve())),
        ),
    ),
  ).then(() => {
    socket.close();
  });
}

async function until(check: () => Promise<boolean> | boolean, timeoutMs = 3000): Promise<void> {
  const deadline = Date.now() + timeoutMs;
  while (!(await check())) {
    if (Date.now() > deadline) throw new Error('condition not met in time');
    await new Promise((r) => setTimeout(r, 20));
  }
}

const scrape = async (): Promise<string> =>
  (await fetch(`http://127.0.0.1:${bridge.ports.metrics}/metrics`)).text();

it('answers /health', async () => {
  const response = await fetch(`http://127.0.0.1:${bridge.ports.metrics}/health`);
  expect(response.status).toBe(200);
});

it('exposes EMF received over UDP on /metrics and counts non-EMF lines', async () => {
  await sendUdp(bridge.ports.emf, recordedOutputLines());
  await until(async () =>
    (await scrape()).includes('telemetry_bridge_emf_lines_total{source="udp",result="not_emf"} 3'),
  );
  expect(await scrape()).toMatch(/elevation_api_elevations_computed_total\{[^}]*outcome="2xx"[^}]*\} 3/);
});

it('accepts newline-delimited EMF over TCP like the CloudWatch agent', async () => {
  const emf = recordedOutputLines().filter((l) => l.startsWith('{"_aws"'));
  await new Promise<void>((resolve, reject) => {
    const socket = connect(bridge.ports.emf, '127.0.0.1', () => socket.end(`${emf.join('\n')}\n`));
    socket.on('close', () => resolve());
    socket.on('error', reject);
  });
  await until(async () => (await scrape()).includes('source="tcp"'));
  expect(await scrape()).toContain(
    `telemetry_bridge_emf_lines_total{source="tcp",result="emf"} ${emf.length}`,
  );
});

it('posts recorded X-Ray segments to OTLP/HTTP as complete traces named after the function', async () => {
  await sendUdp(bridge.ports.xray, [...recordedDatagrams(), 'not a segment']);
  await until(() => bridge.exporter.counts.exported === 11);
  const services = received.flatMap((b) =>
    b.resourceSpans.map(
      (r) => r.resource.attributes.find((a) => a.key === 'service.name')?.value.stringValue,
    ),
  );
  expect(new Set(services)).toEqual(new Set(['elevation-api-dev-elevation']));
  const names = received.flatMap((b) =>
    b.resourceSpans.flatMap((r) => r.scopeSpans.flatMap((s) => s.spans.map((span) => span.name))),
  );
  expect(names.sort()).toEqual(
    [
      '## elevation',
      '## elevation',
      '## legacy',
      'parse',
      'read-block',
      'read-block',
      'resolve-tiles',
      'sample',
    ]
      .concat(Array(3).fill('elevation-api-dev-elevation'))
      .sort(),
  );
  expect(await scrape()).toContain('telemetry_bridge_xray_documents_total{result="malformed"} 1');
});
