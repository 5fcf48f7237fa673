/**
 * The codecs decoded a whole block at a time, pinned against GDAL: every block of every file of
 * test/fixtures/codecs (ZSTD with each predictor, LERC bare and wrapped in DEFLATE or ZSTD, lossless and lossy,
 * with NaN pixels stored as LERC's mask, PACKBITS, none; both byte orders where GDAL round-trips them) must decode
 * to GDAL's full read, bit for bit. Codecs and sample types the reader does not decode are refused when the file is
 * opened, by name; a LERC block that fails its checksum is a 502, never heights.
 */
import { createHash } from 'node:crypto';
import { copyFileSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DatasetConfigError,
  DataSourceUnavailableError,
  fullContext,
  loadDatasetRegistry,
} from '../../../layers/elevation';
import { RetryingSource } from '../../../layers/elevation/data/byte-source';
import { FileSource } from '../../../layers/elevation/data/file-source';
import { allRows } from '../../../layers/elevation/raster/block-rows';
import { openCogRaster } from '../../../layers/elevation/raster/cog-raster';
import { fromFile } from 'geotiff';
import Lerc from 'lerc';
import { decodeLercBlock, lercProblem } from '../../../layers/elevation/raster/lerc-block';
import type { PixelArray, Raster } from '../../../layers/elevation/raster/raster';

const FOLDER = path.resolve(__dirname, '../../fixtures/codecs');
const POLICY = { timeoutMs: 5000, retries: 0 };

interface Expected {
  file: string;
  compression: string;
  width: number;
  height: number;
  sha256: string;
  pixels: { col: number; row: number; value: number | null }[];
  refused?: string;
}

const files = (JSON.parse(readFileSync(path.join(FOLDER, 'expected.json'), 'utf8')) as { files: Expected[] })
  .files;
const decoded = files.filter((f) => !f.refused);
const refused = files.filter((f) => f.refused);

function open(file: string): Promise<Raster> {
  return openCogRaster(new RetryingSource(new FileSource(file), POLICY), 64 * 1024);
}

/** Every block decoded, assembled into the raster's samples (row-major, little-endian). */
async function decodeAll(raster: Raster): Promise<PixelArray> {
  const { width, height, blockWidth, blockHeight } = raster.grid;
  let image: PixelArray | null = null;
  for (let index = 0; index < raster.blocksAcross * raster.blocksDown; index++) {
    const block = await raster.readBlock(index, fullContext());
    const data = await block.rows(allRows(block.rowCount), fullContext());
    expect(data.length).toBe(block.rowCount * blockWidth);
    const Kind = data.constructor as new (n: number) => PixelArray;
    image ??= new Kind(width * height);
    const bx = index % raster.blocksAcross;
    const by = Math.floor(index / raster.blocksAcross);
    for (let r = 0; r < block.rowCount && by * blockHeight + r < height; r++) {
      for (let c = 0; c < blockWidth && bx * blockWidth + c < width; c++) {
        image[(by * blockHeight + r) * width + bx * blockWidth + c] = data[r * blockWidth + c];
      }
    }
  }
  return image as PixelArray;
}

const sha256 = (a: PixelArray) =>
  createHash('sha256')
    .update(new Uint8Array(a.buffer, a.byteOffset, a.byteLength))
    .digest('hex');

describe.each(decoded.map((f) => [f.file, f] as const))('%s', (file, expected) => {
  it("decodes every block to GDAL's full read (SHA-256 of the samples, and pixel values)", async () => {
    const raster = await open(path.join(FOLDER, file));
    const image = await decodeAll(raster);
    // NaN pixels are listed as null (JSON has no NaN).
    const got = expected.pixels.map(({ col, row }) => {
      const value = image[row * expected.width + col];
      return Number.isNaN(value) ? null : value;
    });
    expect(got).toEqual(expected.pixels.map((p) => p.value));
    expect(sha256(image)).toBe(expected.sha256);
  });
});

it('covers the codecs it claims: ZSTD, LERC (bare, DEFLATE, ZSTD), PACKBITS and none, NaN masks, a lossy LERC', () => {
  expect(new Set(decoded.map((f) => f.compression))).toEqual(
    new Set(['ZSTD', 'LERC', 'LERC_DEFLATE', 'LERC_ZSTD', 'PACKBITS', 'NONE']),
  );
  expect(decoded.filter((f) => f.file.endsWith('-nan.tif')).length).toBeGreaterThanOrEqual(3);
  expect(decoded.some((f) => f.file.includes('-lossy'))).toBe(true);
  expect(decoded.some((f) => f.file.startsWith('lerc-') && f.file.includes('-be-'))).toBe(true);
});

describe('LERC pixels masked as NaN', () => {
  let dir: string;
  beforeAll(() => {
    dir = mkdtempSync(path.join(os.tmpdir(), 'codec-matrix-'));
  });
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('answer null through a dataset, never 0 m (geotiff.js drops the mask), while their neighbours answer heights', async () => {
    const file = path.join(FOLDER, 'lerc-zstd-float32-p1-le-tiles-nan.tif');
    const config = path.join(dir, 'config.yaml');
    writeFileSync(config, JSON.stringify({ datasets: [{ name: 'lerc', path: file }] }));
    const registry = loadDatasetRegistry({ configPath: config });
    // Fixture grid: origin 10 E 50 N, 1/64 degree pixels; NaN in rows 28-35, columns 12-19.
    const at = (col: number, row: number) => ({ lat: 50 - (row + 0.5) / 64, lon: 10 + (col + 0.5) / 64 });
    const heights = await registry
      .get('lerc')
      .sample([at(12, 28), at(19, 35), at(11, 28), at(12, 36)], 'nearest');
    expect(heights.slice(0, 2)).toEqual([null, null]);
    for (const h of heights.slice(2)) expect(typeof h).toBe('number');
  });

  it('a LERC blob that fails its checksum is a 502 (DataSourceUnavailableError), not heights', async () => {
    const source = path.join(FOLDER, 'lerc-float32-p1-le-tiles.tif');
    const copy = path.join(dir, 'corrupt.tif');
    copyFileSync(source, copy);
    const bytes = readFileSync(copy);
    const blob = bytes.indexOf('Lerc2 ');
    expect(blob).toBeGreaterThan(0);
    bytes[blob + 200] ^= 0x01; // inside the first block's blob, past its header's checksum
    writeFileSync(copy, bytes);
    const raster = await open(copy);
    const reading = (async () => {
      const block = await raster.readBlock(0, fullContext());
      return block.rows(allRows(block.rowCount), fullContext());
    })();
    await expect(reading).rejects.toThrow(DataSourceUnavailableError);
    await expect(reading).rejects.toThrow(/Cannot decode the block 0 of .*corrupt\.tif: Checksum failed/);
  });
});

describe.each(refused.map((f) => [f.file, f] as const))('%s', (file, expected) => {
  it('is refused when opened, naming what it cannot read and how to convert it (a configuration error)', async () => {
    const opening = open(path.join(FOLDER, file));
    await expect(opening).rejects.toThrow(DatasetConfigError);
    await expect(opening).rejects.toThrow(new RegExp(`${expected.refused}.*(dem:optimize|gdal_translate)`));
  });
});

describe('lercProblem', () => {
  it('accepts the wrappings libtiff writes on a one-sample raster', () => {
    for (const wrap of [0, 1, 2]) expect(lercProblem([4, wrap], 1, 3, 32)).toBeNull();
    expect(lercProblem([4, 0], 1, 2, 32)).toBeNull(); // Int32
    expect(lercProblem([4, 0], 1, 1, 16)).toBeNull(); // UInt16
  });
  it('names a missing LercParameters tag, an unknown wrapping, several samples per pixel and UInt32', () => {
    expect(lercProblem([], 1, 3, 32)).toMatch(/no LercParameters/);
    expect(lercProblem([4, 3], 1, 3, 32)).toMatch(/unknown codec 3/);
    expect(lercProblem([4, 0], 3, 3, 32)).toMatch(/3 samples per pixel/);
    expect(lercProblem([4, 0], 1, 1, 32)).toMatch(/UInt32/);
  });
});

describe('decodeLercBlock', () => {
  /** The first tile's bytes of a LERC fixture (a 16 x 32 Float32 blob). */
  async function firstBlob(file: string): Promise<Uint8Array> {
    const tiff = await fromFile(path.join(FOLDER, file));
    const directory = (await tiff.getImage(0)).fileDirectory;
    const offsets = (await directory.loadValue('TileOffsets')) as ArrayLike<number>;
    const counts = (await directory.loadValue('TileByteCounts')) as ArrayLike<number>;
    const bytes = readFileSync(path.join(FOLDER, file));
    return new Uint8Array(bytes.subarray(Number(offsets[0]), Number(offsets[0]) + Number(counts[0])));
  }
  const float32 = { width: 16, height: 32, sampleFormat: 3, bitsPerSample: 32 };

  it('decodes a blob to the samples of its block', async () => {
    const bytes = await decodeLercBlock(await firstBlob('lerc-float32-p1-le-tiles.tif'), 0, float32);
    expect(bytes.byteLength).toBe(16 * 32 * 4);
    expect(new Float32Array(bytes.buffer, bytes.byteOffset, 1)[0]).toBeCloseTo(-100, 4);
  });
  it('refuses a blob whose pixel type or size differs from what the file declares', async () => {
    const blob = await firstBlob('lerc-float32-p1-le-tiles.tif');
    await expect(
      decodeLercBlock(blob, 0, { ...float32, sampleFormat: 2, bitsPerSample: 16 }),
    ).rejects.toThrow('LERC blob holds F32 pixels, the file declares S16');
    await expect(decodeLercBlock(blob, 0, { ...float32, width: 8 })).rejects.toThrow(
      "LERC blob's header says 1 dimension(s) of 16x32, one of 8x32 expected",
    );
    await expect(decodeLercBlock(blob, 0, { ...float32, height: 16 })).rejects.toThrow(
      "LERC blob's header says 1 dimension(s) of 16x32, one of 16x16 expected",
    );
  });
  // Refused from the header, before `lerc` allocates what it says (a helper's probe: 46000 x 46000 took 4 GB;
  // 65536 dimensions of a 128 x 128 block kept 2 GB and answered its first value as the height). GDAL refuses both.
  it('refuses a blob whose header states another size, several dimensions or another band after it', async () => {
    const blob = await firstBlob('lerc-float32-p1-le-tiles.tif');
    const edited = (at: number, value: number): Uint8Array => {
      const copy = blob.slice();
      new DataView(copy.buffer).setUint32(at, value, true);
      return copy;
    };
    expect(new DataView(blob.buffer, blob.byteOffset).getInt32(6, true)).toBeGreaterThanOrEqual(4); // Lerc2 v4+
    const decode = jest.spyOn(Lerc, 'decode');
    try {
      await expect(decodeLercBlock(edited(14, 46000), 0, float32)).rejects.toThrow(
        "LERC blob's header says 1 dimension(s) of 16x46000, one of 16x32 expected",
      );
      await expect(decodeLercBlock(edited(22, 65536), 0, float32)).rejects.toThrow(
        "LERC blob's header says 65536 dimension(s) of 16x32, one of 16x32 expected",
      );
      const twoBands = new Uint8Array([...blob, ...blob]);
      await expect(decodeLercBlock(twoBands, 0, float32)).rejects.toThrow(
        "LERC blob's header says several bands of 16x32, one of 16x32 expected",
      );
      await expect(decodeLercBlock(new TextEncoder().encode('CntZImage 11'), 0, float32)).rejects.toThrow(
        'the block is not a Lerc2 blob',
      );
      await expect(decodeLercBlock(blob.subarray(0, 20), 0, float32)).rejects.toThrow(
        'the Lerc2 blob is shorter than its header',
      );
      expect(decode).not.toHaveBeenCalled();
    } finally {
      decode.mockRestore();
    }
  });
  // GDAL writes no integer blob with a mask and `lerc` has no encoder, so the decoder's answer is stood in for:
  // the refusal is ours to test, not the decoding.
  it('refuses an integer blob with masked pixels (no value stands for them), and takes one whose mask is all valid', async () => {
    const blob = await firstBlob('lerc-float32-p1-le-tiles.tif');
    // The blob's header says 16 x 32 (checked before decoding); the decoded block is the mock's.
    const int16 = { width: 16, height: 32, sampleFormat: 2, bitsPerSample: 16 };
    const values = Int16Array.from({ length: 16 * 32 }, (_, i) => i + 1);
    const decoded = (masked: number | null): Lerc.DecodedBlock => ({
      pixelType: 'S16',
      width: 16,
      height: 32,
      pixels: [values.slice()],
      mask: Uint8Array.from({ length: 16 * 32 }, (_, i) => (i === masked ? 0 : 1)),
    });
    const decode = jest.spyOn(Lerc, 'decode');
    try {
      decode.mockReturnValueOnce(decoded(5));
      await expect(decodeLercBlock(blob, 0, int16)).rejects.toThrow(
        'LERC blob masks pixels of an integer raster, which have no nodata value there',
      );
      decode.mockReturnValueOnce(decoded(null));
      const bytes = await decodeLercBlock(blob, 0, int16);
      expect(Array.from(new Int16Array(bytes.buffer, bytes.byteOffset, 16 * 32))).toEqual(Array.from(values));
    } finally {
      decode.mockRestore();
    }
  });
});
