/**
 * Where raster bytes come from: a local file, an HTTP(S) server that honours Range, or S3. One small interface;
 * `openByteSource` picks the implementation from the location's scheme and wraps it with timeouts, bounded
 * retries and per-request accounting, so every reader is counted the same way.
 */
import { DataSourceTimeoutError, DataSourceUnavailableError, SourceNotFoundError } from '../errors';
import type { ReadStats } from '../types';
import { FileSource } from './file-source';
import { HttpSource } from './http-source';
import { S3Source } from './s3-source';

/** A raw reader of byte ranges. May return fewer bytes than asked at the end of the file. */
export interface RangeReader {
  readonly url: string;
  readRange(offset: number, length: number, signal: AbortSignal): Promise<Uint8Array>;
}

export interface ByteSource {
  readonly url: string;
  read(offset: number, length: number, stats?: ReadStats): Promise<Uint8Array>;
}

export interface RetryPolicy {
  timeoutMs: number;
  retries: number;
}

export class TransientSourceError extends Error {}

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

/** Timeout per attempt, bounded retries with jittered backoff on transient failures, accounting. */
export class RetryingSource implements ByteSource {
  constructor(
    private readonly reader: RangeReader,
    private readonly policy: RetryPolicy,
  ) {}

  get url(): string {
    return this.reader.url;
  }

  async read(offset: number, length: number, stats?: ReadStats): Promise<Uint8Array> {
    const started = performance.now();
    let lastError: unknown;
    for (let attempt = 0; attempt <= this.policy.retries; attempt++) {
      if (attempt > 0) await sleep(BACKOFF_BASE_MS * 2 ** (attempt - 1) * (0.5 + Math.random()));
      try {
        if (stats) stats.rangeRequests++;
        const bytes = await this.reader.readRange(offset, length, AbortSignal.timeout(this.policy.timeoutMs));
        if (stats) {
          stats.rangeBytes += bytes.byteLength;
          stats.rangeMs += performance.now() - started;
        }
        return bytes;
      } catch (error) {
        if (error instanceof SourceNotFoundError) throw error;
        if (!isTransient(error)) throw unavailable(this.url, error);
        lastError = error;
      }
    }
    if (stats) stats.rangeMs += performance.now() - started;
    if (isTimeout(lastError)) {
      throw new DataSourceTimeoutError(
        `Timed out reading ${this.url} after ${this.policy.retries + 1} attempts`,
        {
          cause: lastError,
        },
      );
    }
    throw unavailable(this.url, lastError);
  }
}

function unavailable(url: string, cause: unknown): DataSourceUnavailableError {
  return new DataSourceUnavailableError(`Reading ${url} failed: ${String(cause)}`, { cause });
}

/** By name only: fetch rejects with a DOMException, which is not `instanceof Error` in every realm (jest's vm). */
function isTimeout(error: unknown): boolean {
  const name = (error as { name?: unknown } | null)?.name;
  return name === 'TimeoutError' || name === 'AbortError';
}

function isTransient(error: unknown): boolean {
  if (isTimeout(error) || error instanceof TransientSourceError) return true;
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

function sleep(ms: number): Promise<void> {
  return new Promise((resolve) => setTimeout(resolve, ms));
}
