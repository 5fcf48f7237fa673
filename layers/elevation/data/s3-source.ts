/**
 * S3 objects by `s3://bucket/key`, through the AWS SDK v3 that the Lambda Node.js runtime ships (loaded lazily,
 * so local runs that never touch S3 never load it). Credentials come from the usual provider chain. The answer's
 * Content-Range, ETag and Last-Modified are passed up for verification (`range-answer.ts`).
 */
import type { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DataSourceUnavailableError, SourceNotFoundError } from '../errors';
import { TransientSourceError, type RangeReader } from './byte-source';
import { tryParseContentRange, type RangeAnswer } from './range-answer';

let client: Promise<{
  client: S3Client;
  GetObjectCommand: typeof GetObjectCommand;
}> | null = null;

function s3(): NonNullable<typeof client> {
  client ??= import('@aws-sdk/client-s3').then((sdk) => ({
    client: new sdk.S3Client({}),
    GetObjectCommand: sdk.GetObjectCommand,
  }));
  return client;
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
    const { client: s3Client, GetObjectCommand } = await s3();
    try {
      const response = await s3Client.send(
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
      const name = (error as { name?: string }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (name === 'NoSuchKey' || status === 404) throw new SourceNotFoundError(this.url);
      if (name === 'InvalidRange' || status === 416) {
        return {
          bytes: new Uint8Array(0),
          start: offset,
          total: null,
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
