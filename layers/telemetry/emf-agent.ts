/**
 * Offline only: ship EMF documents to a CloudWatch-agent-style intake (`AWS_EMF_AGENT_ENDPOINT`,
 * e.g. udp://127.0.0.1:25888, the variable aws-embedded-metrics uses) instead of stdout, so the
 * bridge gets metrics however serverless-offline was started. In AWS, Powertools writes EMF to stdout.
 */
import type { Socket } from 'node:dgram';
import { senderSocket } from './udp-socket';

export function parseAgentEndpoint(value: string | undefined): { host: string; port: number } | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const match = /^udp:\/\/([^:/]+):(\d+)\/?$/.exec(value.trim());
  const port = Number(match?.[2]);
  if (!match || port <= 0 || port > 65535) {
    throw new Error(`AWS_EMF_AGENT_ENDPOINT must look like udp://127.0.0.1:25888, got "${value}"`);
  }
  return { host: match[1], port };
}

export class EmfAgentSink {
  private socket: Socket | undefined;
  constructor(private readonly address: { host: string; port: number }) {}

  send(document: unknown): void {
    this.socket ??= senderSocket(this.address.host);
    // Newline-terminated like the agent's line protocol; a lost datagram loses one request's metrics.
    this.socket.send(`${JSON.stringify(document)}\n`, this.address.port, this.address.host, () => undefined);
  }
}

/** The ColdStart document Powertools would print (dimensions service + function_name). */
export function coldStartDocument(
  namespace: string,
  service: string,
  functionName: string,
  nowMs: number,
): unknown {
  return {
    _aws: {
      Timestamp: nowMs,
      CloudWatchMetrics: [
        {
          Namespace: namespace,
          Dimensions: [['service', 'function_name']],
          Metrics: [{ Name: 'ColdStart', Unit: 'Count' }],
        },
      ],
    },
    service,
    function_name: functionName,
    ColdStart: 1,
  };
}
