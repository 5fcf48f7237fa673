/**
 * DEFLATE through node:zlib, registered in geotiff.js's decoder registry (compression 8 and 32946): a whole block
 * in one go. Not on the read path any more: cog-raster decodes DEFLATE blocks row by row itself
 * (resumable-inflate, block-rows); this stays registered so anything that asks geotiff's registry for a DEFLATE
 * decoder gets zlib rather than geotiff's pure-JS inflate (about 3x slower on a 1024x1024 Float32 block).
 * zlib's async API runs on libuv's thread pool, so a decode does not block other invocations on the event loop.
 */
import { createInflate } from 'node:zlib';
import { BaseDecoder, addDecoder } from 'geotiff';

/** zlib's default 16 KiB output chunks would cost one thread-pool round trip each (256 for a 4 MiB block). */
const MIN_CHUNK_BYTES = 64 * 1024;

interface BlockShape {
  tileWidth: number;
  tileHeight: number;
  bitsPerSample: number | number[];
}

export class ZlibDeflateDecoder extends BaseDecoder {
  override async decodeBlock(buffer: ArrayBufferLike): Promise<ArrayBuffer> {
    const { tileWidth, tileHeight, bitsPerSample } = this.parameters as BlockShape;
    const bits = Array.isArray(bitsPerSample) ? bitsPerSample.reduce((a, b) => a + b, 0) : bitsPerSample;
    const chunkSize = Math.max(MIN_CHUNK_BYTES, (tileWidth * tileHeight * bits) / 8);
    const out = await inflateInto(new Uint8Array(buffer), chunkSize);
    return out.byteOffset === 0 && out.byteLength === out.buffer.byteLength
      ? (out.buffer as ArrayBuffer)
      : (out.buffer.slice(out.byteOffset, out.byteOffset + out.byteLength) as ArrayBuffer);
  }
}

/**
 * Inflates on the thread pool into output chunks of `chunkSize` bytes. zlib.inflate() would copy its result once
 * more (Buffer.concat, even of a single chunk): 4 MiB per 1024x1024 Float32 block, and the garbage to collect.
 * Here a block that fits one chunk comes back as that chunk.
 */
function inflateInto(input: Uint8Array, chunkSize: number): Promise<Buffer> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    const inflater = createInflate({ chunkSize });
    inflater.on('data', (chunk: Buffer) => chunks.push(chunk));
    inflater.once('error', reject);
    inflater.once('end', () => resolve(chunks.length === 1 ? chunks[0] : Buffer.concat(chunks)));
    inflater.end(input);
  });
}

let registered = false;

/** Idempotent; called before the first raster is opened. */
export function registerZlibDecoder(): void {
  if (registered) return;
  addDecoder([8, 32946], () => Promise.resolve(ZlibDeflateDecoder as never), undefined, false);
  registered = true;
}
