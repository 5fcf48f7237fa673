/**
 * Imported for its side effect BEFORE any Powertools module: when running under serverless-offline
 * (IS_OFFLINE=true), set what the Lambda runtime would set. aws-xray-sdk-core decides at import time
 * whether it runs in Lambda mode (LAMBDA_TASK_ROOT), and Powertools' Tracer stays disabled unless
 * AWS_EXECUTION_ENV is set when it is constructed. Nothing here runs in AWS, where IS_OFFLINE is unset.
 */
import { isMainThread } from 'node:worker_threads';
import { FdWriteStream } from './fd-stream';

export const isOffline = process.env.IS_OFFLINE === 'true';

/**
 * In Lambda a function writes its log lines straight into the runtime's log pipe. serverless-offline's worker
 * threads instead relay every stdout write to the main thread, which writes it again (about half a millisecond
 * per line, most of the price of logging offline). Writing to the process's fd 1/2 directly and synchronously, as a
 * Lambda does, keeps the local price of observability close to the deployed one (fd-stream.ts has the numbers).
 * OFFLINE_DIRECT_STDOUT=false restores the relay.
 */
if (isOffline && !isMainThread && process.env.OFFLINE_DIRECT_STDOUT !== 'false') {
  for (const [name, fd] of [
    ['stdout', 1],
    ['stderr', 2],
  ] as const) {
    Object.defineProperty(process, name, {
      value: new FdWriteStream(fd),
      configurable: true,
    });
  }
}

if (isOffline) {
  process.env.AWS_EXECUTION_ENV ??= `AWS_Lambda_nodejs${process.versions.node.split('.')[0]}.x`;
  process.env.LAMBDA_TASK_ROOT ??= process.cwd();
  // Powertools reports the ColdStart metric only for on-demand initialisation.
  process.env.AWS_LAMBDA_INITIALIZATION_TYPE ??= 'on-demand';
  process.env.AWS_XRAY_DAEMON_ADDRESS ??= '127.0.0.1:2000';
  // EMF to the bridge's CloudWatch-agent-style intake (stack:up's default port); set it to '' to get
  // Powertools' stdout EMF instead (e.g. `npm start | npm run bridge -- --stdin`).
  process.env.AWS_EMF_AGENT_ENDPOINT ??= 'udp://127.0.0.1:25888';
  // Without a per-invocation trace header (e.g. between invocations) the SDK must not throw.
  process.env.AWS_XRAY_CONTEXT_MISSING ??= 'IGNORE_ERROR';
}
