/**
 * S3 objects by `s3://bucket/key`, through the AWS SDK v3 that the Lambda Node.js runtime ships (loaded lazily,
 * so local runs that never touch S3 never load it). Credentials come from the usual provider chain.
 */
import type { GetObjectCommand, S3Client } from '@aws-sdk/client-s3';
import { DataSourceUnavailableError, SourceNotFoundError } from '../errors';
import { TransientSourceError, type RangeReader } from './byte-source';

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

  async readRange(offset: number, length: number, signal: AbortSignal): Promise<Uint8Array> {
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
      return response.Body ? await response.Body.transformToByteArray() : new Uint8Array(0);
    } catch (error) {
      const name = (error as { name?: string }).name;
      const status = (error as { $metadata?: { httpStatusCode?: number } }).$metadata?.httpStatusCode;
      if (name === 'NoSuchKey' || status === 404) throw new SourceNotFoundError(this.url);
      if (name === 'InvalidRange' || status === 416) return new Uint8Array(0);
      if (status !== undefined && (status >= 500 || status === 429)) {
        throw new TransientSourceError(`S3 ${status} for ${this.url}`);
      }
      throw error;
    }
  }
}
