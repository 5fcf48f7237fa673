/** Realistic API Gateway HTTP API (payload v2.0) events and Lambda contexts for in-process handler tests. */
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';

export interface EventOptions {
  method?: string;
  path: string;
  /** The route's path template as API Gateway puts it in routeKey (`/v1/{dataset}`); default: `path`. */
  template?: string;
  query?: Record<string, string>;
  pathParameters?: Record<string, string>;
  body?: string;
  headers?: Record<string, string>;
  isBase64Encoded?: boolean;
  /** As the client sent it, when it differs from `query` (API Gateway joins repeated keys with commas). */
  rawQueryString?: string;
}

let counter = 0;

export function httpEvent(options: EventOptions): APIGatewayProxyEventV2 {
  const method = options.method ?? 'GET';
  const rawQueryString = options.rawQueryString ?? new URLSearchParams(options.query ?? {}).toString();
  const requestId = `test-${++counter}`;
  const routeKey = `${method} ${options.template ?? options.path}`;
  return {
    version: '2.0',
    routeKey,
    rawPath: options.path,
    rawQueryString,
    headers: { host: 'localhost', 'user-agent': 'jest', ...(options.headers ?? {}) },
    queryStringParameters: options.query,
    pathParameters: options.pathParameters,
    requestContext: {
      accountId: '123456789012',
      apiId: 'local',
      domainName: 'localhost',
      domainPrefix: 'localhost',
      http: { method, path: options.path, protocol: 'HTTP/1.1', sourceIp: '127.0.0.1', userAgent: 'jest' },
      requestId,
      routeKey,
      stage: '$default',
      time: new Date().toISOString(),
      timeEpoch: Date.now(),
    },
    body: options.body,
    isBase64Encoded: options.isBase64Encoded ?? false,
  };
}

export function lambdaContext(functionName = 'elevation-api-dev-elevation'): Context {
  return {
    callbackWaitsForEmptyEventLoop: false,
    functionName,
    functionVersion: '$LATEST',
    invokedFunctionArn: `arn:aws:lambda:eu-central-1:123456789012:function:${functionName}`,
    memoryLimitInMB: '1769',
    awsRequestId: `req-${++counter}`,
    logGroupName: `/aws/lambda/${functionName}`,
    logStreamName: 'local',
    getRemainingTimeInMillis: () => 30000,
    done: () => undefined,
    fail: () => undefined,
    succeed: () => undefined,
  };
}

export type Handler = (
  event: APIGatewayProxyEventV2,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

export async function invoke(
  handler: Handler,
  options: EventOptions,
  /** What the Lambda context says is left of the function's timeout (default 30 s). */
  remainingMs = 30000,
): Promise<{ status: number; json: unknown; headers: Record<string, unknown>; body: string }> {
  const context = lambdaContext();
  const until = Date.now() + remainingMs;
  context.getRemainingTimeInMillis = () => until - Date.now();
  const result = await handler(httpEvent(options), context);
  const body = String(result.body ?? '');
  let json: unknown = undefined;
  try {
    json = JSON.parse(body);
  } catch {
    json = undefined;
  }
  return {
    status: result.statusCode ?? 200,
    json,
    headers: (result.headers ?? {}) as Record<string, unknown>,
    body,
  };
}
