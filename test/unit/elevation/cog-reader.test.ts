/**
 * The GeoTIFF reader over little files whose every pixel and tag is known (test/support/tiff-writer.ts): every
 * sample type it reads, nodata as GDAL writes it (a decimal string), vertical datums, more georeferencing
 * variants, several bands, what it says when a file is broken, and the decode it reports to the trace.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  configureBlockCache,
  DatasetConfigError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  newReadStats,
  noTracing,
  ObjectChangedError,
  UndecodableBlockError,
} from '../../../layers/elevation';
import { RasterOpener } from '../../../layers/elevation/dataset/raster-opener';
import { recordingTrace, type RecordedSpan } from '../../support/recording-trace';
import { ascii, double, short, WGS84_KEYS, writeTiff, type TiffSpec } from '../../support/tiff-writer';

const TILE = 16;
const SIZE = 32;
const RES = 1 / 16;
const NORTH_UP = { 33550: double(RES, RES, 0), 33922: double(0, 0, 0, 8, 50, 0) };

type Typed =
  Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array | Float32Array | Float64Array;
type TypedCtor = new (length: number) => Typed;

/** The four tiles of a 32 x 32 raster, pixel (row, col) = value(row, col), `bands` values per pixel. */
function tilesOf(Ctor: TypedCtor, value: (row: number, col: number) => number, bands = 1): Uint8Array[] {
  const tiles: Uint8Array[] = [];
  for (let ty = 0; ty < 2; ty++)
    for (let tx = 0; tx < 2; tx++) {
      const tile = new Ctor(TILE * TILE * bands);
      for (let r = 0; r < TILE; r++)
        for (let c = 0; c < TILE; c++)
          for (let b = 0; b < bands; b++)
            tile[(r * TILE + c) * bands + b] = b === 0 ? value(ty * TILE + r, tx * TILE + c) : 7 + b;
      tiles.push(new Uint8Array(tile.buffer));
    }
  return tiles;
}

const plane = (row: number, col: number): number => 100 * row + col;

let workDir: string;
let registry: ReturnType<typeof loadDatasetRegistry>;
const config: string[] = [];

function write(name: string, spec: Partial<TiffSpec> & { tags: TiffSpec['tags'] }): string {
  const file = path.join(workDir, `${name}.tif`);
  fs.writeFileSync(
    file,
    writeTiff({ width: SIZE, height: SIZE, tile: TILE, tiles: tilesOf(Uint16Array, plane), ...spec }),
  );
  config.push(`  - name: ${name}\n    path: ${name}.tif\n`);
  return file;
}

const SAMPLE_TYPES = [
  ['Int8', 2, 8, Int8Array, (r: number, c: number) => ((7 * r + c) % 200) - 100],
  ['UInt8', 1, 8, Uint8Array, (r: number, c: number) => (7 * r + c) % 250],
  ['Int16', 2, 16, Int16Array, (r: number, c: number) => -1 - plane(r, c)],
  ['UInt16', 1, 16, Uint16Array, plane],
  ['Int32', 2, 32, Int32Array, (r: number, c: number) => -100_000 - plane(r, c)],
  ['UInt32', 1, 32, Uint32Array, (r: number, c: number) => 3e9 + plane(r, c)],
  ['Float32', 3, 32, Float32Array, (r: number, c: number) => plane(r, c) + 0.5],
  ['Float64', 3, 64, Float64Array, (r: number, c: number) => plane(r, c) + 0.123456789],
] as const;

const VERTICAL_DATUMS = [
  [5773, 'EGM96'],
  [3855, 'EGM2008'],
  [5703, 'NAVD88'],
  [5730, 'EVRF2000'],
  [5621, 'EVRF2007'],
  [5714, null], // mean sea level height, not a datum the reader names
] as const;

/** WGS84_KEYS with a VerticalCSTypeGeoKey (4096). */
const verticalKeys = (code: number) =>
  short(1, 1, 0, 4, 1024, 0, 1, 2, 1025, 0, 1, 1, 2048, 0, 1, 4326, 4096, 0, 1, code);

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'cog-reader-'));
  for (const [name, format, bits, Ctor, value] of SAMPLE_TYPES) {
    write(`type-${name}`, {
      tiles: tilesOf(Ctor, value),
      tags: { 258: short(bits), 339: short(format), 34735: WGS84_KEYS, ...NORTH_UP },
    });
  }
  // GDAL writes nodata as text; -9999.9 is not a Float32, so the file holds Math.fround(-9999.9).
  const voidAt00 = (value: number) => (r: number, c: number) => (r === 0 && c === 0 ? value : plane(r, c));
  write('nodata-float32', {
    tiles: tilesOf(Float32Array, voidAt00(-9999.9)),
    tags: { 258: short(32), 339: short(3), 34735: WGS84_KEYS, 42113: ascii('-9999.9'), ...NORTH_UP },
  });
  write('nodata-float64', {
    tiles: tilesOf(Float64Array, voidAt00(-9999.9)),
    tags: { 258: short(64), 339: short(3), 34735: WGS84_KEYS, 42113: ascii('-9999.9'), ...NORTH_UP },
  });
  // GDAL's band scale/offset (gdal_translate -a_scale/-a_offset): a height is stored × scale + offset.
  const metadata = (items: string) => ascii(`<GDALMetadata>\n${items}</GDALMetadata>\n`);
  const bandItem = (name: string, role: string, value: string) =>
    `  <Item name="${name}" sample="0" role="${role}">${value}</Item>\n`;
  for (const [name, items] of [
    ['scaled', bandItem('SCALE', 'scale', '0.1') + bandItem('OFFSET', 'offset', '0')],
    ['offset', bandItem('OFFSET', 'offset', '-100')],
    ['scale-zero', bandItem('SCALE', 'scale', '0')],
    ['scale-text', bandItem('SCALE', 'scale', 'ten')],
    ['offset-empty', bandItem('OFFSET', 'offset', ' ')],
    ['identity-scale', bandItem('SCALE', 'scale', '1') + bandItem('OFFSET', 'offset', '0')],
    ['feet', bandItem('UNITTYPE', 'unittype', 'ft')],
    ['metres', bandItem('UNITTYPE', 'unittype', 'metre')],
    ['other-metadata', '  <Item name="AREA_OR_POINT">Area</Item>\n  <Item name="SCALE">0.5</Item>\n'],
  ])
    write(`metadata-${name}`, {
      tags: { 258: short(16), 34735: WGS84_KEYS, 42112: metadata(items), ...NORTH_UP },
    });
  // Stored 1 is nodata; the heights are stored × 0.5 + 10.
  write('metadata-scaled-nodata', {
    tags: {
      258: short(16),
      34735: WGS84_KEYS,
      42112: metadata(bandItem('SCALE', 'scale', '0.5') + bandItem('OFFSET', 'offset', '10')),
      42113: ascii('1'),
      ...NORTH_UP,
    },
  });
  write('zero-no-nodata', {
    tiles: tilesOf(Float32Array, voidAt00(0)),
    tags: { 258: short(32), 339: short(3), 34735: WGS84_KEYS, ...NORTH_UP },
  });
  for (const code of [9001, 9002, 9003]) {
    // VerticalUnitsGeoKey (4099) beside a VerticalCSTypeGeoKey of EGM96.
    const keys = short(
      1,
      1,
      0,
      5,
      1024,
      0,
      1,
      2,
      1025,
      0,
      1,
      1,
      2048,
      0,
      1,
      4326,
      4096,
      0,
      1,
      5773,
      4099,
      0,
      1,
      code,
    );
    write(`vertical-units-${code}`, { tags: { 258: short(16), 34735: keys, ...NORTH_UP } });
  }
  for (const [code] of VERTICAL_DATUMS) {
    write(`vertical-${code}`, { tags: { 258: short(16), 34735: verticalKeys(code), ...NORTH_UP } });
  }
  const transform = (shearX: number, shearY: number) =>
    double(RES, shearX, 0, 8, shearY, -RES, 0, 50, 0, 0, 0, 0, 0, 0, 0, 1);
  write('shear-y', { tags: { 258: short(16), 34735: WGS84_KEYS, 34264: transform(0, 0.01) } });
  write('shear-x', { tags: { 258: short(16), 34735: WGS84_KEYS, 34264: transform(0.01, 0) } });
  write('transform-short', {
    tags: { 258: short(16), 34735: WGS84_KEYS, 34264: double(RES, 0, 0, 8, 0, -RES) },
  });
  write('scale-of-two', {
    tags: { 258: short(16), 34735: WGS84_KEYS, 33550: double(RES, RES), 33922: double(0, 0, 0, 8, 50, 0) },
  });
  write('scale-and-transform', {
    tags: { 258: short(16), 34735: WGS84_KEYS, 33550: double(RES, RES, 0), 34264: transform(0, 0) },
  });
  // Three bands, interleaved (PlanarConfiguration 1) and separate (2: every band's tiles, band 1's first).
  write('bands-chunky', {
    tiles: tilesOf(Uint16Array, plane, 3),
    tags: { 258: short(16, 16, 16), 277: short(3), 284: short(1), 34735: WGS84_KEYS, ...NORTH_UP },
  });
  const band = (b: number) => tilesOf(Uint16Array, (r, c) => (b === 0 ? plane(r, c) : 60_000 + b));
  write('bands-planar', {
    tiles: [...band(0), ...band(1), ...band(2)],
    tags: { 258: short(16, 16, 16), 277: short(3), 284: short(2), 34735: WGS84_KEYS, ...NORTH_UP },
  });
  write('one-tile', {
    width: TILE,
    height: TILE,
    tiles: tilesOf(Uint16Array, plane).slice(0, 1),
    tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP },
  });
  write('short-tile', {
    tiles: tilesOf(Uint16Array, plane).map((t, i) => (i === 3 ? t.subarray(0, 100) : t)),
    tags: { 258: short(16), 259: short(1), 34735: WGS84_KEYS, ...NORTH_UP },
  });
  // The last tile cut off by 100 bytes: the file ends before what its TileByteCounts says.
  const cut = write('truncated', { tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP } });
  fs.truncateSync(cut, fs.statSync(cut).size - 100);
  // A TIFF header whose first IFD lies past the file's end.
  const broken = write('broken-ifd', { tags: { 258: short(16), 34735: WGS84_KEYS, ...NORTH_UP } });
  const bytes = fs.readFileSync(broken);
  bytes.writeUInt32LE(1_000_000, 4);
  fs.writeFileSync(broken, bytes);
  fs.writeFileSync(path.join(workDir, 'config.yaml'), `datasets:\n${config.join('')}`);
  registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

/** The centre of pixel (row, col). */
const at = (row: number, col: number) => ({ lat: 50 - (row + 0.5) * RES, lon: 8 + (col + 0.5) * RES });
const CELLS = [
  [0, 0],
  [0, 31],
  [31, 0],
  [17, 20],
  [31, 31],
] as const;
const POINTS = CELLS.map(([r, c]) => at(r, c));

describe('sample types', () => {
  it.each(SAMPLE_TYPES)('reads %s pixels and names the type', async (name, _f, _b, _c, value) => {
    const dataset = registry.get(`type-${name}`);
    await expect(dataset.sample(POINTS, 'nearest')).resolves.toEqual(CELLS.map(([r, c]) => value(r, c)));
    expect((await dataset.describe()).pixelType).toBe(name);
  });
});

describe('nodata', () => {
  it('matches a Float32 nodata written as a decimal that Float32 cannot hold (GDAL_NODATA "-9999.9")', async () => {
    await expect(registry.get('nodata-float32').sample([at(0, 0), at(0, 1)], 'nearest')).resolves.toEqual([
      null,
      1,
    ]);
  });

  it('matches a Float64 nodata exactly, not rounded to Float32', async () => {
    await expect(registry.get('nodata-float64').sample([at(0, 0), at(0, 1)], 'nearest')).resolves.toEqual([
      null,
      1,
    ]);
  });

  it('answers 0 as a height where a file declares no nodata', async () => {
    await expect(registry.get('zero-no-nodata').sample([at(0, 0), at(0, 1)], 'nearest')).resolves.toEqual([
      0, 1,
    ]);
  });
});

describe('scale and offset', () => {
  it('answers stored × scale (GDAL metadata SCALE), as gdallocationinfo’s "Descaled Value"', async () => {
    const heights = await registry.get('metadata-scaled').sample([at(17, 20), at(0, 1)], 'nearest');
    expect(heights[0]).toBeCloseTo(172, 9);
    expect(heights[1]).toBeCloseTo(0.1, 12);
  });

  it('answers stored + offset (GDAL metadata OFFSET alone)', async () => {
    await expect(registry.get('metadata-offset').sample([at(0, 1), at(3, 4)], 'nearest')).resolves.toEqual([
      -99, 204,
    ]);
  });

  it('interpolates the scaled heights', async () => {
    // Between pixels (17, 20) and (17, 21) and the row below: the plane 100 r + c, scaled by 0.5, plus 10.
    const point = { lat: 50 - 18 * RES, lon: 8 + 21 * RES };
    const [bilinear] = await registry.get('metadata-scaled-nodata').sample([point], 'bilinear');
    expect(bilinear).toBeCloseTo((100 * 17.5 + 20.5) * 0.5 + 10, 9);
  });

  it('tests nodata on the stored value: stored 1 is nodata, a height of 1 is not', async () => {
    // Stored 1 at (0, 1) is nodata; (0, 2) stores 2, height 11.
    await expect(
      registry.get('metadata-scaled-nodata').sample([at(0, 1), at(0, 2)], 'nearest'),
    ).resolves.toEqual([null, 11]);
  });

  it.each([
    ['scale-zero', /declares a band scale of '0', which turns no stored value into a height/],
    ['scale-text', /declares a band scale of 'ten'/],
  ])('refuses a band scale or offset that makes no height (%s)', async (name, message) => {
    const answer = registry.get(`metadata-${name}`).sample([at(0, 1)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(message);
  });

  it('refuses heights in feet (band UNITTYPE), naming the unit', async () => {
    const answer = registry.get('metadata-feet').sample([at(0, 1)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(/metadata-feet\.tif stores its heights in 'ft', not metres/);
  });

  it.each([
    [9002, 'foot'],
    [9003, 'US survey foot'],
  ])('refuses a VerticalUnitsGeoKey of %d (%s)', async (code) => {
    const answer = registry.get(`vertical-units-${code}`).sample([at(0, 1)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(`stores its heights in the unit of EPSG code ${code}, not metres`);
  });

  it('reads a VerticalUnitsGeoKey of metres (9001)', async () => {
    await expect(registry.get('vertical-units-9001').sample([at(0, 1)], 'nearest')).resolves.toEqual([1]);
  });

  // A blank offset is 0 as GDAL reads it (CPLAtofM), not a refusal.
  it.each(['identity-scale', 'metres', 'other-metadata', 'offset-empty'])(
    'reads a file whose metadata scales nothing (%s)',
    async (name) => {
      await expect(registry.get(`metadata-${name}`).sample([at(0, 1)], 'nearest')).resolves.toEqual([1]);
    },
  );
});

describe('vertical datums', () => {
  it.each(VERTICAL_DATUMS)('VerticalCSTypeGeoKey %d is %s', async (code, name) => {
    const dataset = registry.get(`vertical-${code}`);
    expect((await dataset.describe()).verticalDatum).toBe(name);
    await expect(dataset.sample([at(17, 20)], 'nearest')).resolves.toEqual([plane(17, 20)]);
  });
});

describe('georeferencing', () => {
  it.each(['shear-x', 'shear-y'])('refuses a ModelTransformation with one shear term (%s)', async (name) => {
    const answer = registry.get(name).sample([at(0, 0)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(answer).rejects.toThrow(/is rotated \(ModelTransformation with shear\)/);
  });

  it('refuses a ModelTransformation of fewer than 8 values, alone, as no georeferencing', async () => {
    await expect(registry.get('transform-short').sample([at(0, 0)], 'nearest')).rejects.toThrow(
      /transform-short\.tif has no georeferencing/,
    );
  });

  it('reads a ModelPixelScale of two values (no Z) with its tiepoint', async () => {
    await expect(registry.get('scale-of-two').sample(POINTS, 'nearest')).resolves.toEqual(
      CELLS.map(([r, c]) => plane(r, c)),
    );
  });

  it('reads a ModelTransformation when a ModelPixelScale comes without a tiepoint', async () => {
    await expect(registry.get('scale-and-transform').sample(POINTS, 'nearest')).resolves.toEqual(
      CELLS.map(([r, c]) => plane(r, c)),
    );
  });

  it('reads a raster of a single tile', async () => {
    await expect(
      registry.get('one-tile').sample([at(0, 0), at(15, 15), at(7, 9)], 'nearest'),
    ).resolves.toEqual([0, 1515, 709]);
  });
});

describe('bands', () => {
  it.each(['bands-chunky', 'bands-planar'])('answers band 1 of a three-band raster (%s)', async (name) => {
    await expect(registry.get(name).sample(POINTS, 'nearest')).resolves.toEqual(
      CELLS.map(([r, c]) => plane(r, c)),
    );
    await expect(registry.get(name).sample([at(17.25, 20.25)], 'bilinear')).resolves.toEqual([1745.25]);
  });
});

describe('broken files: a 502 that names the file and what is wrong, never heights', () => {
  it('a tile shorter than its rows', async () => {
    const answer = registry.get('short-tile').sample([at(31, 31)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    const cause = await answer.catch((error: Error) => error.cause);
    expect((cause as Error).message).toMatch(
      /^Cannot decode the block 3 of .*short-tile\.tif: Error: block 3 decodes to 100 bytes, 512 expected$/,
    );
  });

  it('a file that ends inside its last tile: refused whole, its first tiles too (cut short, or still being written)', async () => {
    const dataset = registry.get('truncated');
    for (const point of [at(0, 0), at(31, 31)]) {
      const answer = dataset.sample([point], 'nearest');
      await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
      await expect(answer).rejects.toThrow(
        /^.*truncated\.tif is cut short: its blocks reach byte \d+ but it holds \d+ bytes \(a copy still in progress, or a truncated file\)$/,
      );
    }
  });

  it('a header whose directory lies past the end of the file', async () => {
    const answer = registry.get('broken-ifd').sample([at(0, 0)], 'nearest');
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(answer).rejects.toThrow(/^Cannot decode the header of .*broken-ifd\.tif: /);
  });
});

describe('the raster a file opens as', () => {
  const opener = () =>
    new RasterOpener({ timeoutMs: 5000, retries: 0, headerPrefetchBytes: 16_384, missingTtlMs: 1000 });

  it('refuses a block index outside it', async () => {
    const raster = await opener().open(path.join(workDir, 'type-UInt16.tif'));
    const ctx = { stats: newReadStats(), trace: noTracing };
    await expect(raster?.readBlock(4, ctx)).rejects.toThrow(/^Block 4 outside .*type-UInt16\.tif$/);
    await expect(raster?.readBlock(-1, ctx)).rejects.toThrow(RangeError);
  });

  it('reads no block of a file replaced since its header was read: it changed (opened again), not undecodable', async () => {
    const file = path.join(workDir, 'replaced-under-us.tif');
    fs.copyFileSync(path.join(workDir, 'type-UInt16.tif'), file);
    const raster = await opener().open(file);
    fs.appendFileSync(file, Buffer.alloc(16)); // another size: another version
    const read = raster?.readBlock(0, { stats: newReadStats(), trace: noTracing });
    await expect(read).rejects.toBeInstanceOf(ObjectChangedError);
    await expect(read).rejects.not.toBeInstanceOf(UndecodableBlockError);
  });

  it('keeps why a file is not a GeoTIFF as the cause of its 502', async () => {
    const file = path.join(workDir, 'html-page.tif');
    fs.writeFileSync(file, '<html><body>Not Found</body></html>');
    const error = await opener()
      .open(file)
      .catch((e: unknown) => e);
    expect(error).toBeInstanceOf(DataSourceUnavailableError);
    expect((error as Error).message).toMatch(/html-page\.tif is not a GeoTIFF: /);
    expect((error as Error).cause).toBeInstanceOf(Error);
  });

  it('charges an uncompressed block its pixels, a DEFLATE or LZW block its compressed bytes too', async () => {
    const uncompressed = await opener().open(path.join(workDir, 'bands-chunky.tif'));
    expect(uncompressed?.blockBytes).toBe(TILE * TILE * 3 * 2);
    expect(uncompressed?.samplesPerPixel).toBe(3);
    expect(uncompressed?.partialExtraBytes(0)).toBe(0);
    for (const fixture of ['plane-point.tif', 'lzw-plane.tif']) {
      const compressed = await opener().open(path.resolve('test/fixtures', fixture));
      const extra = compressed?.partialExtraBytes(0) ?? 0;
      expect(extra).toBeGreaterThan(0);
      expect(extra).toBeLessThan(compressed?.blockBytes ?? 0);
    }
  });

  it('reports a whole-block decode to the trace (span "decode", ms) and the request (decodeMs)', async () => {
    configureBlockCache(16 * 1024 * 1024);
    const spans: RecordedSpan[] = [];
    const trace = recordingTrace(spans);
    const stats = newReadStats();
    await registry.get('type-Float64').sample([at(3, 3)], 'nearest', { stats, trace });
    const decode = spans.filter((s) => s.name === 'decode');
    expect(decode).toHaveLength(1);
    const ms = decode[0].annotations.ms as number;
    expect(ms).toBeGreaterThanOrEqual(0);
    expect(ms).toBeLessThan(1000);
    expect(Math.abs(ms * 1000 - Math.round(ms * 1000))).toBeLessThan(1e-6); // rounded to microseconds
    expect(stats.decodeMs).toBeGreaterThan(0);
    expect(stats.decodeMs).toBeLessThan(1000);
    expect(Math.abs(stats.decodeMs - ms)).toBeLessThanOrEqual(0.001);
  });
});
