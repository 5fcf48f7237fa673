/** Local files (a folder of tiles, an EFS mount or a Lambda layer at /opt). */
import { open } from 'node:fs/promises';
import { SourceNotFoundError } from '../errors';
import type { RangeReader } from './byte-source';
import type { RangeAnswer } from './range-answer';

export class FileSource implements RangeReader {
  constructor(readonly url: string) {}

  async readRange(offset: number, length: number): Promise<RangeAnswer> {
    let handle;
    try {
      handle = await open(this.url, 'r');
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code === 'ENOENT') throw new SourceNotFoundError(this.url);
      throw error;
    }
    try {
      // The file's size and mtime identify its version, as ETag does over HTTP (a replaced tile is noticed), and
      // its inode and change time: a tile copied over another with the same size and its mtime kept (`cp -p`,
      // `rsync -t`; every SRTM tile has one size) is another version too. Read from the opened file, not the path.
      const info = await handle.stat();
      const wanted = Math.max(0, Math.min(length, info.size - offset));
      const buffer = new Uint8Array(wanted);
      const { bytesRead } = wanted > 0 ? await handle.read(buffer, 0, wanted, offset) : { bytesRead: 0 };
      return {
        bytes: bytesRead === wanted ? buffer : buffer.subarray(0, bytesRead),
        start: offset,
        total: info.size,
        identity: { etag: `${info.ino}-${info.ctimeMs}`, lastModified: String(info.mtimeMs) },
      };
    } finally {
      await handle.close();
    }
  }
}
