/**
 * The telemetry module: Powertools Logger, Metrics and Tracer created once per execution environment,
 * and `instrumentHandler`, which wraps every handler with the per-request work (correlation ids, one
 * wide log line, one EMF document, a handler subsegment, and offline the trace header and root segment).
 */
// Must stay the first import: it sets Lambda's environment before Powertools and the X-Ray SDK load.
import { isOffline } from './offline-env';
import { performance } from 'node:perf_hooks';
import { getXRayTraceIdFromEnv } from '@aws-lambda-powertools/commons/utils/env';
import { Logger, LogLevelThreshold } from '@aws-lambda-powertools/logger';
import { Metrics, MetricUnit } from '@aws-lambda-powertools/metrics';
import { Tracer } from '@aws-lambda-powertools/tracer';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2, Context } from 'aws-lambda';
import { setStreamingThreshold, type Subsegment } from 'aws-xray-sdk-core';
import { METRICS_NAMESPACE, SERVICE_NAME } from './constants';
import { dataAnswerDocuments } from './data-answers';
import type { Observed } from './ports';
import { coldStartDocument, EmfAgentSink, parseAgentEndpoint } from './emf-agent';
import {
  DaemonSender,
  newTraceHeader,
  OfflineSampler,
  parseDaemonAddress,
  rootSegmentDocument,
  sampleRateFromEnv,
  type TraceHeader,
} from './offline-trace';
import {
  BoundedValues,
  datasetOf,
  logLevelOf,
  outcomeOf,
  pathTemplateOf,
  requestMetrics,
  wideLogFields,
  type FinishedRequest,
} from './request-record';
import { RequestState, type RequestTelemetry } from './request-telemetry';
import { RuntimeHealth, runtimeDocument, runtimeIntervalMs } from './runtime-health';
import { rootWithSubtree, subtreeDocuments } from './segment-documents';
import { epochMs, useMicrosecondSegmentTimes } from './trace-clock';
import type { XraySegment } from './trace-spans';
import { formatWideLine, isUtc, samplingRateFromEnv, type WideLineLevel } from './wide-log';

export type { RequestTelemetry, RequestFields } from './request-telemetry';
export type { CacheSize, Observed, RequestCounters, SpanHooks } from './ports';
export { chainDimension } from './constants';

const serviceName = process.env.POWERTOOLS_SERVICE_NAME || SERVICE_NAME;
const namespace = process.env.POWERTOOLS_METRICS_NAMESPACE || METRICS_NAMESPACE;
export const logger = new Logger({ serviceName });
export const metrics = new Metrics({ serviceName, namespace });
// HTTP auto-capture off: range requests are traced by the domain's own `read-block` subsegments.
export const tracer = new Tracer({ serviceName, captureHTTPsRequests: false });

export type InstrumentedHandler = (
  event: APIGatewayProxyEventV2,
  t: RequestTelemetry,
  context: Context,
) => Promise<APIGatewayProxyStructuredResultV2>;

const tracing = tracer.isTracingEnabled();
const offlineTracing = isOffline && tracing;
const sampler = new OfflineSampler(sampleRateFromEnv(process.env.XRAY_SAMPLE_RATE));
// Subsegments are sent once per request when the handler subsegment closes (segment-documents.ts), not streamed
// one by one as the SDK does in Lambda; the daemon address is the one Lambda (or offline-env.ts) sets.
if (tracing) setStreamingThreshold(Number.MAX_SAFE_INTEGER);
if (tracing) useMicrosecondSegmentTimes();
const daemon = tracing
  ? new DaemonSender(parseDaemonAddress(process.env.AWS_XRAY_DAEMON_ADDRESS))
  : undefined;
const agentAddress = isOffline ? parseAgentEndpoint(process.env.AWS_EMF_AGENT_ENDPOINT) : undefined;
const emfAgent = agentAddress ? new EmfAgentSink(agentAddress) : undefined;
let coldStart = true;
// Powertools reports cold_start only for on-demand initialisation; the fast wide line follows it.
const onDemand = process.env.AWS_LAMBDA_INITIALIZATION_TYPE?.trim() === 'on-demand';
const samplingRate = samplingRateFromEnv(process.env.POWERTOOLS_LOGGER_SAMPLE_RATE);
// Dev mode indents JSON and a non-UTC TZ changes timestamps: then Powertools writes the wide line itself.
const fastWideLine = process.env.POWERTOOLS_DEV !== 'true' && isUtc(process.env.TZ);
// Where Powertools would stay silent (dev mode, metrics disabled), the data-answer documents stay silent too.
const stdoutMetrics =
  process.env.POWERTOOLS_DEV !== 'true' && process.env.POWERTOOLS_METRICS_DISABLED !== 'true';
const datasetValues = new BoundedValues();
const runtimeHealth = new RuntimeHealth(
  runtimeIntervalMs(process.env.RUNTIME_METRICS_INTERVAL_S),
  Date.now(),
);

const INTERNAL_ERROR_MESSAGE = 'Internal server error';
const INTERNAL_ERROR: APIGatewayProxyStructuredResultV2 = {
  statusCode: 500,
  headers: { 'content-type': 'application/json' },
  body: JSON.stringify({ status: 'SERVER_ERROR', error: INTERNAL_ERROR_MESSAGE }),
};

export function instrumentHandler(
  route: string,
  fn: InstrumentedHandler,
  /** The observed code's cache and answer labels (functions/route.ts passes the elevation library's). */
  observed: Observed,
): (event: APIGatewayProxyEventV2, context: Context) => Promise<APIGatewayProxyStructuredResultV2> {
  return async (received, context) => {
    // What telemetry reads of the event; the handler gets it as received and answers one that is not an object
    // (a direct `aws lambda invoke --payload 'null'`) with a 400 rather than a crash here.
    const event = eventFields(received);
    const startMs = Date.now();
    const traceStartMs = epochMs();
    const started = performance.now();
    const wasColdStart = coldStart;
    coldStart = false;
    // Offline only: what Lambda sets per invocation. Logger reads it for `xray_trace_id`, the SDK for the trace.
    const header = offlineTracing ? newTraceHeader(sampler.sample(startMs), startMs) : undefined;
    if (header) process.env._X_AMZN_TRACE_ID = header.value;

    logger.addContext(context);
    const requestId = correlationId(event, context);
    logger.setCorrelationId(requestId);
    logger.refreshSampleRateCalculation();
    if (!emfAgent) metrics.captureColdStartMetric(context.functionName);
    else if (wasColdStart)
      emfAgent.send(coldStartDocument(namespace, serviceName, context.functionName, startMs));
    // Offline the sampling decision is ours already; in AWS it is read from Lambda's trace header.
    const sampled = header ? header.sampled : tracer.isTraceSampled();
    const root = sampled ? tracer.getSegment() : undefined;
    const handlerSegment = root ? openHandlerSegment(root, route) : undefined;
    const state = new RequestState(handlerSegment);

    let result: APIGatewayProxyStructuredResultV2;
    let thrown: unknown;
    try {
      result = await fn(received, state, context);
    } catch (error) {
      thrown = error;
      result = INTERNAL_ERROR;
      state.set({ errorCode: 'InternalError', errorMessage: INTERNAL_ERROR_MESSAGE });
    }
    const status = result.statusCode ?? 200;
    const finished: FinishedRequest = {
      route,
      method: (event.requestContext?.http?.method ?? 'GET').toUpperCase(),
      pathTemplate: pathTemplateOf(event.routeKey, 'unknown'),
      status,
      durationMs: performance.now() - started,
      coldStart: wasColdStart,
      state,
    };
    // A 5xx the route mapped to a response (not thrown) still records its exception on the spans.
    const failure = thrown ?? state.serverError;
    const subtree = root && handlerSegment ? closeHandlerSegment(root, handlerSegment, status, failure) : [];
    publishMetrics(finished, observed);
    publishRuntimeHealth(context.functionName, observed);
    writeWideLog(finished, thrown, context, header?.root);
    if (header?.sampled)
      sendRootSegment(header, event, context, traceStartMs, status, wasColdStart, subtree, failure);
    else for (const document of subtree) daemon?.sendJson(document);
    // The log line's correlation_id, so a client's failure (a 5xx says no more than "unavailable") can be found.
    return requestId ? withRequestId(result, requestId) : result;
  };
}

/** The response header carrying the request's correlation id (API Gateway's request id; the function's offline). */
export const REQUEST_ID_HEADER = 'x-request-id';

/**
 * The answer with its correlation id, which a browser's script may read too where the answer allows its origin
 * (CORS hides every header it does not list in `access-control-expose-headers`).
 */
export function withRequestId(
  result: APIGatewayProxyStructuredResultV2,
  requestId: string,
): APIGatewayProxyStructuredResultV2 {
  const headers: Record<string, string | number | boolean> = {
    ...result.headers,
    [REQUEST_ID_HEADER]: requestId,
  };
  if (headers['access-control-allow-origin'] !== undefined) {
    const exposed = headers['access-control-expose-headers'];
    headers['access-control-expose-headers'] =
      exposed === undefined || exposed === ''
        ? REQUEST_ID_HEADER
        : `${String(exposed)}, ${REQUEST_ID_HEADER}`;
  }
  return { ...result, headers };
}

function openHandlerSegment(root: XraySegment, route: string): Subsegment {
  const segment = root.addNewSubsegment(`## ${route}`);
  tracer.setSegment(segment);
  tracer.annotateColdStart();
  tracer.addServiceNameAnnotation();
  return segment;
}

/** Closes the handler subsegment and returns its documents (sent with the root offline, on their own in AWS). */
function closeHandlerSegment(
  root: XraySegment,
  segment: Subsegment,
  status: number,
  thrown: unknown,
): string[] {
  if (thrown !== undefined) segment.addError(toError(thrown));
  if (status >= 500) segment.addFaultFlag();
  else if (status >= 400) segment.addErrorFlag();
  segment.close();
  tracer.setSegment(root);
  const documents = subtreeDocuments(segment);
  root.removeSubsegment(segment);
  return documents;
}

const UNIT = { Count: MetricUnit.Count, Milliseconds: MetricUnit.Milliseconds, Bytes: MetricUnit.Bytes };

/** One EMF document per request, on every path (the dimension set is the same for all its metrics). */
function publishMetrics(finished: FinishedRequest, observed: Observed): void {
  const dataset = datasetValues.admit(datasetOf(finished.state));
  metrics.addDimensions({ route: finished.route, dataset, outcome: outcomeOf(finished.status) });
  publishDataAnswers(dataset, finished.state.stats.dataAnswers, observed.answers);
  for (const point of requestMetrics(finished)) metrics.addMetric(point.name, UNIT[point.unit], point.value);
  if (!emfAgent) {
    metrics.publishStoredMetrics();
    return;
  }
  // The same document publishStoredMetrics() would print, sent to the agent intake instead.
  emfAgent.send(metrics.serializeMetrics());
  metrics.clearMetrics();
  metrics.clearDimensions();
  metrics.clearMetadata();
}

/** At most one runtime-health document per interval (runtime-health.ts); a time comparison otherwise. */
function publishRuntimeHealth(functionName: string, observed: Observed): void {
  const now = Date.now();
  const sample = runtimeHealth.due(now, observed.cache());
  if (!sample) return;
  const document = runtimeDocument(namespace, serviceName, functionName, sample, now);
  if (emfAgent) emfAgent.send(document);
  else if (stdoutMetrics) process.stdout.write(`${JSON.stringify(document)}\n`);
}

function publishDataAnswers(
  dataset: string,
  answers: FinishedRequest['state']['stats']['dataAnswers'],
  labels: readonly string[],
): void {
  for (const document of dataAnswerDocuments(namespace, serviceName, dataset, answers, labels, Date.now())) {
    if (emfAgent) emfAgent.send(document);
    else if (stdoutMetrics) process.stdout.write(`${JSON.stringify(document)}\n`);
  }
}

function writeWideLog(
  finished: FinishedRequest,
  thrown: unknown,
  context: Context,
  traceId: string | undefined,
): void {
  const fields = wideLogFields(finished);
  const level = logLevelOf(finished.status);
  if (thrown !== undefined) logger.error({ message: 'request', ...fields }, toError(thrown));
  else if (!fastWideLine || level === 'error') logger[level]({ message: 'request', ...fields });
  else printWideLine(level === 'warn' ? 'WARN' : 'INFO', finished, fields, context, traceId);
  logger.resetKeys();
}

/** The line Powertools would print (wide-log.ts), if Logger's current level lets it through. */
function printWideLine(
  level: WideLineLevel,
  finished: FinishedRequest,
  fields: Record<string, unknown>,
  context: Context,
  traceId: string | undefined,
): void {
  if (LogLevelThreshold[logger.getLevelName()] > LogLevelThreshold[level]) return;
  const base = {
    service: serviceName,
    coldStart: finished.coldStart && onDemand,
    context,
    samplingRate,
    xrayTraceId: traceId ?? getXRayTraceIdFromEnv(),
    correlationId: logger.getCorrelationId(),
  };
  const line = formatWideLine(level, base, fields, new Date());
  // Where Powertools' console writes: info to stdout, warn to stderr.
  (level === 'WARN' ? process.stderr : process.stdout).write(`${line}\n`);
}

function sendRootSegment(
  header: TraceHeader,
  event: Partial<APIGatewayProxyEventV2>,
  context: Context,
  startMs: number,
  status: number,
  wasColdStart: boolean,
  subtree: readonly string[],
  failure: unknown,
): void {
  const rootJson = JSON.stringify(
    rootSegmentDocument({
      exception: failure === undefined ? undefined : toError(failure),
      header,
      functionName: context.functionName,
      awsRequestId: context.awsRequestId,
      startMs,
      endMs: epochMs(),
      status,
      method: event.requestContext?.http?.method,
      url: event.rawPath,
      coldStart: wasColdStart,
    }),
  );
  for (const document of rootWithSubtree(rootJson, subtree)) daemon?.sendJson(document);
}

/**
 * The API Gateway request id. serverless-offline fills it with a constant placeholder
 * (`offlineContext_…`), so offline the invocation's own request id stands in for it.
 */
function correlationId(event: Partial<APIGatewayProxyEventV2>, context: Context): string | undefined {
  const requestId = event.requestContext?.requestId;
  return requestId && !requestId.startsWith('offlineContext_') ? requestId : context.awsRequestId;
}

/** The event's fields, or none when Lambda was invoked with something else than an object (null, a string). */
function eventFields(event: unknown): Partial<APIGatewayProxyEventV2> {
  return typeof event === 'object' && event !== null ? (event as Partial<APIGatewayProxyEventV2>) : {};
}

function toError(thrown: unknown): Error {
  return thrown instanceof Error ? thrown : new Error(String(thrown));
}
