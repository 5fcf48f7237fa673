/**
 * instrumentHandler with real Powertools and the real X-Ray SDK in offline mode: what reaches a UDP
 * "daemon" and "EMF agent" socket, and what is printed. The module reads env at load time, so each
 * configuration loads a fresh copy (jest.isolateModules).
 */
import { createSocket, type Socket } from 'node:dgram';
import { performance } from 'node:perf_hooks';
import type { APIGatewayProxyEventV2, Context } from 'aws-lambda';
import type * as Telemetry from '../../../layers/telemetry/index';

type TelemetryModule = typeof Telemetry;

interface Capture {
  socket: Socket;
  port: number;
  messages: string[];
}

function capture(): Promise<Capture> {
  return new Promise((resolve) => {
    const socket = createSocket('udp4');
    const messages: string[] = [];
    socket.on('message', (m) => messages.push(m.toString('utf8')));
    socket.bind(0, '127.0.0.1', () => resolve({ socket, port: socket.address().port, messages }));
  });
}

// Everything the module or offline-env.ts may set: restored after each test, because jest runs
// other test files in the same worker process and process.env is shared between them.
const ENV_KEYS = [
  'IS_OFFLINE',
  'AWS_XRAY_DAEMON_ADDRESS',
  'AWS_EMF_AGENT_ENDPOINT',
  'XRAY_SAMPLE_RATE',
  'POWERTOOLS_DEV',
  'AWS_EXECUTION_ENV',
  'LAMBDA_TASK_ROOT',
  'AWS_LAMBDA_INITIALIZATION_TYPE',
  'AWS_XRAY_CONTEXT_MISSING',
  '_X_AMZN_TRACE_ID',
  'POWERTOOLS_LOG_LEVEL',
  'RUNTIME_METRICS_INTERVAL_S',
];
const savedEnv = Object.fromEntries(ENV_KEYS.map((k) => [k, process.env[k]]));

function loadOffline(daemonPort: number, agentPort: number, sampleRate: string): TelemetryModule {
  Object.assign(process.env, {
    IS_OFFLINE: 'true',
    AWS_XRAY_DAEMON_ADDRESS: `127.0.0.1:${daemonPort}`,
    AWS_EMF_AGENT_ENDPOINT: `udp://127.0.0.1:${agentPort}`,
    XRAY_SAMPLE_RATE: sampleRate,
  });
  let loaded: TelemetryModule | undefined;
  jest.isolateModules(() => {
    loaded = jest.requireActual<TelemetryModule>('../../../layers/telemetry/index');
  });
  return loaded as TelemetryModule;
}

/** What the handler wrapper observes besides a request's counters (functions/route.ts passes the library's). */
const OBSERVED = { cache: () => ({ bytes: 4096, size: 2 }), answers: ['ok', 'missing'] };
const instrument =
  (telemetry: TelemetryModule) => (route: string, fn: Parameters<TelemetryModule['instrumentHandler']>[1]) =>
    telemetry.instrumentHandler(route, fn, OBSERVED);

const context = { functionName: 'elevation-api-test-elevation', awsRequestId: 'aws-1' } as Context;
const event = {
  rawPath: '/v1/sample',
  requestContext: { requestId: 'apigw-1', http: { method: 'POST' } },
} as unknown as APIGatewayProxyEventV2;

async function until(check: () => boolean): Promise<void> {
  for (let i = 0; i < 100 && !check(); i++) await new Promise((r) => setTimeout(r, 20));
}

type SegmentDocument = Record<string, unknown> & { subsegments?: SegmentDocument[] };

/** Every segment in the datagrams, embedded subsegments included (their parent is the one they sit in). */
const documents = (messages: string[]) => {
  const all: SegmentDocument[] = [];
  const walk = (doc: SegmentDocument, parentId?: unknown) => {
    all.push(parentId === undefined ? doc : { ...doc, parent_id: parentId, trace_id: doc.trace_id });
    for (const child of doc.subsegments ?? []) walk({ ...child, trace_id: doc.trace_id }, doc.id);
  };
  for (const m of messages) walk(JSON.parse(m.split('\n')[1]) as SegmentDocument);
  return all;
};

let daemon: Capture;
let agent: Capture;
let printed: string[];

beforeEach(async () => {
  daemon = await capture();
  agent = await capture();
  printed = [];
  for (const stream of [process.stdout, process.stderr]) {
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(chunk.toString());
      return true;
    });
  }
});

afterEach(() => {
  jest.restoreAllMocks();
  daemon.socket.close();
  agent.socket.close();
  for (const [k, v] of Object.entries(savedEnv)) {
    if (v === undefined) delete process.env[k];
    else process.env[k] = v;
  }
});

it('sends one complete trace tree per sampled invocation and logs its trace id', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    await t.phase('parse', () => t.set({ dataset: 'sample', points: 2, interpolation: 'nearest' }));
    await t.trace.span('sample', () => t.trace.span('read-block', async (annotate) => annotate('block', 3)));
    return { statusCode: 200, body: '{}' };
  });
  // The answer carries the log line's correlation id (checked below), so a client can name its request.
  await expect(handler(event, context)).resolves.toEqual({
    statusCode: 200,
    body: '{}',
    headers: { [telemetry.REQUEST_ID_HEADER]: 'apigw-1' },
  });
  await until(() => daemon.messages.length >= 1);
  // One datagram: the function's root segment with the handler subsegment and its children embedded, so the
  // collector sees the whole trace at once (or none of it).
  await new Promise((r) => setTimeout(r, 50));
  expect(daemon.messages).toHaveLength(1);

  expect(daemon.messages.every((m) => m.startsWith('{"format":"json","version":1}\n'))).toBe(true);
  const docs = documents(daemon.messages);
  const byName = Object.fromEntries(docs.map((d) => [d.name as string, d]));
  expect(Object.keys(byName).sort()).toEqual([
    '## elevation',
    'elevation-api-test-elevation',
    'parse',
    'read-block',
    'sample',
  ]);
  const root = byName['elevation-api-test-elevation'];
  expect(root).not.toHaveProperty('parent_id');
  expect(byName['## elevation'].parent_id).toBe(root.id);
  expect(byName.parse.parent_id).toBe(byName['## elevation'].id);
  expect(byName['read-block'].parent_id).toBe(byName.sample.id);
  expect(new Set(docs.map((d) => d.trace_id))).toEqual(new Set([root.trace_id]));
  expect(byName['## elevation'].annotations).toMatchObject({
    dataset: 'sample',
    points: 2,
    interpolation: 'nearest',
  });

  const log = JSON.parse(printed.find((p) => p.includes('"message":"request"')) ?? '{}') as Record<
    string,
    unknown
  >;
  expect(log).toMatchObject({
    xray_trace_id: root.trace_id,
    correlation_id: 'apigw-1',
    route: 'elevation',
    status: 200,
    points: 2,
  });
});

it('exposes the correlation id to browsers wherever the answer allows their origin', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '0');
  const { REQUEST_ID_HEADER, withRequestId } = telemetry;
  const cors = { 'access-control-allow-origin': '*' };
  const handler = instrument(telemetry)('elevation', async () => ({
    statusCode: 200,
    headers: cors,
    body: '{}',
  }));
  expect((await handler(event, context)).headers).toEqual({
    ...cors,
    [REQUEST_ID_HEADER]: 'apigw-1',
    'access-control-expose-headers': REQUEST_ID_HEADER,
  });
  // Headers the answer already exposes stay exposed.
  const counted = { ...cors, 'access-control-expose-headers': 'x-elevation-filled' };
  expect(withRequestId({ statusCode: 200, headers: counted }, 'r').headers).toEqual({
    ...counted,
    [REQUEST_ID_HEADER]: 'r',
    'access-control-expose-headers': `x-elevation-filled, ${REQUEST_ID_HEADER}`,
  });
  // Without CORS (same-origin and non-browser clients read every header) nothing is added but the id.
  expect(withRequestId({ statusCode: 200, headers: { 'content-type': 'text/csv' } }, 'r').headers).toEqual({
    'content-type': 'text/csv',
    [REQUEST_ID_HEADER]: 'r',
  });
  expect(withRequestId({ statusCode: 204 }, 'r').headers).toEqual({ [REQUEST_ID_HEADER]: 'r' });
});

it('ships one EMF document per request to the agent endpoint instead of stdout', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    t.set({ dataset: 'sample', points: 5 });
    return { statusCode: 200, body: '{}' };
  });
  await handler(event, context);
  await handler(event, context);
  await until(() => agent.messages.length >= 3);
  const emf = agent.messages.map((m) => JSON.parse(m) as Record<string, unknown>);
  expect(emf.filter((d) => d.ColdStart === 1)).toHaveLength(1);
  const requests = emf.filter((d) => d.Requests === 1);
  expect(requests).toHaveLength(2);
  expect(requests[0]).toMatchObject({
    service: 'elevation-api',
    route: 'elevation',
    dataset: 'sample',
    outcome: '2xx',
    ElevationsComputed: 5,
  });
  expect(printed.some((p) => p.includes('"_aws"'))).toBe(false);
});

it('turns a thrown error into a generic 500, an error log line and a faulted trace', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const handler = instrument(telemetry)('legacy', async () => {
    throw new Error('secret detail');
  });
  const result = await handler(event, context);
  expect(result.statusCode).toBe(500);
  expect(result.headers).toEqual({
    'content-type': 'application/json',
    [telemetry.REQUEST_ID_HEADER]: 'apigw-1',
  });
  expect((await handler(event, context)).headers).toEqual(result.headers); // the shared 500 was not changed
  expect(JSON.parse(result.body as string)).toEqual({
    status: 'SERVER_ERROR',
    error: 'Internal server error',
  });
  await until(() => daemon.messages.length >= 2 && agent.messages.length >= 2);
  const log = JSON.parse(printed.find((p) => p.includes('"message":"request"')) ?? '{}') as Record<
    string,
    unknown
  >;
  expect(log).toMatchObject({ level: 'ERROR', status: 500, error: { message: 'secret detail' } });
  const root = documents(daemon.messages).find((d) => d.name === 'elevation-api-test-elevation');
  expect(root).toMatchObject({ fault: true, http: { response: { status: 500 } } });
  const emf = agent.messages
    .map((m) => JSON.parse(m) as Record<string, unknown>)
    .find((d) => d.Requests === 1);
  expect(emf).toMatchObject({ outcome: '5xx', dataset: 'none' });
});

it('records the error behind a mapped 5xx as an exception on the root and handler segments', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    const failure = new Error('range read of s3://bucket/tile.tif: 503 SlowDown');
    failure.name = 'DataSourceUnavailableError';
    t.recordServerError(failure);
    return { statusCode: 502, body: '{"status":"SERVER_ERROR"}' };
  });
  expect((await handler(event, context)).statusCode).toBe(502);
  await until(() => daemon.messages.length >= 1);
  const docs = documents(daemon.messages);
  const root = docs.find((d) => d.name === 'elevation-api-test-elevation');
  const handlerSegment = docs.find((d) => d.name === '## elevation');
  for (const segment of [root, handlerSegment]) {
    expect(segment).toMatchObject({
      fault: true,
      cause: {
        exceptions: [
          {
            id: expect.stringMatching(/^[0-9a-f]{16}$/),
            type: 'DataSourceUnavailableError',
            message: 'range read of s3://bucket/tile.tif: 503 SlowDown',
          },
        ],
      },
    });
  }
  const [exception] = (root?.cause as { exceptions: { stack: { path: string; line: number }[] }[] })
    .exceptions;
  expect(exception.stack[0]).toMatchObject({ path: expect.stringContaining('instrument-handler.test') });
});

it('flags a span a client error (4xx) ended as an error, without an exception or fault; a 5xx one as a fault', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    const failing = (statusCode: number) =>
      t.phase(`fails-${statusCode}`, () => {
        throw Object.assign(new Error(`status ${statusCode}`), { statusCode });
      });
    await failing(400).catch(() => undefined);
    await failing(503).catch(() => undefined);
    return { statusCode: 400, body: '{"status":"INVALID_REQUEST"}' };
  });
  expect((await handler(event, context)).statusCode).toBe(400);
  await until(() => daemon.messages.length >= 1);
  const byName = Object.fromEntries(documents(daemon.messages).map((d) => [d.name as string, d]));
  expect(byName['fails-400']).toMatchObject({ error: true });
  expect(byName['fails-400']).not.toHaveProperty('fault');
  expect(byName['fails-400']).not.toHaveProperty('cause');
  expect(byName['fails-503']).toMatchObject({
    fault: true,
    cause: { exceptions: [{ message: 'status 503' }] },
  });
  expect(byName['## elevation']).toMatchObject({ error: true });
  expect(byName['## elevation']).not.toHaveProperty('cause');
});

it("times every segment in microseconds, not the X-Ray SDK's whole milliseconds", async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '1');
  const busyMs = 1.5;
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    await t.phase('parse', () => {
      const until = performance.now() + busyMs;
      while (performance.now() < until); // a phase shorter than 2 ms, timed to the microsecond
    });
    return { statusCode: 200, body: '{}' };
  });
  await handler(event, context);
  await until(() => daemon.messages.length >= 1);
  const docs = documents(daemon.messages);
  expect(docs).toHaveLength(3);
  const times = docs.flatMap((d) => [d.start_time as number, d.end_time as number]);
  // Whole-millisecond clocks give every time as k / 1000 s; a microsecond clock almost never does (p ≈ 1e-18).
  expect(times.filter((s) => Math.round(s * 1e6) % 1000 !== 0).length).toBeGreaterThan(0);
  const parse = docs.find((d) => d.name === 'parse');
  const parseMs = ((parse?.end_time as number) - (parse?.start_time as number)) * 1000;
  expect(parseMs).toBeGreaterThanOrEqual(busyMs - 0.01);
  expect(parseMs).toBeLessThan(busyMs + 50);
  const root = docs.find((d) => d.name === 'elevation-api-test-elevation');
  expect(Math.abs((root?.start_time as number) - Date.now() / 1000)).toBeLessThan(5);
});

it('sends no segments for unsampled invocations but still logs a trace id', async () => {
  const telemetry = loadOffline(daemon.port, agent.port, '0');
  const handler = instrument(telemetry)('elevation', async (_e, t) =>
    t.phase('parse', () => ({ statusCode: 200, body: '{}' })),
  );
  await handler(event, context);
  await until(() => agent.messages.length >= 2);
  expect(daemon.messages).toEqual([]);
  const log = JSON.parse(printed.find((p) => p.includes('"message":"request"')) ?? '{}') as Record<
    string,
    unknown
  >;
  expect(log.xray_trace_id).toMatch(/^1-[0-9a-f]{8}-[0-9a-f]{24}$/);
});

it('obeys POWERTOOLS_LOG_LEVEL: at WARN a 200 prints no wide line, a 4xx prints one at WARN on stderr', async () => {
  process.env.POWERTOOLS_LOG_LEVEL = 'WARN';
  const telemetry = loadOffline(daemon.port, agent.port, '0');
  let status = 200;
  const handler = instrument(telemetry)('elevation', async () => ({ statusCode: status, body: '{}' }));
  const stderr = jest.spyOn(process.stderr, 'write');
  await handler(event, context);
  expect(printed.filter((p) => p.includes('"message":"request"'))).toEqual([]);
  status = 404;
  await handler(event, context);
  const lines = printed.filter((p) => p.includes('"message":"request"'));
  expect(lines).toHaveLength(1);
  expect(JSON.parse(lines[0])).toMatchObject({ level: 'WARN', status: 404, function_request_id: 'aws-1' });
  expect(stderr.mock.calls.map(([chunk]) => String(chunk))).toEqual(lines);
});

it('reports the observed cache in runtime health and only the observed answer labels as data answers', async () => {
  process.env.RUNTIME_METRICS_INTERVAL_S = '0.001';
  const telemetry = loadOffline(daemon.port, agent.port, '0');
  const handler = instrument(telemetry)('elevation', async (_e, t) => {
    t.set({ dataset: 'sample' });
    t.stats.dataAnswers.ok = 3;
    t.stats.dataAnswers.missing = 1;
    t.stats.dataAnswers.teapot = 7; // not an observed label: never a dimension value
    return { statusCode: 200, body: '{}' };
  });
  await new Promise((r) => setTimeout(r, 5)); // the runtime interval passes
  await handler(event, context);
  await until(() => agent.messages.length >= 4);
  const docs = agent.messages.flatMap((m) => m.split('\n').filter(Boolean)).map((l) => JSON.parse(l));
  const runtime = docs.find((d) => 'RuntimeBlockCacheBytes' in d);
  expect(runtime).toMatchObject({ RuntimeBlockCacheBytes: 4096, RuntimeBlockCacheEntries: 2 });
  const answers = docs.filter((d) => 'DataSourceAnswers' in d);
  expect(answers.map((d) => [d.answer, d.DataSourceAnswers])).toEqual([
    ['ok', 3],
    ['missing', 1],
  ]);
});
