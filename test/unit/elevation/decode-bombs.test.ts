/**
 * Blocks that decode to far more than a block holds (decompression bombs in a DEM file a store holds) are refused
 * when they pass what the block can hold, never decoded whole: geotiff.js's streaming ZSTD decoder grew its
 * WebAssembly memory to a 32 KB frame's 1 GiB and kept it (a worker 2 GB larger, a helper's probe); a zipped .hgt
 * (hgt.test.ts) and LERC_DEFLATE had no bound either. ZSTD frames are written here by hand (raw and RLE blocks,
 * RFC 8878), so no compressor is needed.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateSync } from 'node:zlib';
import { DataSourceUnavailableError, loadDatasetRegistry } from '../../../layers/elevation';
import { inflateAtMost, packbitsAtMost, zstdAtMost } from '../../../layers/elevation/raster/bounded-decode';
import { decodeLercBlock } from '../../../layers/elevation/raster/lerc-block';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const MAX_BLOCK = 128 * 1024;

/** A ZSTD frame (no content size, no checksum, a 128 KiB window) of raw blocks holding `data`. */
function rawFrame(data: Uint8Array): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < data.length || at === 0; at += MAX_BLOCK) {
    const part = data.subarray(at, at + MAX_BLOCK);
    blocks.push(Buffer.concat([blockHeader(part.length, 0, at + MAX_BLOCK >= data.length), part]));
  }
  return Buffer.concat([FRAME_HEADER, ...blocks]);
}

/** A ZSTD frame of `length` copies of `byte` in RLE blocks: 4 bytes per 128 KiB. */
function rleFrame(byte: number, length: number): Buffer {
  const blocks: Buffer[] = [];
  for (let at = 0; at < length; at += MAX_BLOCK) {
    const size = Math.min(MAX_BLOCK, length - at);
    blocks.push(Buffer.concat([blockHeader(size, 1, at + size >= length), Buffer.from([byte])]));
  }
  return Buffer.concat([FRAME_HEADER, ...blocks]);
}

// Magic number, a descriptor with no content size, checksum or dictionary, and a 2^17-byte window.
const FRAME_HEADER = Buffer.from([0x28, 0xb5, 0x2f, 0xfd, 0x00, 0x38]);

function blockHeader(size: number, type: number, last: boolean): Buffer {
  const value = (size << 3) | (type << 1) | (last ? 1 : 0);
  return Buffer.from([value & 0xff, (value >> 8) & 0xff, (value >> 16) & 0xff]);
}

describe('bounded decoders', () => {
  it('decode a ZSTD frame that fits, and refuse one a byte larger than the block holds', async () => {
    const data = Uint8Array.from({ length: 300_000 }, (_, i) => (i * 7) % 251);
    await expect(zstdAtMost(rawFrame(data), data.length)).resolves.toEqual(data);
    await expect(zstdAtMost(rawFrame(data), data.length - 1)).rejects.toThrow(
      'the ZSTD frame does not decode into the 299999 bytes a block can hold',
    );
    // 64 MiB from 2 KB: refused at the first block past the buffer, never decoded whole.
    await expect(zstdAtMost(rleFrame(0, 64 * 1024 * 1024), 512 * 512 * 4)).rejects.toThrow(
      /does not decode into the 1048576 bytes/,
    );
  });

  it('inflate a zlib stream that fits, and refuse one past its bound', async () => {
    const data = Buffer.alloc(100_000, 3);
    await expect(inflateAtMost(deflateSync(data), data.length)).resolves.toEqual(new Uint8Array(data));
    await expect(inflateAtMost(deflateSync(data), data.length - 1)).rejects.toThrow(
      'the DEFLATE stream inflates to more than the 99999 bytes a block can hold',
    );
  });

  it('refuse a LERC blob wrapped in ZSTD or DEFLATE that unwraps to more than a block could hold', async () => {
    const layout = { width: 256, height: 256, sampleFormat: 2, bitsPerSample: 16 };
    const bound = 2 * 256 * 256 * 2 + 64 * 1024;
    await expect(decodeLercBlock(rleFrame(0, 64 * 1024 * 1024), 2, layout)).rejects.toThrow(
      `the ZSTD frame does not decode into the ${bound} bytes a block can hold`,
    );
    await expect(decodeLercBlock(deflateSync(Buffer.alloc(bound + 1)), 1, layout)).rejects.toThrow(
      `the DEFLATE stream inflates to more than the ${bound} bytes a block can hold`,
    );
  });
});

describe('a ZSTD GeoTIFF with a bomb for a tile', () => {
  const SIZE = 64;
  const TILE = 32;
  const RES = 1 / 64;
  let dir: string;
  beforeAll(() => {
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'decode-bombs-'));
    const tiles = [0, 1, 2, 3].map((t) => {
      const tile = new Int16Array(TILE * TILE).fill(100 + t);
      return t === 3 ? rleFrame(0, 64 * 1024 * 1024) : rawFrame(new Uint8Array(tile.buffer));
    });
    const tags = {
      258: short(16),
      259: short(50000),
      339: short(2),
      34735: WGS84_KEYS,
      33550: double(RES, RES, 0),
      33922: double(0, 0, 0, 8, 50, 0),
    };
    fs.writeFileSync(
      path.join(dir, 'bomb.tif'),
      writeTiff({ width: SIZE, height: SIZE, tile: TILE, tiles, tags }),
    );
    fs.writeFileSync(path.join(dir, 'config.yaml'), 'datasets:\n  - name: bomb\n    path: bomb.tif\n');
  });
  afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

  it('answers its good tiles and refuses the bomb (502, the block named), never its zeros', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const at = (row: number, col: number) => ({ lat: 50 - (row + 0.5) * RES, lon: 8 + (col + 0.5) * RES });
    await expect(registry.get('bomb').sample([at(0, 0), at(40, 0)], 'nearest')).resolves.toEqual([100, 102]);
    const bomb = registry.get('bomb').sample([at(40, 40)], 'nearest');
    await expect(bomb).rejects.toBeInstanceOf(DataSourceUnavailableError);
    // Read twice, it fails twice: the client hears of a corrupt file, the log (the cause) names the block.
    const cause = await bomb.catch((error: Error) => error.cause);
    expect(String(cause)).toMatch(
      /block 3 of .*bomb\.tif.*does not decode into the 2048 bytes a block can hold/,
    );
  });
});

describe('PackBits, decoded as libtiff decodes it', () => {
  it('decodes literals and runs, and skips the no-op header -128', () => {
    const stream = Uint8Array.from([2, 10, 11, 12, 0xfe, 7, 0x80, 0, 13]);
    expect(Array.from(packbitsAtMost(stream, 100))).toEqual([10, 11, 12, 7, 7, 7, 13]);
  });

  it('discards what passes the block (libtiff: "to avoid buffer overrun"), never growing past it', () => {
    // 5 MiB of runs asking for 335 MB crashed serverless-offline; the first bytes are what libtiff keeps.
    const bomb = new Uint8Array(5 * 1024 * 1024);
    for (let i = 0; i < bomb.length; i += 2) [bomb[i], bomb[i + 1]] = [0x81, i % 251];
    const out = packbitsAtMost(bomb, 1000);
    expect(out.length).toBe(1000);
    expect(Array.from(out.subarray(0, 130))).toEqual([...Array(128).fill(0), 2, 2]);
    expect(Array.from(packbitsAtMost(Uint8Array.from([3, 1, 2, 3, 4]), 2))).toEqual([1, 2]);
  });

  it('ends a block short where its input runs out (its caller refuses a short block)', () => {
    expect(Array.from(packbitsAtMost(Uint8Array.from([5, 1, 2]), 100))).toEqual([1, 2]);
    expect(Array.from(packbitsAtMost(Uint8Array.from([1, 9, 9, 0xff]), 100))).toEqual([9, 9]);
  });
});
