/**
 * A function the gateway cannot invoke: the client gets a generic 502, and the access log says why (refused,
 * reset, closed without an answer), which it did not: an operator saw only "could not be invoked".
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { startGateway } from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];
const GENERIC = { status: 'SERVER_ERROR', error: 'The function could not be invoked.' };

describe('the local gateway when the function cannot be invoked', () => {
  it('logs a refused connection with its code, and tells the client nothing internal', async () => {
    // A port that was just free: nothing listens on it.
    const probe = http.createServer();
    await new Promise<void>((resolve) => probe.listen(0, '127.0.0.1', resolve));
    const { port } = probe.address() as AddressInfo;
    await new Promise((resolve) => probe.close(resolve));
    const logged: Record<string, string>[] = [];
    const gateway = await startGateway({
      upstream: `http://127.0.0.1:${port}`,
      routes: ROUTES,
      port: 0,
      maxConcurrent: 1,
      maxQueued: 1,
      timeoutMs: 5000,
      accessLog: (line) => logged.push(JSON.parse(line) as Record<string, string>),
    });
    try {
      const response = await fetch(`${gateway.url}/v1/sample`);
      const body = await response.text();
      expect(response.status).toBe(502);
      expect(JSON.parse(body)).toEqual(GENERIC);
      expect(body).not.toContain(String(port));
      expect(logged).toHaveLength(1);
      expect(logged[0].status).toBe('502');
      expect(logged[0].integrationError).toBe(
        `The function could not be invoked. (connect ECONNREFUSED 127.0.0.1:${port})`,
      );
    } finally {
      await gateway.close();
    }
  });

  it('logs a connection closed without an answer as such', async () => {
    const logged: Record<string, string>[] = [];
    const harness = await gatewayOver((request) => request.socket.destroy(), ROUTES, {
      accessLog: (line) => logged.push(JSON.parse(line) as Record<string, string>),
    });
    try {
      const response = await fetch(`${harness.gateway.url}/v1/sample`);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual(GENERIC);
      expect(logged.map((l) => l.integrationError)).toEqual([
        expect.stringMatching(/^The function could not be invoked\. \((socket hang up|ECONNRESET.*)\)$/),
      ]);
    } finally {
      await harness.close();
    }
  });

  it('logs an answer that broke off mid-body', async () => {
    const logged: Record<string, string>[] = [];
    const harness = await gatewayOver(
      (_request, response) => {
        response.writeHead(200, { 'content-type': 'application/json', 'content-length': '1000' });
        response.write('{"status":"OK"');
        setTimeout(() => response.socket?.destroy(), 20);
      },
      ROUTES,
      { accessLog: (line) => logged.push(JSON.parse(line) as Record<string, string>) },
    );
    try {
      const response = await fetch(`${harness.gateway.url}/v1/sample`);
      expect(response.status).toBe(502);
      expect(await response.json()).toEqual(GENERIC);
      expect(logged.map((l) => l.integrationError)).toEqual([
        expect.stringMatching(/^The function could not be invoked\. \(the answer broke off: .+\)$/),
      ]);
    } finally {
      await harness.close();
    }
  });
});
