/**
 * Where raster bytes come from: a local file, an HTTP(S) server that honours Range, or S3. One small interface;
 * `openByteSource` picks the implementation from the location's scheme and wraps it with verification, timeouts,
 * bounded retries that stop at the request's deadline, a per-request cap on concurrent reads, and accounting, so
 * every reader is checked and counted the same way.
 */
import {
  DataSourceAccessDeniedError,
  DataSourceTimeoutError,
  DataSourceUnavailableError,
  DeadlineExceededError,
  ObjectChangedError,
  SourceNotFoundError,
} from '../errors';
import type { DataAnswer, ReadStats } from '../types';
import { FileSource } from './file-source';
import { HttpSource } from './http-source';
import {
  RangeVerificationError,
  verifyRangeAnswer,
  type PinnedObject,
  type RangeAnswer,
} from './range-answer';
import type { ReadLimiter } from './read-limiter';
import { S3Source } from './s3-source';

/** A raw reader of byte ranges; its answers are verified by the caller (RetryingSource). */
export interface RangeReader {
  readonly url: string;
  readRange(offset: number, length: number, signal: AbortSignal): Promise<RangeAnswer>;
}

/** What a read may be given by the request it serves; all optional for tools and tests. */
export interface ReadIo {
  stats?: ReadStats;
  /** The request's deadline: no attempt or backoff outlives it. */
  signal?: AbortSignal;
  limiter?: ReadLimiter;
  /** This read's attempts and timeout instead of the source's (a freshness check asks once, briefly). */
  retry?: RetryPolicy;
}

export interface ByteSource {
  readonly url: string;
  /** Exactly `length` bytes at `offset`, fewer only where the object ends. Never unverified bytes. */
  read(offset: number, length: number, io?: ReadIo): Promise<Uint8Array>;
  /** The object's size once any read has told it; null before or when the source never says. */
  readonly size: number | null;
  /** The object version pinned by the first read (ETag, Last-Modified, size), for cache keys; '' if unknown. */
  readonly version: string;
}

export interface RetryPolicy {
  timeoutMs: number;
  retries: number;
}

/** Worth another attempt; `status` is the HTTP status when the data layer answered one (429, 5xx). */
export class TransientSourceError extends Error {
  constructor(
    message: string,
    readonly status?: number,
  ) {
    super(message);
  }
}

export function isRemote(location: string): boolean {
  return /^(https?|s3):\/\//i.test(location);
}

export function openByteSource(location: string, policy: RetryPolicy): ByteSource {
  const reader: RangeReader = /^https?:\/\//i.test(location)
    ? new HttpSource(location)
    : /^s3:\/\//i.test(location)
      ? new S3Source(location)
      : new FileSource(location);
  return new RetryingSource(reader, policy);
}

const BACKOFF_BASE_MS = 50;

/**
 * Timeout per attempt, bounded retries with jittered backoff on transient failures, verification of every
 * answer against the object version seen first (pinned), accounting.
 */
export class RetryingSource implements ByteSource {
  private pinned: PinnedObject | null = null;

  constructor(
    private readonly reader: RangeReader,
    private readonly policy: RetryPolicy,
  ) {}

  get url(): string {
    return this.reader.url;
  }

  get size(): number | null {
    return this.pinned?.total ?? null;
  }

  get version(): string {
    const pinned = this.pinned;
    return pinned
      ? `${pinned.identity.etag ?? ''}|${pinned.identity.lastModified ?? ''}|${pinned.total ?? ''}`
      : '';
  }

  async read(offset: number, length: number, io: ReadIo = {}): Promise<Uint8Array> {
    // An unbounded queue never answers null: the read waits for a slot or for the deadline.
    const release = io.limiter ? await io.limiter.acquire(io.signal).catch(this.deadline()) : undefined;
    try {
      return await this.readWithRetries(offset, length, io);
    } finally {
      release?.();
    }
  }

  private async readWithRetries(offset: number, length: number, io: ReadIo): Promise<Uint8Array> {
    const { stats, signal } = io;
    const policy = io.retry ?? this.policy;
    const started = performance.now();
    let lastError: unknown;
    try {
      for (let attempt = 0; attempt <= policy.retries; attempt++) {
        if (attempt > 0) await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()), signal);
        if (signal?.aborted) break;
        if (stats) stats.rangeRequests++;
        const timeout = AbortSignal.timeout(policy.timeoutMs);
        try {
          const answer = await this.reader.readRange(
            offset,
            length,
            signal ? AbortSignal.any([signal, timeout]) : timeout,
          );
          const bytes = verifyRangeAnswer(this.url, offset, length, answer, this.pinned);
          this.pinned ??= { identity: answer.identity, total: answer.total };
          if (stats) countAnswer(stats, 'ok');
          if (stats) stats.rangeBytes += bytes.byteLength;
          return bytes;
        } catch (error) {
          // An attempt cut by the request's deadline is counted as such: the store had not answered by then.
          if (stats) countAnswer(stats, signal?.aborted ? 'deadline' : answerOf(error));
          if (signal?.aborted) break;
          // The object vanished after we read it: its header and blocks are stale, as when it changed.
          if (error instanceof SourceNotFoundError && this.pinned)
            throw new ObjectChangedError(this.url, error.message);
          if (error instanceof SourceNotFoundError || error instanceof ObjectChangedError) throw error;
          if (error instanceof DataSourceUnavailableError) throw error;
          if (!isTransient(error)) throw unavailable(this.url, error);
          lastError = error;
        }
      }
    } catch (error) {
      if (!signal?.aborted) throw error;
    } finally {
      if (stats) stats.rangeMs += performance.now() - started;
    }
    if (signal?.aborted) throw this.deadline()(signal.reason);
    if (isTimeout(lastError)) {
      throw new DataSourceTimeoutError(`Timed out reading ${this.url} after ${policy.retries + 1} attempts`, {
        cause: lastError,
      });
    }
    throw unavailable(this.url, lastError);
  }

  private deadline(): (cause: unknown) => never {
    return (cause) => {
      throw new DeadlineExceededError(`Deadline passed while reading ${this.url}`, { cause });
    };
  }
}

function unavailable(url: string, cause: unknown): DataSourceUnavailableError {
  return new DataSourceUnavailableError(`Reading ${url} failed: ${String(cause)}`, { cause });
}

function countAnswer(stats: ReadStats, answer: DataAnswer): void {
  stats.dataAnswers[answer] = (stats.dataAnswers[answer] ?? 0) + 1;
}

/** The closed-set name of a failed attempt (types.ts, DATA_ANSWERS). */
export function answerOf(error: unknown): DataAnswer {
  if (error instanceof SourceNotFoundError) return 'missing';
  const status = (error as { $metadata?: { httpStatusCode?: number } } | null)?.$metadata?.httpStatusCode;
  if (error instanceof DataSourceAccessDeniedError || status === 401 || status === 403) return 'denied';
  if (error instanceof TransientSourceError && error.status !== undefined)
    return error.status === 429 || error.status === 503 ? 'throttled' : 'server_error';
  if (isTimeout(error)) return 'timeout';
  if (
    error instanceof RangeVerificationError ||
    error instanceof ObjectChangedError ||
    error instanceof TransientSourceError
  )
    return 'verification_failed';
  return 'failed';
}

/** By name only: fetch rejects with a DOMException, which is not `instanceof Error` in every realm (jest's vm). */
function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function isTransient(error: unknown): boolean {
  if (isTimeout(error) || error instanceof TransientSourceError || error instanceof RangeVerificationError)
    return true;
  const code =
    (error as { code?: string; cause?: { code?: string } } | null)?.code ??
    (error as { cause?: { code?: string } })?.cause?.code;
  return (
    ['ECONNRESET', 'ECONNREFUSED', 'EPIPE', 'ETIMEDOUT', 'UND_ERR_SOCKET', 'EAI_AGAIN'].includes(
      code ?? '',
    ) ||
    (error instanceof TypeError && /fetch failed/i.test(error.message))
  );
}

/** Resolves after `ms`, or at once when the signal fires (the loop then stops at the deadline). */
function sleep(ms: number, signal?: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    const timer = setTimeout(done, ms);
    function done(): void {
      clearTimeout(timer);
      signal?.removeEventListener('abort', done);
      resolve();
    }
    signal?.addEventListener('abort', done, { once: true });
  });
}
