/**
 * Offline stand-in for what Lambda does around every invocation: pick a trace id and a sampling
 * decision (the `_X_AMZN_TRACE_ID` header), and afterwards send the function's root segment, which
 * the X-Ray SDK never sends itself (it only streams subsegments whose parent is that root).
 */
import { redactedError } from './redact';
import { randomBytes } from 'node:crypto';
import type { Socket } from 'node:dgram';
import { senderSocket } from './udp-socket';

export interface TraceHeader {
  /** `1-<8 hex epoch seconds>-<24 hex random>` */
  readonly root: string;
  /** 16 hex: the id of the root (function) segment; subsegments name it as parent_id. */
  readonly parent: string;
  readonly sampled: boolean;
  /** `Root=…;Parent=…;Sampled=0|1`, the value Lambda puts in `_X_AMZN_TRACE_ID`. */
  readonly value: string;
}

export function newTraceHeader(sampled: boolean, nowMs = Date.now()): TraceHeader {
  const bytes = randomIdBytes();
  const root = `1-${Math.floor(nowMs / 1000)
    .toString(16)
    .padStart(8, '0')}-${bytes.toString('hex', 0, 12)}`;
  const parent = bytes.toString('hex', 12, 20);
  return { root, parent, sampled, value: `Root=${root};Parent=${parent};Sampled=${sampled ? 1 : 0}` };
}

const ID_BYTES = 20;
const POOL_IDS = 256;
let pool = Buffer.alloc(0);
let poolOffset = 0;

/** 20 random bytes per trace; drawn from a pool refilled 256 traces at a time (one randomBytes call per trace
 * cost ~30 µs here, a tenth of everything else observability adds to a request). */
function randomIdBytes(): Buffer {
  if (poolOffset + ID_BYTES > pool.length) {
    pool = randomBytes(ID_BYTES * POOL_IDS);
    poolOffset = 0;
  }
  poolOffset += ID_BYTES;
  return pool.subarray(poolOffset - ID_BYTES, poolOffset);
}

/**
 * The sampling decision Lambda would make. By default X-Ray's default rule: the first request of
 * every second (reservoir 1/s) plus 5% of the rest, so a developer's requests are all traced while a
 * load test pays for 5% of its requests. XRAY_SAMPLE_RATE (0–1) replaces it with a fixed rate, e.g.
 * 1 to trace everything. In worker-thread mode each worker keeps its own reservoir.
 */
export class OfflineSampler {
  private second = -1;
  private taken = 0;

  constructor(
    private readonly fixedRate: number | undefined,
    private readonly reservoirPerSecond = 1,
    private readonly rate = 0.05,
  ) {}

  sample(nowMs: number, random = Math.random): boolean {
    if (this.fixedRate !== undefined) return random() < this.fixedRate;
    const second = Math.floor(nowMs / 1000);
    if (second !== this.second) {
      this.second = second;
      this.taken = 0;
    }
    if (this.taken < this.reservoirPerSecond) {
      this.taken++;
      return true;
    }
    return random() < this.rate;
  }
}

/** XRAY_SAMPLE_RATE in [0, 1]; unset or empty means "X-Ray's default rule" (undefined). */
export function sampleRateFromEnv(value: string | undefined): number | undefined {
  if (value === undefined || value.trim() === '') return undefined;
  const rate = Number(value);
  if (!Number.isFinite(rate) || rate < 0 || rate > 1) {
    throw new Error(`XRAY_SAMPLE_RATE must be a number from 0 to 1, got "${value}"`);
  }
  return rate;
}

export interface RootSegmentFacts {
  header: TraceHeader;
  functionName: string;
  awsRequestId: string;
  startMs: number;
  endMs: number;
  status: number;
  method?: string;
  url?: string;
  coldStart: boolean;
  /** The error behind a 5xx (or thrown): recorded as the segment's cause. */
  exception?: Error;
}

/** Stack frames in X-Ray's shape ({path, line, label}); the receiver joins them into exception.stacktrace. */
const MAX_FRAMES = 20;

function stackFrames(error: Error): { path: string; line?: number; label: string }[] {
  return (error.stack ?? '')
    .split('\n')
    .slice(1, MAX_FRAMES + 1)
    .map((text) => {
      const frame = /^\s*at (?:(.*?) \()?(.*?):(\d+)(?::\d+)?\)?$/.exec(text);
      return frame
        ? { label: frame[1] ?? 'anonymous', path: frame[2], line: Number(frame[3]) }
        : { label: text.trim(), path: '' };
    });
}

/**
 * X-Ray's `cause` with one exception object: the awsxray receiver turns it into OpenTelemetry's `exception` span
 * event (exception.type, exception.message, exception.stacktrace) and the span's status into Error. The id is
 * required by the receiver (16 hex digits, as the SDK makes them).
 */
export function exceptionCause(thrown: Error): Record<string, unknown> {
  const error = redactedError(thrown);
  return {
    working_directory: process.cwd(),
    exceptions: [
      {
        id: randomBytes(8).toString('hex'),
        type: error.name,
        message: error.message,
        stack: stackFrames(error),
      },
    ],
  };
}

/** The function segment as Lambda would send it (origin AWS::Lambda::Function), plus the HTTP facts. */
export function rootSegmentDocument(f: RootSegmentFacts): Record<string, unknown> {
  return {
    name: f.functionName,
    id: f.header.parent,
    trace_id: f.header.root,
    start_time: f.startMs / 1000,
    end_time: f.endMs / 1000,
    origin: 'AWS::Lambda::Function',
    aws: { request_id: f.awsRequestId, cold_start: f.coldStart },
    http: {
      request: { method: f.method, url: f.url },
      response: { status: f.status },
    },
    ...(f.exception ? { cause: exceptionCause(f.exception) } : {}),
    ...(f.status >= 500 ? { fault: true } : f.status === 429 ? { throttle: true, error: true } : {}),
    ...(f.status >= 400 && f.status < 500 && f.status !== 429 ? { error: true } : {}),
  };
}

export const DAEMON_HEADER = '{"format":"json","version":1}\n';

/** `host:port` or the SDK's `udp:host:port tcp:host:port` form. */
export function parseDaemonAddress(value: string | undefined): { host: string; port: number } {
  const text = value?.trim() || '127.0.0.1:2000';
  const udp = text.split(/\s+/).find((part) => part.startsWith('udp:')) ?? text;
  const hostPort = udp.replace(/^udp:/, '');
  const at = hostPort.lastIndexOf(':');
  const port = Number(hostPort.slice(at + 1));
  if (at <= 0 || !Number.isInteger(port) || port <= 0 || port > 65535) {
    throw new Error(`AWS_XRAY_DAEMON_ADDRESS must be host:port, got "${text}"`);
  }
  return { host: hostPort.slice(0, at), port };
}

/** Sends segment documents to the X-Ray daemon address over one reused, unref'd UDP socket (offline and in AWS). */
export class DaemonSender {
  private socket: Socket | undefined;
  constructor(private readonly address: { host: string; port: number }) {}

  send(document: Record<string, unknown>): void {
    this.sendJson(JSON.stringify(document));
  }

  /** A document already serialised (the SDK's `format()`). */
  sendJson(json: string): void {
    this.socket ??= senderSocket(this.address.host);
    // Errors (nobody listening, oversize) are dropped: tracing must never fail a request.
    this.socket.send(DAEMON_HEADER + json, this.address.port, this.address.host, () => undefined);
  }

  close(): void {
    this.socket?.close();
    this.socket = undefined;
  }
}
