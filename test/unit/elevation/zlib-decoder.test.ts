/**
 * The DEFLATE decoder on node:zlib: a block that fits its output chunk comes back without a copy, and one larger
 * than the block shape says (more chunks) still comes back whole.
 */
import { deflateSync } from 'node:zlib';
import { ZlibDeflateDecoder } from '../../../layers/elevation/raster/zlib-decoder';

function decoderFor(tileWidth: number, tileHeight: number): ZlibDeflateDecoder {
  return new ZlibDeflateDecoder({
    tileWidth,
    tileHeight,
    predictor: 1,
    bitsPerSample: [32],
    planarConfiguration: 1,
  });
}

const pattern = (bytes: number) => Uint8Array.from({ length: bytes }, (_, i) => (i * 7919) % 251);
const ownBuffer = (b: Buffer) => b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;

it('inflates a block of exactly its declared size', async () => {
  const original = pattern(256 * 256 * 4);
  const out = await decoderFor(256, 256).decodeBlock(ownBuffer(deflateSync(original)));
  expect(out.byteLength).toBe(original.byteLength);
  expect(Buffer.compare(Buffer.from(out), Buffer.from(original))).toBe(0);
});

it('inflates a stream longer than one output chunk in order', async () => {
  const original = pattern(1_000_003); // ~4x the 256 KiB a 256x256 Float32 block declares
  const compressed = deflateSync(original);
  const out = await decoderFor(256, 256).decodeBlock(
    compressed.buffer.slice(
      compressed.byteOffset,
      compressed.byteOffset + compressed.byteLength,
    ) as ArrayBuffer,
  );
  expect(Buffer.compare(Buffer.from(out), Buffer.from(original))).toBe(0);
});

it('rejects corrupt data with an error instead of hanging', async () => {
  const garbage = Uint8Array.from({ length: 100 }, (_, i) => (i * 37) % 256);
  await expect(decoderFor(16, 16).decodeBlock(garbage.buffer)).rejects.toThrow();
});
