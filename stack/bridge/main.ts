/**
 * `npm run bridge` — EMF → Prometheus for local runs (see docs/observability.md); traces go through the
 * OpenTelemetry Collector (stack/otelcol/).
 * `--stdin` also reads EMF lines from stdin, e.g. `sls offline | npm run bridge -- --stdin`.
 */
import { startBridge } from './bridge';
import { bridgeConfig } from './config';

async function main(): Promise<void> {
  const config = bridgeConfig(process.env, process.argv.slice(2));
  const bridge = await startBridge(config);
  const { metrics, emf } = bridge.ports;
  process.stderr.write(
    `bridge: /metrics http://${config.host}:${metrics}/metrics · EMF udp+tcp ${config.host}:${emf}\n`,
  );
  const stop = (): void => {
    bridge.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGTERM', stop);
  process.once('SIGINT', stop);
}

main().catch((error: Error) => {
  process.stderr.write(`bridge: ${error.message}\n`);
  process.exit(1);
});
