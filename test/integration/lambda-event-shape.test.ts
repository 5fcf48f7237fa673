/**
 * A Lambda invoked directly (`aws lambda invoke --payload 'null'`, a test console, a mistyped integration) gets
 * whatever JSON it is sent, not an API Gateway event. Every handler of serverless.yml answers such an event with a
 * 400 JSON body saying what it expected, instead of throwing (a Lambda error carrying a stack trace and the task
 * root's paths) or answering as if it were an empty GET.
 */
import fs from 'node:fs';
import { jest } from '@jest/globals';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { lambdaContext } from './support/api-gateway';
import { FIXTURE_CONFIG, leaksInternals, resetAppEnvironment } from './support/handlers';

type AnyHandler = (
  event: unknown,
  context: ReturnType<typeof lambdaContext>,
) => Promise<APIGatewayProxyStructuredResultV2>;

/** Every function's module, as serverless.yml names it (`handler: functions/<module>.handler`). */
const MODULES = [
  ...fs.readFileSync('serverless.yml', 'utf8').matchAll(/handler: functions\/([\w-]+)\.handler/g),
].map((match) => match[1]);

let handlers: Record<string, AnyHandler> = {};

beforeAll(async () => {
  resetAppEnvironment(FIXTURE_CONFIG, {});
  await jest.isolateModulesAsync(async () => {
    for (const name of MODULES) {
      const loaded = (await import(`../../functions/${name}`)) as { handler: AnyHandler };
      handlers[name] = loaded.handler;
    }
  });
});

afterAll(() => {
  handlers = {};
});

const NOT_EVENTS: [string, unknown][] = [
  ['null', null],
  ['undefined', undefined],
  ['a string', 'hello'],
  ['a number', 42],
  ['an array', [1, 2]],
];

describe('an invocation whose event is not an object', () => {
  it('finds every function of serverless.yml', () => {
    expect(MODULES.length).toBeGreaterThanOrEqual(10);
  });

  it.each(NOT_EVENTS)(
    'answers %s with a 400 JSON body on every handler, never a throw',
    async (what, event) => {
      for (const name of MODULES) {
        const result = await handlers[name](event, lambdaContext());
        const body = String(result.body);
        expect([name, result.statusCode]).toEqual([name, 400]);
        expect(result.headers?.['content-type']).toMatch(/^application\/json/);
        expect(leaksInternals(body)).toBe(false);
        expect(body).toContain(`not an API Gateway HTTP request (it is ${what})`);
      }
    },
  );

  it.each([
    ['body', { body: 5, requestContext: { http: { method: 'POST' } } }, 'its body is a number, not a string'],
    ['requestContext', { requestContext: null }, 'its requestContext is null, not an object'],
    [
      'requestContext.http',
      { requestContext: { http: null } },
      'its requestContext.http is null, not an object',
    ],
    ['headers', { headers: 'x' }, 'its headers is a string, not an object'],
    ['rawPath', { rawPath: ['/v1'] }, 'its rawPath is an array, not a string'],
  ])(
    'an object event whose %s has another type is a 400 naming it on every function, not a TypeError (500)',
    async (_field, event, says) => {
      for (const name of MODULES) {
        const result = await handlers[name](event as unknown as APIGatewayProxyEventV2, lambdaContext());
        expect([name, result.statusCode]).toEqual([name, 400]);
        expect(String(result.body)).toContain(says);
      }
    },
  );

  it("the AWS console's default test event ({key1: 'value1'}) is answered as a request, by no function with a 5xx", async () => {
    for (const name of MODULES) {
      const result = await handlers[name](
        { key1: 'value1' } as unknown as APIGatewayProxyEventV2,
        lambdaContext(),
      );
      expect([name, (result.statusCode ?? 500) < 500]).toEqual([name, true]);
    }
  });

  it('still answers an object event as a request (an empty one is a GET without parameters)', async () => {
    const result = await handlers.elevation({} as APIGatewayProxyEventV2, lambdaContext());
    expect(result.statusCode).toBe(400);
    expect(String(result.body)).toContain('No locations provided');
  });
});
