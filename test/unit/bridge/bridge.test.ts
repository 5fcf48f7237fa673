/** The bridge as a process would run it: real UDP/TCP/HTTP on loopback ephemeral ports. */
import { createSocket } from 'node:dgram';
import { connect } from 'node:net';
import { startBridge, type RunningBridge } from '../../../stack/bridge/bridge';
import { bridgeConfig } from '../../../stack/bridge/config';
import { recordedOutputLines } from './recorded';

let bridge: RunningBridge;

beforeAll(async () => {
  bridge = await startBridge(bridgeConfig({ BRIDGE_METRICS_PORT: '0', EMF_PORT: '0' }, []));
});

afterAll(async () => {
  await bridge.close();
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

it('exposes the kernel drop counter of its EMF socket', async () => {
  expect(await scrape()).toMatch(/^# TYPE telemetry_bridge_udp_kernel_drops_total counter$/m);
});
