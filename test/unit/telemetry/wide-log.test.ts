/**
 * The fast wide log line must be the line Powertools' Logger would print for the same request: same keys, in
 * the same order, with the same values (the timestamp aside). Each case prints through a real Powertools Logger
 * and through formatWideLine, then compares.
 */
import { Logger } from '@aws-lambda-powertools/logger';
import type { Context } from 'aws-lambda';
import { formatWideLine, isUtc, samplingRateFromEnv } from '../../../layers/telemetry/wide-log';

const TRACE_ID = '1-6b0ca4d7-43434fe77cf359d2f9a9d383';
const context = {
  functionName: 'elevation-api-dev-elevation',
  functionVersion: '$LATEST',
  invokedFunctionArn: 'arn:aws:lambda:eu-central-1:123456789012:function:elevation-api-dev-elevation',
  memoryLimitInMB: '1024',
  awsRequestId: 'req-7',
} as Context;

const saved = { trace: process.env._X_AMZN_TRACE_ID, init: process.env.AWS_LAMBDA_INITIALIZATION_TYPE };
beforeAll(() => {
  process.env._X_AMZN_TRACE_ID = `Root=${TRACE_ID};Parent=53995c3f42cd8ad8;Sampled=0`;
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE = 'on-demand';
});
afterAll(() => {
  for (const [key, value] of [
    ['_X_AMZN_TRACE_ID', saved.trace],
    ['AWS_LAMBDA_INITIALIZATION_TYPE', saved.init],
  ] as const) {
    if (value === undefined) delete process.env[key];
    else process.env[key] = value;
  }
});

/** What a fresh Powertools Logger prints for `logger[level]({ message: 'request', ...fields })`. */
function powertoolsLines(level: 'info' | 'warn', fields: Record<string, unknown>, invocations: number) {
  const printed: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      printed.push(String(chunk));
      return true;
    }),
  );
  try {
    const logger = new Logger({ serviceName: 'elevation-api', logLevel: 'INFO' });
    for (let i = 0; i < invocations; i++) {
      logger.addContext(context);
      logger.setCorrelationId('apigw-42');
      logger[level]({ message: 'request', ...fields });
      logger.resetKeys();
    }
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return printed.map((line) => JSON.parse(line) as Record<string, unknown>);
}

function fastLine(level: 'INFO' | 'WARN', fields: Record<string, unknown>, coldStart: boolean) {
  const text = formatWideLine(
    level,
    {
      service: 'elevation-api',
      coldStart,
      context,
      samplingRate: 0,
      xrayTraceId: TRACE_ID,
      correlationId: 'apigw-42',
    },
    fields,
    new Date(),
  );
  return JSON.parse(text) as Record<string, unknown>;
}

const withoutTimestamp = ({ timestamp, ...rest }: Record<string, unknown>) => {
  expect(timestamp).toMatch(/^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d\.\d{3}Z$/);
  return rest;
};

const FIELDS = {
  dataset: 'sample',
  points: 50,
  interpolation: 'bilinear',
  route: 'v1',
  status: 200,
  durationMs: 0.42,
  phases: { parseMs: 0.05, sampleMs: 0.21 },
  blocksRead: 2,
  cacheHits: 2,
  cacheMisses: 0,
  rangeRequests: 0,
  rangeBytes: 0,
  coldStart: false,
};

describe('the fast wide log line', () => {
  it('equals what Powertools prints, key order included, on a cold and a warm invocation', () => {
    const [cold, warm] = powertoolsLines('info', FIELDS, 2);
    for (const [expected, isCold] of [
      [cold, true],
      [warm, false],
    ] as const) {
      const ours = withoutTimestamp(fastLine('INFO', FIELDS, isCold));
      const theirs = withoutTimestamp(expected);
      expect(Object.keys(ours)).toEqual(Object.keys(theirs));
      expect(ours).toEqual(theirs);
    }
  });

  it('drops empty top-level values and keeps nested ones, as Powertools does (4xx at WARN)', () => {
    const fields = { ...FIELDS, status: 400, dataset: '', error: null, hint: undefined, phases: { x: '' } };
    const [theirs] = powertoolsLines('warn', fields, 1);
    const ours = fastLine('WARN', fields, true);
    expect(Object.keys(ours)).toEqual(Object.keys(theirs));
    expect(withoutTimestamp(ours)).toEqual(withoutTimestamp(theirs));
    expect(ours).not.toHaveProperty('dataset');
    expect(ours.phases).toEqual({ x: '' });
  });

  it('reads the sampling rate and the time zone rule as Powertools does', () => {
    expect(samplingRateFromEnv(undefined)).toBe(0);
    expect(samplingRateFromEnv('0.25')).toBe(0.25);
    expect(samplingRateFromEnv('2')).toBe(0);
    expect(samplingRateFromEnv('many')).toBe(0);
    expect(isUtc(undefined)).toBe(true);
    expect(isUtc(':UTC')).toBe(true);
    expect(isUtc('Europe/Berlin')).toBe(false);
  });
});

describe('credentials in URLs', () => {
  it('never reach the log line: a dataset URL with user:password@ shows ***@ in the error and its cause', () => {
    const url = 'http://opsuser:S3cretPassw0rd@127.0.0.1:18410/stuttgart.tif';
    const line = fastLine(
      'INFO',
      {
        status: 502,
        error: { message: `Reading ${url} failed`, cause: { message: `HTTP 500 from ${url}` } },
      },
      false,
    );
    const text = JSON.stringify(line);
    expect(text).not.toContain('S3cretPassw0rd');
    expect(text).not.toContain('opsuser');
    expect(line.error).toEqual({
      message: 'Reading http://***@127.0.0.1:18410/stuttgart.tif failed',
      cause: { message: 'HTTP 500 from http://***@127.0.0.1:18410/stuttgart.tif' },
    });
  });
});
