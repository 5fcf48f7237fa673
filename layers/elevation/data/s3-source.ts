/**
 * S3 objects by `s3://bucket/key`, through the AWS SDK v3 that the Lambda Node.js runtime ships. Credentials,
 * region and endpoint (`AWS_ENDPOINT_URL_S3`, for S3-compatible stores) come from the SDK's usual chain;
 * `S3_FORCE_PATH_STYLE` is ours. The answer's Content-Range, ETag and Last-Modified are passed up for
 * verification (`range-answer.ts`). 404 is "no such tile" (needs s3:ListBucket, or S3 says 403), except
 * NoSuchBucket, a 502; 401/403 is access denied: a 502 that says so, never retried.
 */
import type { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { loadS3Settings, type S3Settings } from '../config/settings';
import {
  DataSourceAccessDeniedError,
  DataSourceMisconfiguredError,
  DataSourceUnavailableError,
  SourceNotFoundError,
} from '../errors';
import { TransientSourceError, type RangeReader } from './byte-source';
import { tryParseContentRange, type RangeAnswer } from './range-answer';

interface S3 {
  client: S3Client;
  GetObjectCommand: typeof GetObjectCommand;
}

/**
 * One attempt per send: retries are RetryingSource's (RANGE_RETRIES, backoff within the request's deadline, each
 * attempt counted by outcome). The SDK's own default of 3 attempts would multiply them (9 GETs per read at
 * RANGE_RETRIES=2) and hide S3's 503 SlowDown from the throttled count.
 */
export function createS3(settings: S3Settings): Promise<S3> {
  return import('@aws-sdk/client-s3').then((sdk) => ({
    client: new sdk.S3Client({ forcePathStyle: settings.forcePathStyle, maxAttempts: 1 }),
    GetObjectCommand: sdk.GetObjectCommand,
  }));
}

/**
 * Created at module init (Lambda's init phase) when DATA_ROOT is an s3:// URL: loading the SDK and building
 * the client cost 130-230 ms that would otherwise land on each instance's first S3 request. Local runs that
 * never touch S3 never load the SDK; s3:// paths under another DATA_ROOT get the client on first use. An
 * invalid setting leaves it to first use, where the settings error is reported with the request.
 */
let shared: Promise<S3> | null = initialS3(process.env);

function initialS3(env: Record<string, string | undefined>): Promise<S3> | null {
  if (!/^s3:\/\//i.test(env.DATA_ROOT?.trim() ?? '')) return null;
  try {
    return keep(createS3(loadS3Settings(env)));
  } catch {
    return null;
  }
}

/** Whether the shared client exists yet (created at init, or by a first read); for tests and health checks. */
export function s3ClientStarted(): boolean {
  return shared !== null;
}

/** A failed load is forgotten (the next read tries again) and never an unhandled rejection. */
function keep(s3: Promise<S3>): Promise<S3> {
  s3.catch(() => {
    if (shared === s3) shared = null;
  });
  return s3;
}

/** The shared client: created at init, or now from the environment. */
export function s3Client(): Promise<S3> {
  shared ??= keep(createS3(loadS3Settings()));
  return shared;
}

export class S3Source implements RangeReader {
  private readonly bucket: string;
  private readonly key: string;

  constructor(readonly url: string) {
    const match = /^s3:\/\/([^/]+)\/(.+)$/i.exec(url);
    if (!match) throw new DataSourceUnavailableError(`Not an s3://bucket/key URL: ${url}`);
    this.bucket = match[1];
    this.key = match[2];
  }

  async readRange(offset: number, length: number, signal: AbortSignal): Promise<RangeAnswer> {
    try {
      const { client, GetObjectCommand } = await s3Client();
      const response = await client.send(
        new GetObjectCommand({
          Bucket: this.bucket,
          Key: this.key,
          Range: `bytes=${offset}-${offset + length - 1}`,
        }),
        { abortSignal: signal },
      );
      const bytes = response.Body ? await response.Body.transformToByteArray() : new Uint8Array(0);
      const identity = {
        etag: response.ETag ?? null,
        lastModified: response.LastModified?.toUTCString() ?? null,
      };
      const range = tryParseContentRange(response.ContentRange);
      if (!range) {
        // S3 always sends Content-Range for a ranged GET; without one the whole object came back.
        return {
          bytes: bytes.subarray(offset, offset + length),
          start: offset,
          total: bytes.byteLength,
          identity,
        };
      }
      if (range.end - range.start + 1 !== bytes.byteLength) {
        throw new TransientSourceError(
          `S3 ${this.url}: Content-Range ${response.ContentRange} but ${bytes.byteLength} bytes`,
        );
      }
      return { bytes, start: range.start, total: range.total, identity };
    } catch (error) {
      // Aborted mid-body (the timeout or the request's deadline): the SDK reports a closed socket; say what it
      // was, so a body that stalls after its headers is a timeout (504) as one that never starts is.
      if (signal.aborted) throw signal.reason;
      const name = (error as { name?: string }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      // A bucket that is gone (deleted, a typo in DATA_ROOT) answers 404 too: every tile "missing" would answer
      // null for points that have data, as success.
      if (name === 'NoSuchBucket') {
        throw new DataSourceUnavailableError(
          `S3 ${status ?? ''} NoSuchBucket: the bucket of ${this.url} does not exist`,
          {
            cause: error,
          },
        );
      }
      if (name === 'NoSuchKey' || status === 404) throw new SourceNotFoundError(this.url);
      if (isAccessDenied(name, status)) {
        throw new DataSourceAccessDeniedError(`S3 ${status ?? ''} ${name ?? ''} for ${this.url}`, {
          cause: error,
        });
      }
      if (MISCONFIGURED.has(name ?? '')) {
        const region = bucketRegion(error);
        throw new DataSourceMisconfiguredError(
          `S3 ${status ?? ''} ${name ?? ''} for ${this.url}${region ? ` (the bucket is in ${region})` : ''}`,
          { cause: error },
        );
      }
      if (name === 'InvalidRange' || status === 416) {
        return {
          bytes: new Uint8Array(0),
          start: offset,
          // Nothing from byte 0: the object is empty (S3 answers an empty object's ranged GET so).
          total: offset === 0 ? 0 : null,
          identity: { etag: null, lastModified: null },
        };
      }
      if (status !== undefined && (status >= 500 || status === 429)) {
        throw new TransientSourceError(`S3 ${status} for ${this.url}`, status);
      }
      throw error;
    }
  }
}

/**
 * S3's answers to a client addressing it wrongly: a bucket in another region (301 PermanentRedirect; 400
 * AuthorizationHeaderMalformed or IllegalLocationConstraintException, by signature), a bucket name S3 refuses.
 * No retry helps: a 502 saying an operator must fix the deployment, not "Please retry".
 */
const MISCONFIGURED = new Set([
  'PermanentRedirect',
  'AuthorizationHeaderMalformed',
  'IllegalLocationConstraintException',
  'InvalidBucketName',
]);

/** The region S3 names for the bucket (its x-amz-bucket-region header), for the log. */
function bucketRegion(error: unknown): string | null {
  const headers = (error as { $response?: { headers?: Record<string, string | undefined> } }).$response
    ?.headers;
  const region = headers?.['x-amz-bucket-region'];
  return typeof region === 'string' && /^[a-z0-9-]{1,40}$/.test(region) ? region : null;
}

/** 403 AccessDenied (policy), InvalidAccessKeyId / SignatureDoesNotMatch (wrong keys), or no credentials at all. */
function isAccessDenied(name: string | undefined, status: number | undefined): boolean {
  return (
    status === 401 ||
    status === 403 ||
    ['AccessDenied', 'InvalidAccessKeyId', 'SignatureDoesNotMatch', 'CredentialsProviderError'].includes(
      name ?? '',
    )
  );
}
