/**
 * What the GeoTIFF reader does with tags GDAL's COG driver never writes but other tools do: defaults for
 * missing tags, a north-up ModelTransformation, a sheared one, unsupported sample sizes, a tile shorter than
 * its rows; masks and alpha bands GDAL applies (refused) or ignores (read); nodata values as GDAL's mask takes
 * them; headers that cannot be read. Files written by test/support/tiff-writer.ts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  DatasetConfigError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  SourceNotFoundError,
} from '../../../layers/elevation';
import { RetryingSource } from '../../../layers/elevation/data/byte-source';
import { FileSource } from '../../../layers/elevation/data/file-source';
import { openCogRaster } from '../../../layers/elevation/raster/cog-raster';
import { ascii, double, long, short, WGS84_KEYS, writeTiff, type TiffSpec } from '../../support/tiff-writer';

const TILE = 16;
/** A 32 x 32 raster of 1/16 degree pixels, north-west corner at (lon 8, lat 50): four 16-px tiles. */
const SIZE = 32;
const RES = 1 / 16;
const value = (row: number, col: number) => 100 * row + col;
const POLICY = { timeoutMs: 5000, retries: 0 };

function uint16Tiles(): Uint8Array[] {
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < 2; ty++)
    for (let tx = 0; tx < 2; tx++) {
      const tile = new Uint16Array(TILE * TILE);
      for (let r = 0; r < TILE; r++)
        for (let c = 0; c < TILE; c++) tile[r * TILE + c] = value(ty * TILE + r, tx * TILE + c);
      tiles.push(new Uint8Array(tile.buffer));
    }
  return tiles;
}

const NORTH_UP = { 33550: double(RES, RES, 0), 33922: double(0, 0, 0, 8, 50, 0) };
/** A full-resolution transparency mask's directory (NewSubfileType 4), as GDAL_TIFF_INTERNAL_MASK writes it. */
const MASK_DIRECTORY = { 254: long(4), 256: long(SIZE), 257: long(SIZE), 258: short(1), 262: short(4) };

/** Tiles of two samples a pixel, the raster's value and a second (alpha) sample of 0, `bytes` each. */
function twoSampleTiles(bytes: 1 | 4): Uint8Array[] {
  return uint16Tiles().map((tile) => {
    const values = new Uint16Array(tile.buffer, tile.byteOffset, tile.length / 2);
    const out = bytes === 1 ? new Uint8Array(values.length * 2) : new Uint32Array(values.length * 2);
    values.forEach((v, i) => (out[2 * i] = bytes === 1 ? v & 0xff : v));
    return new Uint8Array(out.buffer);
  });
}

let workDir: string;
let registry: ReturnType<typeof loadDatasetRegistry>;

function write(name: string, spec: Partial<TiffSpec> & { tags: TiffSpec['tags'] }): string {
  fs.writeFileSync(
    path.join(workDir, `${name}.tif`),
    writeTiff({ width: SIZE, height: SIZE, tile: TILE, tiles: uint16Tiles(), ...spec }),
  );
  return `  - name: ${name}\n    path: ${name}.tif\n`;
}

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cog-tags-'));
  const config = [
    // No Compression, SampleFormat or PlanarConfiguration tag: TIFF's defaults (none, unsigned, chunky).
    write('defaults', { tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP } }),
    write('transform', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        34264: double(RES, 0, 0, 8, 0, -RES, 0, 50, 0, 0, 0, 0, 0, 0, 0, 1),
      },
    }),
    // The tiepoint names raster position (16, 16) (lon 9, lat 49), not the corner.
    write('tiepoint', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        33550: double(RES, RES, 0),
        33922: double(16, 16, 0, 9, 49, 0),
      },
    }),
    write('ungeoreferenced', { tags: { 258: short(16), 34735: WGS84_KEYS } }),
    write('no-crs', { tags: { 258: short(16), ...NORTH_UP } }),
    // EPSG:3035 (ProjectedCSTypeGeoKey 3072) with its base, ETRS89 (GeographicTypeGeoKey 2048), named too, as
    // tools other than GDAL write it: 1 km pixels from (4,240,000, 2,860,000).
    write('laea-with-base', {
      tags: {
        258: short(16),
        34735: short(1, 1, 0, 4, 1024, 0, 1, 1, 1025, 0, 1, 1, 2048, 0, 1, 4258, 3072, 0, 1, 3035),
        33550: double(1000, 1000, 0),
        33922: double(0, 0, 0, 4_240_000, 2_860_000, 0),
      },
    }),
    write('sheared', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        34264: double(RES, 0.01, 0, 8, 0.01, -RES, 0, 50, 0, 0, 0, 0, 0, 0, 0, 1),
      },
    }),
    write('int64', {
      tiles: uint16Tiles().map((t) => new Uint8Array(t.length * 4)),
      tags: { 258: short(64), 339: short(2), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
    // GDAL's nodata mask truncates a fractional nodata value of an integer band (101.5 marks the pixels holding
    // 101) and ignores one outside the type's range (-0.5 on UInt16 marks none: pixel (0, 0) holds 0).
    write('nodata-fraction', {
      tags: { 258: short(16), 34735: WGS84_KEYS, 42113: ascii('101.5'), ...NORTH_UP },
    }),
    write('nodata-below-range', {
      tags: { 258: short(16), 34735: WGS84_KEYS, 42113: ascii('-0.5'), ...NORTH_UP },
    }),
    // A full-resolution transparency mask after the image (NewSubfileType 4), as GDAL_TIFF_INTERNAL_MASK writes.
    write('internal-mask', {
      tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
      next: [MASK_DIRECTORY],
    }),
    // An overview's mask (NewSubfileType 5) is not the image's: read as before.
    write('overview-mask', {
      tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
      next: [{ ...MASK_DIRECTORY, 254: long(5), 256: long(SIZE / 2), 257: long(SIZE / 2) }],
    }),
    // A mask found after an overview's directory, as GDAL's COG driver orders them; a second full image
    // (a page, no NewSubfileType) is no mask.
    write('mask-after-overview', {
      tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
      next: [{ 254: long(1), 256: long(SIZE / 2), 257: long(SIZE / 2), 258: short(16) }, MASK_DIRECTORY],
    }),
    write('second-page', {
      tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
      next: [{ 256: long(SIZE), 257: long(SIZE), 258: short(16) }],
    }),
    // Two UInt16 samples a pixel, the second unassociated alpha (ExtraSamples 2): GDAL's mask of the first.
    write('alpha', {
      tags: { 258: short(16, 16), 277: short(2), 338: short(2), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
    // A Byte alpha band (associated, ExtraSamples 1) is GDAL's mask too; a UInt32 one GDAL ignores, as the reader.
    write('alpha-byte', {
      tiles: twoSampleTiles(1),
      tags: { 258: short(8, 8), 277: short(2), 338: short(1), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
    write('alpha-uint32', {
      tiles: twoSampleTiles(4),
      tags: { 258: short(32, 32), 277: short(2), 338: short(2), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
    write('mixed-sizes', { tags: { 258: short(16, 8), 277: short(2), 34735: WGS84_KEYS, ...NORTH_UP } }),
    write('sample-format-9', { tags: { 258: short(16), 339: short(9), 34735: WGS84_KEYS, ...NORTH_UP } }),
    // A band scale GDAL applies by its role, in lower case under another name (geotiff.js skipped it).
    write('scale-by-role', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        42112: ascii('<GDALMetadata><item name="X" sample="0" role="SCALE">2</item></GDALMetadata>'),
        ...NORTH_UP,
      },
    }),
    // A negative Y scale, which GDAL reads as north-up; pixel sizes and tiepoints that place nothing.
    write('negative-scale-y', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        33550: double(RES, -RES, 0),
        33922: double(0, 0, 0, 8, 50, 0),
      },
    }),
    write('zero-scale-x', {
      tags: { 258: short(16), 34735: WGS84_KEYS, 33550: double(0, RES, 0), 33922: double(0, 0, 0, 8, 50, 0) },
    }),
    write('nan-scale-x', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        33550: double(NaN, RES, 0),
        33922: double(0, 0, 0, 8, 50, 0),
      },
    }),
    write('infinite-tiepoint', {
      tags: {
        258: short(16),
        34735: WGS84_KEYS,
        33550: double(RES, RES, 0),
        33922: double(0, 0, 0, Infinity, 50, 0),
      },
    }),
    // One 65536 x 65536 tile of Int16 over a 64 x 64 raster, empty (sparse): 8 GiB decoded (or filled).
    write('huge-tiles', {
      tile: 65536,
      tiles: [new Uint8Array(0)],
      tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
    write('compression-9999', { tags: { 258: short(16), 259: short(9999), 34735: WGS84_KEYS, ...NORTH_UP } }),
    write('short-tile', {
      tiles: uint16Tiles().map((t, i) => (i === 3 ? t.subarray(0, 100) : t)),
      tags: { 258: short(16), 259: short(1), 34735: WGS84_KEYS, ...NORTH_UP },
    }),
  ];
  fs.writeFileSync(path.join(workDir, 'config.yaml'), `datasets:\n${config.join('')}`);
  registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** The centre of pixel (row, col). */
const at = (row: number, col: number) => ({ lat: 50 - (row + 0.5) * RES, lon: 8 + (col + 0.5) * RES });
const POINTS = [at(0, 0), at(0, 31), at(31, 0), at(17, 20), at(31, 31)];
const EXPECTED = [value(0, 0), value(0, 31), value(31, 0), value(17, 20), value(31, 31)];

it("reads a GeoTIFF without Compression, SampleFormat or PlanarConfiguration tags by TIFF's defaults", async () => {
  await expect(registry.get('defaults').sample(POINTS, 'nearest')).resolves.toEqual(EXPECTED);
  expect((await registry.get('defaults').describe()).pixelType).toBe('UInt16');
});

it('applies a band scale given by its role, as GDAL does (geotiff.js keyed items by a name in one spelling)', async () => {
  await expect(registry.get('scale-by-role').sample(POINTS, 'nearest')).resolves.toEqual(
    EXPECTED.map((v) => 2 * v),
  );
});

it('reads a negative Y pixel scale as north-up, as GDAL does (read as written, every point was null)', async () => {
  await expect(registry.get('negative-scale-y').sample(POINTS, 'nearest')).resolves.toEqual(EXPECTED);
});

it.each([
  ['zero-scale-x', 'origin 8, 50; pixel size 0 x -0.0625'],
  ['nan-scale-x', 'origin NaN, 50; pixel size NaN x -0.0625'],
  ['infinite-tiepoint', 'origin Infinity, 50; pixel size 0.0625 x -0.0625'],
])('refuses %s, whose pixels are placed nowhere (every point answered null)', async (name, placement) => {
  const answer = registry.get(name).sample(POINTS, 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(
    `${name}.tif has unusable georeferencing (${placement}); assign it with gdal_edit.py -a_ullr or -a_gt.`,
  );
});

it('refuses blocks too large to decode at once at open, naming their size (each request was a bare 500)', async () => {
  const answer = registry.get('huge-tiles').sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(
    /huge-tiles\.tif has blocks of 65536 x 65536 pixels \(8192 MiB decoded\), over the 256 MiB the reader decodes at once; rewrite it tiled/,
  );
});

it('reads a north-up ModelTransformation like the scale and tiepoint it stands for', async () => {
  await expect(registry.get('transform').sample(POINTS, 'nearest')).resolves.toEqual(EXPECTED);
});

it('places a raster by a tiepoint at any raster position, not only its corner', async () => {
  await expect(registry.get('tiepoint').sample(POINTS, 'nearest')).resolves.toEqual(EXPECTED);
});

it('reads a projected GeoTIFF that also names its base datum in its projection', async () => {
  // The HdM entrance projects to (4,254,872.092, 2,848,063.949) in EPSG:3035 (PROJ): row 11, column 14.
  const hdm = { lat: 48.742275, lon: 9.101177 };
  await expect(registry.get('laea-with-base').sample([hdm], 'nearest')).resolves.toEqual([value(11, 14)]);
  expect((await registry.get('laea-with-base').describe()).crs).toBe('EPSG:3035');
});

it('refuses a TIFF without georeferencing, saying what is missing', async () => {
  await expect(registry.get('ungeoreferenced').sample([at(0, 0)], 'nearest')).rejects.toThrow(
    /has no georeferencing \(ModelPixelScale with ModelTiepoint, or ModelTransformation\)/,
  );
});

it('refuses a TIFF without a CRS, naming the file', async () => {
  const answer = registry.get('no-crs').sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toThrow(/no-crs\.tif: The GeoTIFF has no usable coordinate reference system/);
  await expect(answer).rejects.toMatchObject({ cause: expect.any(DatasetConfigError) });
});

describe('a header that cannot be read', () => {
  const open = (file: string) =>
    openCogRaster(new RetryingSource(new FileSource(path.join(workDir, file)), POLICY), 64 * 1024);

  it('of a missing file says the file is missing, not that its header is corrupt', async () => {
    await expect(open('missing.tif')).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it.each([
    ['no TIFF at all', 'not-a-tiff.tif', '<html>Not found</html>', /not-a-tiff\.tif is not a GeoTIFF/],
    [
      'a directory past its end',
      'past-the-end.tif',
      'II*\0\xff\xff\0\0',
      /Cannot decode the header of .*past-the-end/,
    ],
  ])('that holds %s is a broken data layer, its cause kept', async (_what, file, bytes, message) => {
    fs.writeFileSync(path.join(workDir, file), Buffer.from(bytes, 'latin1'));
    const opening = open(file);
    await expect(opening).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(opening).rejects.toThrow(message);
    await expect(opening).rejects.toMatchObject({ cause: expect.any(Error) });
  });
});

it('refuses a sheared ModelTransformation, saying only north-up rasters are read', async () => {
  const answer = registry.get('sheared').sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(
    /is rotated \(ModelTransformation with shear\); only north-up rasters/,
  );
});

it('refuses 64-bit integer samples, naming the size', async () => {
  const answer = registry.get('int64').sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(
    /int64\.tif holds 64-bit signed integer samples, which the reader does not read/,
  );
});

it("marks nodata as GDAL's mask does: a fractional value truncated, one the type cannot hold marks none", async () => {
  await expect(registry.get('nodata-fraction').sample([at(1, 1), at(1, 2)], 'nearest')).resolves.toEqual([
    null,
    value(1, 2),
  ]);
  await expect(registry.get('nodata-below-range').sample([at(0, 0)], 'nearest')).resolves.toEqual([0]);
});

it.each([
  [
    'internal-mask',
    /internal-mask\.tif has an internal mask of valid pixels, which the reader does not apply/,
  ],
  ['mask-after-overview', /mask-after-overview\.tif has an internal mask of valid pixels/],
  ['alpha', /alpha\.tif has an alpha band, which GDAL reads as the mask of valid pixels/],
  ['alpha-byte', /alpha-byte\.tif has an alpha band, which GDAL reads as the mask of valid pixels/],
])('refuses %s rather than answering the pixels it masks out as heights', async (name, message) => {
  const answer = registry.get(name).sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(message);
  await expect(answer).rejects.toThrow(/gdalwarp -dstnodata <value> IN OUT applies the mask/);
});

it.each(['overview-mask', 'second-page', 'alpha-uint32'])(
  "reads %s: no mask GDAL applies to the image's pixels",
  async (name) => {
    await expect(registry.get(name).sample(POINTS, 'nearest')).resolves.toEqual(EXPECTED);
  },
);

it.each([
  ['mixed-sizes', /mixed-sizes\.tif holds unsigned integer samples of mixed sizes \(16, 8 bits\), which/],
  ['sample-format-9', /sample-format-9\.tif holds 16-bit SampleFormat 9 samples, which the reader does not/],
  [
    'compression-9999',
    /compression-9999\.tif is compressed with TIFF compression 9999, which the reader does not decode \(it reads none, LZW, DEFLATE, PACKBITS, LERC, ZSTD\)/,
  ],
])('refuses %s at open, naming what it cannot read', async (name, message) => {
  const answer = registry.get(name).sample([at(0, 0)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
  await expect(answer).rejects.toThrow(message);
});

it.each([
  ['no nodata tag: none', 1, undefined, null],
  ['65535 on UInt16, the largest it holds: 65535', 1, '65535', 65535],
  ['-0.5 on Int16, truncated toward zero: 0 (not -0)', 2, '-0.5', 0],
  // GDAL's mask reads an Int16 band as Int32 (integer-nodata.test.ts): 32768 is kept, and no Int16 pixel holds it.
  [
    '32768 on Int16, beyond its range but not its mask work type: 32768, which no pixel holds',
    2,
    '32768',
    32768,
  ],
  ['-0.5 on UInt16, outside even its mask work type (UInt32): none', 1, '-0.5', null],
])('the nodata value of %s', async (name, sampleFormat, tag, expected) => {
  const file = path.join(workDir, `nodata-${name.split(' ')[0]}.tif`);
  const tags = { 258: short(16), 339: short(sampleFormat), 34735: WGS84_KEYS, ...NORTH_UP };
  const spec = { width: SIZE, height: SIZE, tile: TILE, tiles: uint16Tiles() };
  fs.writeFileSync(file, writeTiff({ ...spec, tags: tag ? { ...tags, 42113: ascii(tag) } : tags }));
  const raster = await openCogRaster(new RetryingSource(new FileSource(file), POLICY), 64 * 1024);
  expect(Object.is(raster.nodata, expected)).toBe(true);
});

// GDAL_NODATA's text as GDAL 3.6 reads it (libtiff's C string, then CPLAtofM), written byte for byte: geotiff.js
// dropped its last character and read the rest with Number(), so the first three answered nodata as a height.
it.each([
  ['without its closing NUL', '-32768', -32768],
  ['with a unit after the number', '-32768 m\0', -32768],
  ['with text after a NUL', '-32768\0junk\0', -32768],
  ['in hexadecimal', '-0x10\0', -16],
  ['empty', '\0', null],
  ['with no number: 0, as GDAL reads it', 'abc\0', 0],
])('the nodata value of a GDAL_NODATA tag %s on Int16', async (_name, text, expected) => {
  const file = path.join(workDir, `nodata-raw-${text.length}-${Buffer.from(text).toString('hex')}.tif`);
  const tag = { type: 'ascii' as const, values: [...Buffer.from(text, 'latin1')] };
  const tags = { 258: short(16), 339: short(2), 34735: WGS84_KEYS, 42113: tag, ...NORTH_UP };
  fs.writeFileSync(file, writeTiff({ width: SIZE, height: SIZE, tile: TILE, tiles: uint16Tiles(), tags }));
  const raster = await openCogRaster(new RetryingSource(new FileSource(file), POLICY), 64 * 1024);
  expect(Object.is(raster.nodata, expected)).toBe(true);
});

it('a tile shorter than its rows is a broken data layer, never heights read past its end', async () => {
  await expect(registry.get('short-tile').sample([at(0, 0)], 'nearest')).resolves.toEqual([value(0, 0)]);
  const answer = registry.get('short-tile').sample([at(31, 31)], 'nearest');
  await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
});
