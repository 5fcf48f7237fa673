/** The local gateway in front of a plain HTTP server standing in for serverless-offline, for the gateway's tests. */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway, type Gateway, type GatewayOptions } from '../../scripts/gateway/gateway';
import type { ApiRoute } from '../../scripts/gateway/routes';

export interface GatewayHarness {
  gateway: Gateway;
  upstream: http.Server;
  /** Stops the gateway, then the upstream (its open connections too). */
  close(): Promise<void>;
}

export async function gatewayOver(
  handler: http.RequestListener,
  routes: ApiRoute[],
  options: Partial<Omit<GatewayOptions, 'upstream' | 'routes'>> = {},
): Promise<GatewayHarness> {
  const upstream = http.createServer(handler);
  await new Promise<void>((resolve) => upstream.listen(0, '127.0.0.1', resolve));
  const gateway = await startGateway({
    upstream: `http://127.0.0.1:${(upstream.address() as AddressInfo).port}`,
    routes,
    port: 0,
    maxConcurrent: 2,
    maxQueued: 10,
    timeoutMs: 5000,
    ...options,
  });
  return {
    gateway,
    upstream,
    close: async () => {
      await gateway.close();
      upstream.closeAllConnections();
      await new Promise((resolve) => upstream.close(resolve));
    },
  };
}
