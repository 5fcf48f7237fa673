/** Local files (a folder of tiles, an EFS mount or a Lambda layer at /opt). */
import { open } from 'node:fs/promises';
import { SourceNotFoundError } from '../errors';
import type { RangeReader } from './byte-source';

export class FileSource implements RangeReader {
  constructor(readonly url: string) {}

  async readRange(offset: number, length: number): Promise<Uint8Array> {
    let handle;
    try {
      handle = await open(this.url, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceNotFoundError(this.url);
      throw error;
    }
    try {
      const buffer = new Uint8Array(length);
      const { bytesRead } = await handle.read(buffer, 0, length, offset);
      return bytesRead === length ? buffer : buffer.subarray(0, bytesRead);
    } finally {
      await handle.close();
    }
  }
}
