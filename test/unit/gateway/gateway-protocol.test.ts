// HTTP at the edge of the local gateway, found by an outside-in protocol probe: what a client sends that
// serverless-offline (hapi) or Node answered badly before (an empty body, a 400 minutes later, a request passed on
// that API Gateway would pass differently). Raw sockets where a client library would not send the request.
import fs from 'node:fs';
import net from 'node:net';
import type { Gateway } from '../../../scripts/gateway/gateway';
import {
  accessLine,
  handlerCodings,
  jsonString,
  MAX_BODY_BYTES,
  MAX_HEADER_COUNT,
  originForm,
} from '../../../scripts/gateway/gateway';
import type { ApiRoute } from '../../../scripts/gateway/routes';
import { gatewayOver, type GatewayHarness } from '../../support/gateway-harness';

const ROUTES: ApiRoute[] = [
  { functionName: 'elevation', method: '*', path: '/v1/{dataset}', segments: ['v1', '{dataset}'] },
];
const RECEIVE_MS = 600;

interface Seen {
  url: string;
  headers: Record<string, string | string[] | undefined>;
  body: string;
}

/** Sends `text` on a fresh connection and resolves with everything the gateway wrote until it closed (or `waitMs`). */
function raw(port: number, text: string, waitMs = 3000): Promise<{ text: string; ms: number }> {
  const started = Date.now();
  return new Promise((resolve) => {
    let out = '';
    const socket = net.connect(port, '127.0.0.1', () => socket.write(text));
    const timer = setTimeout(() => socket.destroy(), waitMs);
    socket.on('data', (chunk) => (out += chunk.toString('latin1')));
    socket.on('error', () => undefined);
    socket.on('close', () => {
      clearTimeout(timer);
      resolve({ text: out, ms: Date.now() - started });
    });
  });
}

/** The status and JSON body of the first answer in `text`. */
function answerOf(text: string): { status: number; body: unknown; head: string } {
  const [head, ...rest] = text.split('\r\n\r\n');
  const length = Number(/content-length: (\d+)/i.exec(head)?.[1] ?? 0);
  const body = rest.join('\r\n\r\n').slice(0, length);
  return { status: Number(head.split(' ')[1]), body: body === '' ? null : JSON.parse(body), head };
}

describe('the local gateway at the HTTP level', () => {
  let harness: GatewayHarness;
  let gateway: Gateway;
  const seen: Seen[] = [];
  const logged: string[] = [];

  beforeAll(async () => {
    harness = await gatewayOver(
      (request, response) => {
        let body = '';
        request.on('data', (chunk: Buffer) => (body += chunk.toString('utf8')));
        request.on('end', () => {
          seen.push({ url: request.url ?? '', headers: request.headers, body });
          response.writeHead(200, { 'content-type': 'application/json', 'accept-ranges': 'bytes' }); // as hapi
          response.end('{"status":"OK"}');
        });
      },
      ROUTES,
      { receiveTimeoutMs: RECEIVE_MS, accessLog: (line) => logged.push(line) },
    );
    gateway = harness.gateway;
  });
  afterAll(() => harness.close());
  beforeEach(() => (seen.length = 0));

  it('passes no Cookie on: hapi refused every request whose cookies it could not parse, and no handler reads them', async () => {
    const answer = await fetch(`${gateway.url}/v1/sample`, { headers: { cookie: 'prefs={"a":1}; b' } });
    expect(answer.status).toBe(200);
    expect(seen[0].headers.cookie).toBeUndefined();
    expect(answer.headers.get('accept-ranges')).toBeNull(); // hapi's promise of ranges the gateway does not pass
  });

  it.each([
    [
      'a body shorter than its Content-Length',
      'POST /v1/sample HTTP/1.1\r\nHost: a\r\nContent-Length: 100\r\n\r\nabc',
    ],
    ['headers that never end', 'GET /v1/sample HTTP/1.1\r\nHost: a\r\n'],
  ])('answers %s with a JSON 408 once the receive time is up', async (_, request) => {
    const before = logged.length;
    const { text, ms } = await raw(gateway.port, request, 10 * RECEIVE_MS);
    const answer = answerOf(text);
    expect(answer.status).toBe(408);
    expect(answer.body).toEqual({
      status: 'INVALID_REQUEST',
      error: `The request was not received in full within ${RECEIVE_MS / 1000} s.`,
    });
    expect(answer.head).toMatch(/x-request-id: gw-[0-9a-f-]{36}/);
    expect(ms).toBeLessThan(5 * RECEIVE_MS);
    expect(seen).toEqual([]);
    // One access-log line, the 408: the failed body read logged a 500 for the same request (a helper's probe).
    await new Promise((resolve) => setTimeout(resolve, 200));
    const statuses = logged.slice(before).map((line) => (JSON.parse(line) as { status: string }).status);
    expect(statuses).toEqual(['408']);
  });

  it('routes an absolute-form request target by its path', async () => {
    const { text } = await raw(
      gateway.port,
      'GET http://127.0.0.1/v1/sample?locations=1,2 HTTP/1.1\r\nHost: a\r\nConnection: close\r\n\r\n',
    );
    expect(answerOf(text).status).toBe(200);
    expect(seen[0].url).toBe('/v1/sample?locations=1,2');
    expect(originForm('https://h:1')).toBe('/');
    expect(originForm('http://h?x=1')).toBe('/?x=1');
    expect(originForm('/v1/a')).toBe('/v1/a');
  });

  it.each([
    ['no Host header (HTTP/1.1)', 'GET /v1/sample HTTP/1.1\r\n\r\n', 'The request has no Host header.'],
    [
      'two Host headers',
      'GET /v1/sample HTTP/1.1\r\nHost: a\r\nHost: b\r\n\r\n',
      'The request has more than one Host header.',
    ],
  ])('refuses %s in JSON', async (_, request, error) => {
    const answer = answerOf((await raw(gateway.port, request, 1500)).text);
    expect(answer.status).toBe(400);
    expect(answer.body).toEqual({ status: 'INVALID_REQUEST', error });
    expect(seen).toEqual([]);
  });

  it("sees every header, not Node's first 2,000: a second Host after them is a 400, many headers a 431", async () => {
    const many = Array.from({ length: 2100 }, (_, i) => `x-${i}: 1\r\n`).join(''); // ~17 KB, under the bytes limit
    const request = (headers: string) => `GET /v1/sample HTTP/1.1\r\n${headers}\r\n`;
    const twoHosts = answerOf((await raw(gateway.port, request(`Host: a\r\n${many}Host: b\r\n`), 1500)).text);
    expect(twoHosts.body).toEqual({
      status: 'INVALID_REQUEST',
      error: 'The request has more than one Host header.',
    });
    const tooMany = answerOf((await raw(gateway.port, request(`${many}Host: a\r\n`), 1500)).text);
    expect(tooMany.status).toBe(431);
    expect(tooMany.body).toEqual({
      status: 'INVALID_REQUEST',
      error: `The request has more than ${MAX_HEADER_COUNT} headers.`,
    });
    expect(seen).toEqual([]);
  });

  it('passes a request of MAX_HEADER_COUNT headers on', async () => {
    const many = Array.from({ length: MAX_HEADER_COUNT - 1 }, (_, i) => `x-${i}: 1\r\n`).join('');
    const answer = answerOf(
      (await raw(gateway.port, `GET /v1/sample HTTP/1.1\r\n${many}Host: a\r\n\r\n`)).text,
    );
    expect(answer.status).toBe(200);
    expect(seen).toHaveLength(1);
  });

  it('answers an HTTP/1.0 request without Host, which HTTP/1.0 allows', async () => {
    const { text } = await raw(gateway.port, 'GET /v1/sample HTTP/1.0\r\n\r\n');
    expect(answerOf(text).status).toBe(200);
  });

  it.each([
    ['Expect: foo', 'GET /v1/sample HTTP/1.1\r\nHost: a\r\nExpect: foo\r\n\r\n', 417, /only 100-continue/],
    ['an unknown method', 'FOO /v1/sample HTTP/1.1\r\nHost: a\r\n\r\n', 501, /method is not supported/],
    ['CONNECT', 'CONNECT a:443 HTTP/1.1\r\nHost: a:443\r\n\r\n', 405, /CONNECT is not supported/],
    [
      'Transfer-Encoding: gzip, chunked',
      'POST /v1/sample HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip, chunked\r\n\r\n3\r\nabc\r\n0\r\n\r\n',
      501,
      /Transfer-Encoding 'gzip, chunked' is not supported/,
    ],
    [
      'Transfer-Encoding: gzip without chunked',
      'POST /v1/sample HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: gzip\r\n\r\nabc',
      501,
      /^Transfer-Encoding 'gzip' is not supported/,
    ],
    [
      'Transfer-Encoding: chunked, gzip (refused by the parser itself)',
      'POST /v1/sample HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked, gzip\r\n\r\n',
      501,
      /^Transfer-Encoding 'chunked, gzip' is not supported/,
    ],
  ])(
    'answers %s with one JSON error, not an empty body or a closed socket',
    async (_, request, status, error) => {
      const { text } = await raw(gateway.port, request, 1500);
      expect(text.match(/HTTP\/1\.1 \d{3} /g)).toHaveLength(1); // a 501 was followed by a generic 400
      const answer = answerOf(text);
      expect(answer.status).toBe(status);
      expect(answer.body).toEqual({ status: 'INVALID_REQUEST', error: expect.stringMatching(error) });
      expect(answer.head).toMatch(/x-request-id: gw-/);
      expect(seen).toEqual([]);
    },
  );

  it('refuses a body its Content-Length declares too large before it is sent, with or without Expect', async () => {
    const declared = MAX_BODY_BYTES + 1;
    for (const expect100 of [true, false]) {
      const head =
        `POST /v1/sample HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: ${declared}\r\n` +
        (expect100 ? 'Expect: 100-continue\r\n' : '') +
        '\r\n';
      const { text } = await raw(gateway.port, head, 1500); // no body byte is ever sent
      expect(text).not.toMatch(/100 Continue/);
      const answer = answerOf(text);
      expect(answer.status).toBe(413);
      expect(answer.body).toEqual({
        status: 'INVALID_REQUEST',
        error: `The request body is larger than ${MAX_BODY_BYTES} bytes.`,
      });
    }
    expect(seen).toEqual([]);
  });

  it('answers a chunked body the moment it passes the limit, not once it ends', async () => {
    const answer = await new Promise<string>((resolve) => {
      let out = '';
      const socket = net.connect(gateway.port, '127.0.0.1', () => {
        socket.write('POST /v1/sample HTTP/1.1\r\nHost: a\r\nTransfer-Encoding: chunked\r\n\r\n');
        const chunk = Buffer.alloc(1024 * 1024, 0x20);
        for (let i = 0; i < 7; i++) socket.write(`${chunk.length.toString(16)}\r\n${chunk.toString()}\r\n`);
        // ... and never the last chunk: the upload has not ended.
      });
      socket.on('data', (data) => {
        out += data.toString('latin1');
        if (out.includes('\r\n\r\n')) {
          socket.destroy();
          resolve(out);
        }
      });
      socket.on('error', () => resolve(out));
    });
    expect(answer).toMatch(/^HTTP\/1.1 413 /);
    expect(seen).toEqual([]);
  });

  it('lets an Expect: 100-continue body within the limit through', async () => {
    const { text } = await raw(
      gateway.port,
      'POST /v1/sample HTTP/1.1\r\nHost: a\r\nContent-Type: application/json\r\nContent-Length: 2\r\n' +
        'Expect: 100-continue\r\nConnection: close\r\n\r\n{}',
    );
    expect(text).toMatch(/^HTTP\/1.1 100 Continue/);
    expect(seen.map((s) => s.body)).toEqual(['{}']);
  });

  it('refuses a JSON string body, which serverless-offline would hand the handler unwrapped', async () => {
    const post = (type: string, body: string) =>
      fetch(`${gateway.url}/v1/sample`, { method: 'POST', headers: { 'content-type': type }, body });
    const refused = await post('application/json; charset=utf-8', ' "{\\"locations\\":\\"48.7,9.1\\"}"');
    expect(refused.status).toBe(400);
    expect(await refused.json()).toEqual({
      status: 'INVALID_REQUEST',
      error: "The request body is a JSON string; send a JSON object (or the route's file) instead.",
    });
    expect(refused.headers.get('x-request-id')).toMatch(/^gw-/);
    expect((await post('text/plain', '"48.7,9.1"')).status).toBe(200);
    expect((await post('application/json', '{"locations":"48.7,9.1"}')).status).toBe(200);
    expect(seen.map((s) => s.body)).toEqual(['"48.7,9.1"', '{"locations":"48.7,9.1"}']);
    expect(jsonString(undefined, Buffer.from('\n"x"'))).toBe(true); // serverless-offline's default type
    expect(jsonString(undefined, Buffer.from('\uFEFF"x"'))).toBe(false); // its JSON.parse fails: passed as sent
    expect(jsonString('application/vnd.api+json', Buffer.from('"x" y'))).toBe(false); // not JSON at all
  });

  it('passes on only the codings the handlers apply, so hapi compresses nothing API Gateway would not', async () => {
    await fetch(`${gateway.url}/v1/sample`, {
      headers: { 'accept-encoding': 'br;q=1, deflate, GZIP;q=0.5, x-gzip' },
    });
    await fetch(`${gateway.url}/v1/sample`, { headers: { 'accept-encoding': 'deflate, *' } });
    expect(seen.map((s) => s.headers['accept-encoding'])).toEqual(['GZIP;q=0.5', 'identity']);
    expect(handlerCodings('gzip;q=0, identity')).toBe('gzip;q=0, identity');
  });

  it("gives its own answers (a 404 here) an x-request-id, as the handlers' answers have", async () => {
    const answer = await fetch(`${gateway.url}/nowhere`);
    expect(answer.status).toBe(404);
    expect(answer.headers.get('x-request-id')).toMatch(/^gw-[0-9a-f-]{36}$/);
  });

  it("logs each answer of its own in serverless.yml's access-log format (a passed-on one is the function's to log)", async () => {
    logged.length = 0;
    const noRoute = await fetch(`${gateway.url}/nowhere`, { headers: { 'user-agent': 'probe/1' } });
    const tooLarge = answerOf(
      (
        await raw(
          gateway.port,
          `POST /v1/x HTTP/1.1\r\nHost: a\r\nContent-Length: ${MAX_BODY_BYTES + 1}\r\n\r\n`,
          500,
        )
      ).text,
    );
    const malformed = answerOf(
      (await raw(gateway.port, 'GET /v1/x HTTP/1.1\r\nHost: a\r\nno colon\r\n\r\n')).text,
    );
    expect((await fetch(`${gateway.url}/v1/x`)).status).toBe(200);
    expect([noRoute.status, tooLarge.status, malformed.status]).toEqual([404, 413, 400]);
    const lines = logged.map((line) => JSON.parse(line) as Record<string, string>);
    const format = /httpApi:\s+format: '(.*)'/.exec(fs.readFileSync('serverless.yml', 'utf8'))?.[1] ?? '{}';
    for (const line of lines) expect(Object.keys(line)).toEqual(Object.keys(JSON.parse(format) as object));
    expect(lines).toEqual([
      expect.objectContaining({
        requestId: noRoute.headers.get('x-request-id'),
        ip: '127.0.0.1',
        requestTime: expect.stringMatching(/^\d\d\/[A-Z][a-z]{2}\/\d{4}:\d\d:\d\d:\d\d \+0000$/),
        method: 'GET',
        routeKey: '-',
        status: '404',
        integrationStatus: '-',
        integrationError: expect.stringMatching(/^No route for GET \/nowhere/),
        userAgent: 'probe/1',
      }),
      expect.objectContaining({ method: 'POST', routeKey: 'ANY /v1/{dataset}', status: '413' }),
      expect.objectContaining({
        method: '-',
        status: '400',
        integrationError: 'The request is not valid HTTP.',
      }),
    ]);
    expect(lines[1].responseLength).toBe(String(JSON.stringify(tooLarge.body).length));
  });

  it("writes requestTime in API Gateway's CLF form, zero-padded, in UTC", () => {
    const line = (at: Date) =>
      (
        JSON.parse(
          accessLine({
            requestId: 'r',
            ip: '-',
            method: 'GET',
            routeKey: '-',
            status: null,
            responseLength: 0,
            error: 'e',
            userAgent: '-',
            at,
          }),
        ) as Record<string, string>
      ).requestTime;
    expect(line(new Date(Date.UTC(2026, 0, 7, 4, 5, 6)))).toBe('07/Jan/2026:04:05:06 +0000');
    expect(line(new Date(Date.UTC(2026, 11, 31, 23, 59, 59)))).toBe('31/Dec/2026:23:59:59 +0000');
  });
});

describe('a kept-alive connection to serverless-offline closed just as a request goes out on it', () => {
  it('sends the request once more on a new connection, not a 502 (Node documents the race: reusedSocket)', async () => {
    let calls = 0;
    const harness = await gatewayOver((request, response) => {
      calls++;
      // The second request arrives on the first one's kept-alive connection: its server closes it unanswered,
      // as a server does whose keep-alive timeout ran out as the request came.
      if (calls === 2) {
        request.socket.destroy();
        return;
      }
      response.writeHead(200, { 'content-type': 'application/json' }).end('{"status":"OK"}');
    }, ROUTES);
    try {
      const first = await fetch(`${harness.gateway.url}/v1/sample`);
      expect(first.status).toBe(200);
      const second = await fetch(`${harness.gateway.url}/v1/sample`);
      expect(second.status).toBe(200);
      expect(await second.json()).toEqual({ status: 'OK' });
      expect(calls).toBe(3);
    } finally {
      await harness.close();
    }
  });
});
