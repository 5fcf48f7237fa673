/**
 * SRTM .hgt and .hgt.zip tiles, written by the test: 1201x1201 big-endian Int16 holding one plane across two
 * neighbouring tiles (which share their edge column, as real SRTM tiles do), with one void.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { deflateRawSync } from 'node:zlib';
import { zipOf } from '../../support/hgt-files';
import {
  configureBlockCache,
  DatasetConfigError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  newReadStats,
} from '../../../layers/elevation';
import { RasterOpener } from '../../../layers/elevation/dataset/raster-opener';
import type { ByteSource } from '../../../layers/elevation/data/byte-source';
import { isHgtLocation, openHgtRaster } from '../../../layers/elevation/raster/hgt-raster';

const SIZE = 1201;
const VALUE_TOLERANCE_M = 1e-6;
/** z = 1000 + 1200 (lon - 9) - 1200 (49 - lat): 1 m per pixel east, -1 m per pixel south. */
const plane = (lat: number, lon: number) => 1000 + 1200 * (lon - 9) - 1200 * (49 - lat);
const VOID = { col: 600, row: 300 }; // in N48E009

/** A 1" (3601 x 3601) tile: its one-pixel-per-arcsecond grid. */
const SIZE_1S = 3601;

/** A tile whose sample (row, col) is row - col: tells rows from columns and the corner from its opposite. */
const southWest = (row: number, col: number) => row - col;

function gridBytes(size: number, value: (row: number, col: number) => number): Buffer {
  const bytes = Buffer.alloc(size * size * 2);
  for (let row = 0; row < size; row++)
    for (let col = 0; col < size; col++) bytes.writeInt16BE(value(row, col), 2 * (row * size + col));
  return bytes;
}

function hgtBytes(west: number): Buffer {
  const bytes = Buffer.alloc(SIZE * SIZE * 2);
  for (let row = 0; row < SIZE; row++)
    for (let col = 0; col < SIZE; col++) {
      const isVoid = west === 9 && col === VOID.col && row === VOID.row;
      bytes.writeInt16BE(
        isVoid ? -32768 : Math.round(plane(49 - row / 1200, west + col / 1200)),
        2 * (row * SIZE + col),
      );
    }
  return bytes;
}

/** Zips that are damaged or odd in other ways, N02E00<i + 1>. */
const DAMAGED = ['changed', 'swapped', 'tiny', 'odd', 'nocompressed', 'nouncompressed'];

let workDir: string;
let registry: ReturnType<typeof loadDatasetRegistry>;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'hgt-'));
  const tiles = path.join(workDir, 'tiles');
  fs.mkdirSync(tiles);
  const west = hgtBytes(9);
  fs.writeFileSync(path.join(tiles, 'N48E009.hgt'), west);
  fs.writeFileSync(path.join(tiles, 'N48E010.hgt'), hgtBytes(10));
  fs.writeFileSync(path.join(workDir, 'N48E009.hgt.zip'), zipOf('N48E009.hgt', west));
  fs.writeFileSync(path.join(workDir, 'N48E008.hgt'), Buffer.alloc(100));
  fs.writeFileSync(path.join(workDir, 'elevation.hgt'), west);
  fs.writeFileSync(path.join(workDir, 'S01W002.hgt'), gridBytes(SIZE, southWest));
  fs.writeFileSync(path.join(workDir, 'N00E001.hgt'), gridBytes(SIZE_1S, southWest));
  fs.writeFileSync(path.join(workDir, 'N48E009-stored.hgt.zip'), zipOf('N48E009.hgt', west, { method: 0 }));
  fs.writeFileSync(path.join(workDir, 'N01E001-notzip.hgt.zip'), west.subarray(0, 4096));
  fs.writeFileSync(path.join(workDir, 'N01E002-bzip2.hgt.zip'), zipOf('N01E002.hgt', west, { method: 12 }));
  const streamed = { compressed: 0, uncompressed: 0 };
  fs.writeFileSync(path.join(workDir, 'N01E003-streamed.hgt.zip'), zipOf('N.hgt', west, { sizes: streamed }));
  fs.writeFileSync(path.join(workDir, 'N01E004-small.hgt.zip'), zipOf('N.hgt', west.subarray(0, 5000)));
  const short = zipOf('N.hgt', west.subarray(0, west.length - 2), {
    sizes: {
      compressed: deflateRawSync(west.subarray(0, west.length - 2)).length,
      uncompressed: west.length,
    },
  });
  fs.writeFileSync(path.join(workDir, 'N01E005-short.hgt.zip'), short);
  const corrupt = zipOf('N.hgt', west);
  corrupt.fill(0xff, 200, 400); // inside the DEFLATE stream
  fs.writeFileSync(path.join(workDir, 'N01E006-corrupt.hgt.zip'), corrupt);
  // A zip bomb: its header says one grid, its stream inflates to 64 MiB more (a helper's 1.5 GiB took a worker down).
  const long = Buffer.concat([west, Buffer.alloc(64 * 1024 * 1024)]);
  const bomb = deflateRawSync(long);
  fs.writeFileSync(
    path.join(workDir, 'N01E007-long.hgt.zip'),
    zipOf('N.hgt', long, { sizes: { compressed: bomb.length, uncompressed: west.length } }),
  );
  // A stored zip with one height changed after it was zipped, and a deflated one holding another grid under the
  // first one's CRC-32: both inflate cleanly, only the checksum tells.
  const changed = zipOf('N48E009.hgt', west, { method: 0 });
  changed.writeInt16BE(
    changed.readInt16BE(30 + 'N48E009.hgt'.length + 1000) + 7,
    30 + 'N48E009.hgt'.length + 1000,
  );
  fs.writeFileSync(path.join(workDir, 'N02E001-changed.hgt.zip'), changed);
  const other = Buffer.from(west);
  other.writeInt16BE(1234, 2 * (500 * SIZE + 500));
  const swapped = zipOf('N48E009.hgt', other);
  swapped.writeUInt32LE(zipOf('N48E009.hgt', west, { method: 0 }).readUInt32LE(14), 14);
  fs.writeFileSync(path.join(workDir, 'N02E002-swapped.hgt.zip'), swapped);
  // Info-ZIP writes an extra field (timestamps) after the name: the data starts after both.
  const plain = zipOf('N48E009.hgt', west);
  const extra = Buffer.from([0x55, 0x54, 0x05, 0x00, 0x03, 1, 2, 3, 4]);
  const nameEnd = 30 + 'N48E009.hgt'.length;
  const withExtra = Buffer.concat([plain.subarray(0, nameEnd), extra, plain.subarray(nameEnd)]);
  withExtra.writeUInt16LE(extra.length, 28);
  fs.writeFileSync(path.join(workDir, 'N48E009-extra.hgt.zip'), withExtra);
  fs.writeFileSync(path.join(workDir, 'N02E003-tiny.hgt.zip'), plain.subarray(0, 10));
  const oneShort = zipOf('N.hgt', west, {
    sizes: { compressed: deflateRawSync(west).length, uncompressed: west.length - 2 },
  });
  fs.writeFileSync(path.join(workDir, 'N02E004-odd.hgt.zip'), oneShort);
  const deflated = deflateRawSync(west).length;
  fs.writeFileSync(
    path.join(workDir, 'N02E005-nocompressed.hgt.zip'),
    zipOf('N.hgt', west, { sizes: { compressed: 0, uncompressed: west.length } }),
  );
  fs.writeFileSync(
    path.join(workDir, 'N02E006-nouncompressed.hgt.zip'),
    zipOf('N.hgt', west, { sizes: { compressed: deflated, uncompressed: 0 } }),
  );
  // A folder named by another corner (as regional SRTM downloads are): the file's own name places it.
  fs.mkdirSync(path.join(workDir, 'N10E010'));
  fs.writeFileSync(path.join(workDir, 'N10E010', 'S01W002.hgt'), gridBytes(SIZE, southWest));
  fs.writeFileSync(
    path.join(workDir, 'config.yaml'),
    `datasets:
  - name: srtm
    path: tiles/
    filename_epsg: 4326
    filename_tile_size: 1
  - name: single
    path: tiles/N48E009.hgt
  - name: zipped
    path: N48E009.hgt.zip
  - name: truncated
    path: N48E008.hgt
  - name: unnamed
    path: elevation.hgt
  - name: south-west
    path: S01W002.hgt
  - name: one-second
    path: N00E001.hgt
  - name: stored
    path: N48E009-stored.hgt.zip
  - name: extra
    path: N48E009-extra.hgt.zip
  - name: in-corner-folder
    path: N10E010/S01W002.hgt
${DAMAGED.map((kind, i) => `  - name: ${kind}\n    path: N02E00${i + 1}-${kind}.hgt.zip\n`).join('')}
${['notzip', 'bzip2', 'streamed', 'small', 'short', 'corrupt', 'long']
  .map((kind, i) => `  - name: ${kind}\n    path: N01E00${i + 1}-${kind}.hgt.zip\n`)
  .join('')}`,
  );
  registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

const at = (col: number, row: number, west = 9) => ({ lat: 49 - row / 1200, lon: west + col / 1200 });

describe('SRTM .hgt tiles', () => {
  it('reads pixel centres with nearest (pixel-is-point: sample (0,0) is centred on the NW corner)', async () => {
    const points = [at(0, 0), at(1, 1), at(1200, 1200), at(37, 1100)];
    const values = await registry.get('single').sample(points, 'nearest');
    expect(values).toEqual(points.map((p) => Math.round(plane(p.lat, p.lon))));
  });

  it('is exact for bilinear and cubic on the plane, across a 32-row strip boundary', async () => {
    const point = { lat: 49 - 31.6 / 1200, lon: 9 + 100.3 / 1200 }; // between rows 31 and 32
    for (const interpolation of ['bilinear', 'cubic'] as const) {
      const [value] = await registry.get('single').sample([point], interpolation);
      expect(Math.abs((value as number) - plane(point.lat, point.lon))).toBeLessThan(VALUE_TOLERANCE_M);
    }
  });

  it('answers null at a void (-32768)', async () => {
    await expect(registry.get('single').sample([at(VOID.col, VOID.row)], 'bilinear')).resolves.toEqual([
      null,
    ]);
  });

  it('is seamless across neighbouring tiles in a tile folder', async () => {
    const points = [0.3, 0.7, 1.5].map((c) => ({ lat: 48.5, lon: 10 + (c - 1) / 1200 }));
    for (const interpolation of ['bilinear', 'cubic'] as const) {
      const values = await registry.get('srtm').sample(points, interpolation);
      values.forEach((v, i) =>
        expect(Math.abs((v as number) - plane(points[i].lat, points[i].lon))).toBeLessThan(VALUE_TOLERANCE_M),
      );
    }
  });

  it('reads a plain .hgt in strips: one probe to open, then one read per cold strip', async () => {
    configureBlockCache(64 * 1024 * 1024); // cold blocks
    const fresh = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    const first = newReadStats();
    await fresh.get('single').sample([at(10, 10)], 'nearest', { stats: first });
    expect(first.rangeRequests).toBe(2);
    expect(first.rangeBytes).toBeLessThan(2 * 32 * SIZE * 2); // one strip and a probe, not the whole tile
    const second = newReadStats();
    await fresh.get('single').sample([at(10, 1000)], 'nearest', { stats: second });
    expect(second.rangeRequests).toBe(1);
  });

  it('reads a zipped tile like the plain one', async () => {
    const points = [at(0, 0), at(600.4, 300.2), at(1000.5, 20.25)];
    const zipped = await registry.get('zipped').sample(points, 'bilinear');
    const plain = await registry.get('single').sample(points, 'bilinear');
    expect(zipped).toEqual(plain);
    expect((await registry.get('zipped').describe()).pixelType).toBe('Int16');
  });

  it('refuses a file of the wrong size and a file not named by its corner, saying why', async () => {
    // A truncated upload is a broken data layer (502), never a tile of nulls.
    const truncated = registry.get('truncated').sample([at(0, 0, 8)], 'nearest');
    await expect(truncated).rejects.toThrow(/is 100 bytes: not a complete 1201x1201 or 3601x3601 \.hgt file/);
    await expect(truncated).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(registry.get('unnamed').sample([at(0, 0)], 'nearest')).rejects.toBeInstanceOf(
      DatasetConfigError,
    );
    await expect(registry.get('unnamed').sample([at(0, 0)], 'nearest')).rejects.toThrow(
      /must be named by its south-west corner/,
    );
  });

  it('tells a 1201 from a 3601 tile by its last sample when the store never says its size', async () => {
    /** Zeros up to `total` bytes, and no size: as an HTTP server answering `Content-Range: bytes 0-1/*`. */
    const sizeless = (total: number): ByteSource & { reads: [number, number][] } => ({
      url: 'https://dem.example/N48E009.hgt',
      size: null,
      version: '',
      reads: [],
      read(offset, length) {
        this.reads.push([offset, length]);
        return Promise.resolve(new Uint8Array(Math.max(0, Math.min(length, total - offset))));
      },
    });
    for (const side of [SIZE, SIZE_1S]) {
      const source = sizeless(2 * side * side);
      expect((await openHgtRaster(source)).grid.width).toBe(side);
      expect(source.reads).toEqual([
        [0, 2],
        [2 * SIZE * SIZE - 2, 4],
      ]);
    }
    const short = openHgtRaster(sizeless(2 * SIZE * SIZE - 2));
    await expect(short).rejects.toThrow(
      /N48E009\.hgt is not a complete SRTM \.hgt file of 1201x1201 or 3601x3601/,
    );
    await expect(short).rejects.toBeInstanceOf(DataSourceUnavailableError);
  });

  it('places tiles south of the equator and west of Greenwich by their S and W corner', async () => {
    // S01W002 spans lat -1..0 and lon -2..-1: its first sample is the north-west corner (0, -2).
    const points = [
      { lat: 0, lon: -2 },
      { lat: -1, lon: -1 },
      { lat: -0.5, lon: -1.75 },
    ];
    await expect(registry.get('south-west').sample(points, 'nearest')).resolves.toEqual([
      southWest(0, 0),
      southWest(1200, 1200),
      southWest(600, 300),
    ]);
  });

  it('reads a 1" (3601 x 3601) tile by its size', async () => {
    const points = [
      { lat: 1, lon: 1 },
      { lat: 0, lon: 2 },
      { lat: 0.5, lon: 1.25 },
    ];
    await expect(registry.get('one-second').sample(points, 'nearest')).resolves.toEqual([
      southWest(0, 0),
      southWest(3600, 3600),
      southWest(1800, 900),
    ]);
    expect((await registry.get('one-second').describe()).resolution).toEqual([1 / 3600, 1 / 3600]);
  });

  it('reads a zip that stores its tile uncompressed like the deflated one', async () => {
    const points = [at(0, 0), at(1200, 1200), at(17, 945)];
    await expect(registry.get('stored').sample(points, 'nearest')).resolves.toEqual(
      await registry.get('zipped').sample(points, 'nearest'),
    );
  });

  it.each([
    [
      'changed',
      DataSourceUnavailableError,
      /the zipped grid is damaged \(its CRC-32 does not match the zip header\)/,
    ],
    [
      'swapped',
      DataSourceUnavailableError,
      /the zipped grid is damaged \(its CRC-32 does not match the zip header\)/,
    ],
    ['tiny', DatasetConfigError, /is not a zip file/],
    ['odd', DatasetConfigError, /does not hold a 1201x1201 or 3601x3601 \.hgt grid/],
    ['nocompressed', DatasetConfigError, /a streamed zip \(sizes after the data\)/],
    ['nouncompressed', DatasetConfigError, /a streamed zip \(sizes after the data\)/],
  ])('refuses a %s .hgt.zip, never a height (the zip tells what is wrong)', async (name, kind, message) => {
    const tile = DAMAGED.indexOf(name) + 1; // N02E00<tile>
    const answer = registry.get(name).sample([{ lat: 2.5, lon: tile + 0.5 }], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(kind);
    await expect(answer).rejects.toThrow(message);
  });

  it('reads a zip whose local header carries an extra field', async () => {
    const points = [at(0, 0), at(1200, 1200), at(17, 945)];
    await expect(registry.get('extra').sample(points, 'nearest')).resolves.toEqual(
      await registry.get('single').sample(points, 'nearest'),
    );
  });

  it('places a tile by its own name, not by a folder named like a corner', async () => {
    await expect(registry.get('in-corner-folder').sample([{ lat: -1, lon: -1 }], 'nearest')).resolves.toEqual(
      [southWest(1200, 1200)],
    );
  });

  it('is EGM96 heights, counts its decode time, and holds nothing beyond its strips', async () => {
    configureBlockCache(16 * 1024 * 1024);
    const stats = newReadStats();
    await registry.get('single').sample([at(5, 5)], 'nearest', { stats });
    expect(stats.decodeMs).toBeGreaterThan(0);
    expect(stats.decodeMs).toBeLessThan(1000);
    expect((await registry.get('single').describe()).verticalDatum).toBe('EGM96');
    const raster = await new RasterOpener({
      timeoutMs: 5000,
      retries: 0,
      headerPrefetchBytes: 16_384,
      missingTtlMs: 1000,
    }).open(path.join(workDir, 'tiles', 'N48E009.hgt'));
    expect(raster?.partialExtraBytes(0)).toBe(0);
    expect([raster?.blocksDown, raster?.blockBytes]).toEqual([Math.ceil(SIZE / 32), SIZE * 32 * 2]);
  });

  it.each([
    ['N48E009.hgt', true],
    ['n48e009.HGT.ZIP', true],
    ['N48E009.hgt.tif', false],
    ['N48E009.hgt.zip.tmp', false],
  ])('%s is an .hgt location: %s', (name, expected) => {
    expect(isHgtLocation(`data/${name}`)).toBe(expected);
  });

  it.each([
    ['notzip', DatasetConfigError, /is not a zip file/],
    ['bzip2', DatasetConfigError, /zip compression method 12 is not supported/],
    [
      'streamed',
      DatasetConfigError,
      /a streamed zip \(sizes after the data\) cannot be read by range; unzip it/,
    ],
    ['small', DatasetConfigError, /does not hold a 1201x1201 or 3601x3601 \.hgt grid/],
    ['short', DataSourceUnavailableError, /the zipped grid is 2884800 bytes, its header says 2884802/],
    ['corrupt', DataSourceUnavailableError, /Cannot inflate/],
    [
      'long',
      DataSourceUnavailableError,
      /the zipped grid inflates to more than the 2884802 bytes its header says$/,
    ],
  ])('refuses a %s .hgt.zip with a message saying why, never a height', async (name, kind, message) => {
    const tile = ['notzip', 'bzip2', 'streamed', 'small', 'short', 'corrupt', 'long'].indexOf(name) + 1; // N01E00<tile>
    const answer = registry.get(name).sample([{ lat: 1.5, lon: tile + 0.5 }], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(kind);
    await expect(answer).rejects.toThrow(message);
  });
});
