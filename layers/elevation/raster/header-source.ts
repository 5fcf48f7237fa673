/**
 * Adapts a ByteSource to geotiff.js's BaseSource and serves the TIFF header from one prefetched range: the
 * first read fetches `prefetchBytes` (GDAL COGs put every IFD and the tile offset tables at the start), so a
 * typical COG opens with a single request. Reads outside the prefetched bytes go to the source as they come.
 * geotiff only calls `fetch` (its BaseSource class is not exported, so this is duck-typed; `fileSize` is read only by
 * geotiff's BlockedSource, which does not wrap this one).
 */
import type { ByteSource, ReadIo } from '../data/byte-source';

interface Slice {
  offset: number;
  length: number;
}

export class HeaderSource {
  private header: Uint8Array | null = null;

  constructor(
    private readonly source: ByteSource,
    private readonly prefetchBytes: number,
    private readonly io: ReadIo = {},
  ) {}

  async fetch(slices: Slice[]): Promise<ArrayBuffer[]> {
    return Promise.all(slices.map((slice) => this.fetchOne(slice)));
  }

  private async fetchOne({ offset, length }: Slice): Promise<ArrayBuffer> {
    if (!this.header) {
      this.header = await this.source.read(0, Math.max(this.prefetchBytes, offset + length), this.io);
    }
    const header = this.header;
    // A file shorter than the prefetch is complete in `header`: serve whatever part of the slice exists.
    const headerIsWholeFile = header.byteLength < this.prefetchBytes;
    if (offset + length <= header.byteLength || headerIsWholeFile) {
      return copy(header.subarray(offset, Math.min(offset + length, header.byteLength)));
    }
    return copy(await this.source.read(offset, length, this.io));
  }
}

function copy(bytes: Uint8Array): ArrayBuffer {
  return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength) as ArrayBuffer;
}
