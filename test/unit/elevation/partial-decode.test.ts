/**
 * Partial decoding pinned against GDAL: every block of every file of test/fixtures/decode (each sample type x
 * predictor x DEFLATE/LZW, both byte orders where the matrix has them, tiles and strips) decoded whole must
 * equal GDAL's full read, and decoded to any row, resumed, or asked for concurrently must give exactly the same
 * rows, bit for bit, and never a row it has not decoded. Corrupt streams become DataSourceUnavailableError (502).
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { DataSourceUnavailableError, fullContext, newReadStats } from '../../../layers/elevation';
import { RetryingSource } from '../../../layers/elevation/data/byte-source';
import { FileSource } from '../../../layers/elevation/data/file-source';
import { configureBlockCache, getBlock } from '../../../layers/elevation/dataset/block-store';
import { allRows, PartialBlock } from '../../../layers/elevation/raster/block-rows';
import { openCogRaster } from '../../../layers/elevation/raster/cog-raster';
import type { PixelArray, Raster } from '../../../layers/elevation/raster/raster';
import { ResumableInflate } from '../../../layers/elevation/raster/resumable-inflate';
import { ResumableLzw } from '../../../layers/elevation/raster/resumable-lzw';
import { recordingTrace, type RecordedSpan } from '../../support/recording-trace';

const FOLDER = path.resolve(__dirname, '../../fixtures/decode');
const POLICY = { timeoutMs: 5000, retries: 0 };
const PREFETCH_BYTES = 64 * 1024;

interface Expected {
  file: string;
  pixelType: string;
  compression: string;
  predictor: number;
  byteOrder: string;
  layout: string;
  width: number;
  height: number;
  blockWidth: number;
  blockHeight: number;
  sha256: string;
  pixels: { col: number; row: number; value: number }[];
}

const matrix = (JSON.parse(readFileSync(path.join(FOLDER, 'expected.json'), 'utf8')) as { files: Expected[] })
  .files;

/** Partial decoding is opted into (PARTIAL_DECODE=true); `partialDecode: false` is the default a deployment gets. */
function open(file: string, partialDecode = true): Promise<Raster> {
  return openCogRaster(new RetryingSource(new FileSource(file), POLICY), PREFETCH_BYTES, undefined, {
    partialDecode,
  });
}

const bytesOf = (a: PixelArray) => new Uint8Array(a.buffer, a.byteOffset, a.byteLength);
const rowLength = (raster: Raster) => raster.grid.blockWidth * raster.samplesPerPixel;

/** Every block decoded whole, assembled into the raster's samples (row-major, native = little-endian). */
async function decodeWhole(raster: Raster): Promise<{ image: PixelArray; blocks: PixelArray[] }> {
  const { width, height, blockWidth, blockHeight } = raster.grid;
  const blocks: PixelArray[] = [];
  let image: PixelArray | null = null;
  for (let index = 0; index < raster.blocksAcross * raster.blocksDown; index++) {
    const block = await raster.readBlock(index, fullContext());
    const data = await block.rows(allRows(block.rowCount), fullContext());
    expect(data.length).toBe(block.rowCount * rowLength(raster));
    blocks.push(data);
    const Kind = data.constructor as new (n: number) => PixelArray;
    image ??= new Kind(width * height);
    const bx = index % raster.blocksAcross;
    const by = Math.floor(index / raster.blocksAcross);
    for (let r = 0; r < blockHeight && by * blockHeight + r < height; r++) {
      for (let c = 0; c < blockWidth && bx * blockWidth + c < width; c++) {
        image[(by * blockHeight + r) * width + bx * blockWidth + c] = data[r * blockWidth + c];
      }
    }
  }
  return { image: image as PixelArray, blocks };
}

describe.each(matrix.map((f) => [f.file, f] as const))('%s', (file, expected) => {
  let raster: Raster;
  let whole: { image: PixelArray; blocks: PixelArray[] };
  beforeAll(async () => {
    raster = await open(path.join(FOLDER, file));
    whole = await decodeWhole(raster);
  });

  it("decodes whole to GDAL's full read (SHA-256 of the samples, and pixel values)", () => {
    expect(raster.pixelType).toBe(expected.pixelType);
    expect(raster.grid.blockHeight).toBe(expected.blockHeight);
    const sha = createHash('sha256').update(bytesOf(whole.image)).digest('hex');
    expect(sha).toBe(expected.sha256);
    for (const { col, row, value } of expected.pixels)
      expect(whole.image[row * expected.width + col]).toBe(value);
  });

  /** Row `row` of a block's view, as bytes. */
  const rowOf = (view: PixelArray, row: number) =>
    bytesOf(view).subarray(
      row * rowLength(raster) * view.BYTES_PER_ELEMENT,
      (row + 1) * rowLength(raster) * view.BYTES_PER_ELEMENT,
    );

  it('decodes any single row of any block exactly as the whole decode, and only that row', async () => {
    for (let index = 0; index < whole.blocks.length; index++) {
      const rowCount = (await raster.readBlock(index, fullContext())).rowCount;
      for (let row = 0; row < rowCount; row++) {
        const block = await raster.readBlock(index, fullContext());
        const view = await block.rows([row], fullContext());
        expect(view.length).toBeGreaterThanOrEqual((row + 1) * rowLength(raster));
        expect(Buffer.compare(rowOf(view, row), rowOf(whole.blocks[index], row))).toBe(0);
        expect(block).toBeInstanceOf(PartialBlock);
        expect((block as PartialBlock).rowsDecoded).toBe(1); // the predictor ran on this row only
      }
    }
  });

  it('resumes a partly decoded block (rows 0, then 4 and 5, then 17, then all) to the same rows', async () => {
    const full = whole.blocks[0];
    const block = await raster.readBlock(0, fullContext());
    for (const rows of [[0], [5, 4], [17], allRows(block.rowCount)]) {
      const view = await block.rows(rows, fullContext());
      for (const row of rows) expect(Buffer.compare(rowOf(view, row), rowOf(full, row))).toBe(0);
    }
    expect((block as PartialBlock).rowsDecoded).toBe(block.rowCount);
  });

  it('serves concurrent requests for different rows of one block, each correct', async () => {
    const full = whole.blocks[0];
    const block = await raster.readBlock(0, fullContext());
    const asked = [[3], allRows(block.rowCount), [9, 10], [1], [19, 0]];
    const views = await Promise.all(asked.map((rows) => block.rows(rows, fullContext())));
    views.forEach((view, k) => {
      for (const row of asked[k]) expect(Buffer.compare(rowOf(view, row), rowOf(full, row))).toBe(0);
    });
  });
});

describe('partial decoding stops early', () => {
  it.each(['deflate-float32-p3-le-tiles.tif', 'lzw-float32-p3-le-tiles.tif', 'lzw-int16-p2-le-strips.tif'])(
    'decodes only part of a block of %s for its first row',
    async (file) => {
      const raster = await open(path.join(FOLDER, file));
      const block = (await raster.readBlock(0, fullContext())) as PartialBlock;
      const view = await block.rows([0], fullContext());
      expect(block.rowsInflated).toBeLessThan(block.rowCount);
      expect(view.length).toBe(rowLength(raster)); // the view ends after the deepest row asked for
    },
  );

  it('inflates a 1 MiB stream only as far as asked, then resumes to the rest (checksum checked at the end)', async () => {
    const original = Uint8Array.from({ length: 1 << 20 }, (_, i) => (i * 2654435761) >>> 27);
    const compressed = deflateSync(original);
    const inflate = new ResumableInflate(compressed, original.byteLength);
    await inflate.fill(64 * 1024, false);
    expect(inflate.produced).toBeGreaterThanOrEqual(64 * 1024);
    expect(inflate.produced).toBeLessThan(original.byteLength / 2);
    expect(inflate.finished).toBe(false);
    await inflate.fill(original.byteLength, true);
    expect(inflate.finished).toBe(true);
    expect(Buffer.compare(inflate.output, original)).toBe(0);
    expect(inflate.heldBytes).toBe(0);
  });
});

/** A zlib stream of `rows` rows of 1 KiB that turns invalid (reserved block type) after `goodRows` rows. */
function breaksAfter(goodRows: number, rows: number): { stream: Uint8Array; original: Uint8Array } {
  let x = 2463534242;
  const original = Uint8Array.from({ length: rows * 1024 }, () => {
    x ^= x << 13; // xorshift32: noise that does not compress, so the rows asked for end well before the break
    x ^= x >>> 17;
    x ^= x << 5;
    return x & 0xff;
  });
  const head = deflateSync(original.subarray(0, goodRows * 1024), { finishFlush: 3 /* Z_FULL_FLUSH */ });
  // Drop nothing: a full flush ends on a byte boundary; 0x07 = final block, type 3 (reserved): invalid.
  const stream = new Uint8Array(head.byteLength + 64);
  stream.set(head);
  stream.fill(0x07, head.byteLength);
  return { stream, original };
}

function partialOf(stream: Uint8Array, rows: number): PartialBlock {
  return new PartialBlock({
    view: (b) => b,
    rowBytes: 1024,
    rowCount: rows,
    decoder: new ResumableInflate(stream, rows * 1024),
    prepareRows: () => undefined,
    failure: (error) => new DataSourceUnavailableError(`test block: ${String(error)}`),
  });
}

describe('corrupt streams', () => {
  it('serves the rows before a corruption mid-stream, then refuses with DataSourceUnavailableError for good', async () => {
    const { stream, original } = breaksAfter(40, 100);
    const block = partialOf(stream, 100);
    const first = await block.rows(allRows(10), fullContext());
    expect(Buffer.compare(bytesOf(first), original.subarray(0, first.byteLength))).toBe(0);
    await expect(block.rows([60], fullContext())).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(block.rows([50], fullContext())).rejects.toBeInstanceOf(DataSourceUnavailableError);
    expect(block.rowsInflated).toBeLessThanOrEqual(40);
  });

  it('refuses a stream that ends before the rows asked for', async () => {
    const original = new Uint8Array(100 * 1024).fill(7);
    const block = partialOf(deflateSync(original.subarray(0, 30 * 1024)), 100);
    await expect(block.rows([9], fullContext())).resolves.toHaveLength(10 * 1024);
    await expect(block.rows([30], fullContext())).rejects.toThrow(/decodes to 30720 bytes/);
  });

  it('fails every concurrent waiter of a corrupt block, none with data past the corruption', async () => {
    const { stream } = breaksAfter(5, 50);
    const block = partialOf(stream, 50);
    const results = await Promise.allSettled([
      block.rows([39], fullContext()),
      block.rows([44], fullContext()),
    ]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
  });
});

describe('corrupt files through the block cache', () => {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'partial-decode-'));
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  /** A copy of a fixture with bytes of block 0 replaced (offset relative to the block's first byte, or its end). */
  async function corrupted(
    file: string,
    at: (length: number) => number,
    bytes: number[],
    partialDecode = true,
  ): Promise<Raster> {
    const target = path.join(dir, `${file}-${at(1000)}-${partialDecode}`);
    copyFileSync(path.join(FOLDER, file), target);
    const offsets = await tileOffsets(path.join(FOLDER, file));
    const data = readFileSync(target);
    data.set(bytes, offsets.offset + at(offsets.length));
    writeFileSync(target, data);
    return open(target, partialDecode); // reopened: the file's version changed
  }

  it('refuses a DEFLATE block whose checksum fails once read to its end, and re-fetches it next time', async () => {
    configureBlockCache(1024 * 1024);
    const raster = await corrupted('deflate-float32-p3-le-tiles.tif', (n) => n - 1, [0x5a]);
    const ctx = fullContext({ stats: newReadStats() });
    const rows = allRows(raster.grid.blockHeight);
    await expect(getBlock(raster, 0, rows, ctx)).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(getBlock(raster, 0, rows, ctx)).rejects.toBeInstanceOf(DataSourceUnavailableError);
    expect(ctx.stats.blockCacheMisses).toBe(2); // the failed block was not kept
  });

  it('by default inflates the whole block and checks its checksum before serving even its first row', async () => {
    configureBlockCache(1024 * 1024);
    const file = path.join(FOLDER, 'deflate-float32-p3-le-tiles.tif');
    const whole = (await (await open(file, false)).readBlock(0, fullContext())) as PartialBlock;
    await whole.rows([0], fullContext());
    expect(whole.rowsInflated).toBe(whole.rowCount);
    // A block whose Adler-32 is wrong: its first row inflates cleanly, only the end of the stream tells.
    const flip = (n: number) => n - 1;
    const verified = await corrupted('deflate-float32-p3-le-tiles.tif', flip, [0x5a], false);
    await expect(getBlock(verified, 0, [0], fullContext())).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
    // PARTIAL_DECODE=true trades that check for speed: the first row is served from the same bytes.
    configureBlockCache(1024 * 1024);
    const partial = await corrupted('deflate-float32-p3-le-tiles.tif', flip, [0x5a], true);
    await expect(getBlock(partial, 0, [0], fullContext())).resolves.toBeDefined();
  });

  it('refuses an LZW block with an invalid code mid-stream', async () => {
    configureBlockCache(1024 * 1024);
    const raster = await corrupted('lzw-float64-p1-le-tiles.tif', (n) => n >> 1, [0xff, 0xff, 0xff, 0xff]);
    const ctx = fullContext();
    await expect(getBlock(raster, 0, allRows(raster.grid.blockHeight), ctx)).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
  });
});

describe('the block cache and partly decoded blocks', () => {
  it('shares one fetch between concurrent requests for different rows and charges what the block holds', async () => {
    const cache = configureBlockCache(1024 * 1024);
    const raster = await open(path.join(FOLDER, 'lzw-float64-p3-le-tiles.tif'));
    const stats = newReadStats();
    const ctx = fullContext({ stats });
    const [a, b] = await Promise.all([getBlock(raster, 0, [1], ctx), getBlock(raster, 0, [1, 29], ctx)]);
    expect(stats.rangeRequests).toBe(1);
    expect(stats.blockCacheMisses + stats.blockCacheHits).toBe(2);
    const rowBytes = rowLength(raster) * 8;
    expect(
      Buffer.compare(
        bytesOf(a).subarray(rowBytes, 2 * rowBytes),
        bytesOf(b).subarray(rowBytes, 2 * rowBytes),
      ),
    ).toBe(0);
    expect(cache.bytes).toBeGreaterThan(0);
    const full = await getBlock(raster, 0, allRows(raster.grid.blockHeight), ctx);
    expect(full.length).toBe(raster.blockBytes / 8);
    expect(cache.bytes).toBe(raster.blockBytes); // whole: compressed bytes and decoder state released
    expect(stats.rangeRequests).toBe(1);
  });

  it('charges a partly decoded block its decoded pages plus its compressed bytes', async () => {
    const cache = configureBlockCache(64 * 1024 * 1024);
    const raster = await open(path.join(FOLDER, 'lzw-uint8-p1-le-tiles.tif'));
    await getBlock(raster, 0, [0], fullContext());
    const block = (await cache.peek(`${raster.cacheKey}#0`)) as PartialBlock;
    expect(block.rowsInflated).toBeLessThan(block.rowCount);
    expect(cache.bytes).toBe(block.bytesHeld);
    const { length } = await tileOffsets(path.join(FOLDER, 'lzw-uint8-p1-le-tiles.tif'));
    expect(block.bytesHeld).toBeGreaterThan(length);
  });
});

describe('decoders at their edges', () => {
  it('keeps the first bytes of a DEFLATE stream longer than its block and drops the rest', async () => {
    const original = Uint8Array.from({ length: 3000 }, (_, i) => (i * 7) & 0xff);
    const inflate = new ResumableInflate(deflateSync(original), 2000);
    await inflate.fill(2000, true);
    expect(inflate.produced).toBe(2000);
    expect(inflate.finished).toBe(true);
    expect(Buffer.compare(inflate.output, original.subarray(0, 2000))).toBe(0);
  });

  it.each([
    ['in the piece that ends the stream', 4],
    ['in later pieces too', 64 * 1024],
  ])(
    'reads a DEFLATE block with bytes after its stream (a tile count longer than the stream, %s), as GDAL reads it',
    async (_where, junk) => {
      // The stream's end (and its Adler-32) is where zlib stops; what follows is not the block's. GDAL reads
      // such a tile; before, the inflate said "the DEFLATE stream closed before its end" and the tile was a 502.
      const original = Uint8Array.from({ length: 4096 }, (_, i) => (i * 13) & 0xff);
      const padded = Buffer.concat([deflateSync(original), Buffer.alloc(junk, 0xde)]);
      for (const toEnd of [true, false]) {
        const inflate = new ResumableInflate(padded, original.byteLength);
        await inflate.fill(original.byteLength, toEnd);
        expect(inflate.produced).toBe(original.byteLength);
        expect(Buffer.compare(inflate.output, original)).toBe(0);
      }
      // Its checksum is still checked: a damaged byte before the junk is refused.
      const damaged = Buffer.from(padded);
      damaged[damaged.indexOf(Buffer.alloc(junk, 0xde)) - 1] ^= 0xff; // the Adler-32's last byte
      await expect(
        new ResumableInflate(damaged, original.byteLength).fill(original.byteLength, true),
      ).rejects.toThrow();
    },
  );

  it('refuses an LZW block whose stream ends before the rows asked for', async () => {
    const file = path.join(FOLDER, 'lzw-int16-p2-le-tiles.tif');
    const { offset, length } = await tileOffsets(file);
    const compressed = readFileSync(file).subarray(offset, offset + Math.floor(length / 3));
    const rowBytes = 16 * 2;
    const block = new PartialBlock({
      view: (b) => b,
      rowBytes,
      rowCount: 32,
      decoder: new ResumableLzw(compressed, 32 * rowBytes),
      prepareRows: () => undefined,
      failure: (error) => new DataSourceUnavailableError(String(error)),
    });
    await expect(block.rows([31], fullContext())).rejects.toBeInstanceOf(DataSourceUnavailableError);
  });
});

describe('what a partly decoded block reports', () => {
  // Barely compressible bytes, 1 MB: the inflater gets the stream piece by piece and stops short of the end.
  const rowBytes = 4000;
  const rowCount = 256;
  let seed = 1;
  const original = Uint8Array.from(
    { length: rowBytes * rowCount },
    () => (seed = (seed * 48271) % 2147483647) & 0xff,
  );
  const compressed = deflateSync(original);
  const PREDICTOR_MS = 5;

  function block(decoder = new ResumableInflate(compressed, original.byteLength)) {
    return new PartialBlock({
      view: (b) => b,
      rowBytes,
      rowCount,
      decoder,
      // A predictor that takes a measurable time per row.
      prepareRows: () => {
        const until = performance.now() + PREDICTOR_MS;
        while (performance.now() < until);
      },
      failure: (error) => new DataSourceUnavailableError(String(error)),
    });
  }

  it('tells the trace its decode time and rows, and the request its decode time with the predictor’s', async () => {
    const spans: RecordedSpan[] = [];
    const stats = newReadStats();
    const partial = block();
    const started = performance.now();
    const rows = await partial.rows([3, 0, 900], fullContext({ stats, trace: recordingTrace(spans) }));
    const wall = performance.now() - started;
    expect(Buffer.compare(bytesOf(rows).subarray(0, 4 * rowBytes), original.subarray(0, 4 * rowBytes))).toBe(
      0,
    );
    const decode = spans.filter((s) => s.name === 'decode');
    expect(decode).toHaveLength(1);
    expect(decode[0].annotations.rows).toBe(partial.rowsInflated);
    expect(partial.rowsInflated).toBeGreaterThanOrEqual(4);
    const ms = decode[0].annotations.ms as number;
    expect(ms).toBeGreaterThan(0);
    expect(ms).toBeLessThan(wall);
    // Rows 0 and 3 ran the predictor; 900 is past the block and ran nothing.
    expect(partial.rowsDecoded).toBe(2);
    expect(stats.decodeMs).toBeGreaterThanOrEqual(ms + 2 * PREDICTOR_MS - 0.001);
    expect(stats.decodeMs).toBeLessThanOrEqual(wall);
    // The same rows again (a cache hit): nothing decoded, so no decode time, and no DecodeTime metric (it is
    // emitted when decodeMs > 0: a probe saw its count grow by one per request served from cached blocks).
    const again = newReadStats();
    await partial.rows([3, 0], fullContext({ stats: again }));
    expect(again.decodeMs).toBe(0);
  });

  it('charges the pages its decoder wrote plus the decoder’s state, then only the block once whole', async () => {
    const decoder = new ResumableInflate(compressed, original.byteLength);
    const partial = block(decoder);
    expect(partial.bytesHeld).toBe(decoder.heldBytes);
    await partial.rows([5], fullContext());
    const written = Math.max(decoder.produced, partial.rowsInflated * rowBytes);
    expect(partial.bytesHeld).toBe(Math.ceil(written / 4096) * 4096 + decoder.heldBytes);
    expect(decoder.heldBytes).toBeGreaterThan(compressed.byteLength);
    await partial.rows([rowCount - 1], fullContext());
    expect(partial.rowsInflated).toBe(rowCount);
    expect(partial.bytesHeld).toBe(original.byteLength);
  });
});

/** Offset and byte count of block 0 (TIFF tags 324/325 or 273/279), read with geotiff. */
async function tileOffsets(file: string): Promise<{ offset: number; length: number }> {
  const { fromFile } = await import('geotiff');
  const tiff = await fromFile(file);
  const image = await tiff.getImage(0);
  const tiled = image.fileDirectory.hasTag('TileOffsets');
  const offsets = (await image.fileDirectory.loadValue(
    tiled ? 'TileOffsets' : 'StripOffsets',
  )) as ArrayLike<number>;
  const counts = (await image.fileDirectory.loadValue(
    tiled ? 'TileByteCounts' : 'StripByteCounts',
  )) as ArrayLike<number>;
  return { offset: Number(offsets[0]), length: Number(counts[0]) };
}
