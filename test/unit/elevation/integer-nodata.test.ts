/**
 * An integer band's fractional nodata value, as GDAL 3.6's nodata mask reads it (GDALNoDataMaskBand): range-checked
 * against its work type (Int32 for Int16, UInt32 for UInt16; Byte, Int32 and UInt32 their own), then truncated. So
 * -32768.4 on an Int16 band masks the pixels holding -32768 (a differential probe found them answered as heights),
 * while 255.9 on a Byte band or -0.5 on a UInt16 one masks none. Every expectation below is GDAL's mask band
 * (GetMaskBand().ReadRaster) on the same file.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { ascii, double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const SIZE = 16;
const RES = 1 / 3600;
/** name, bits, SampleFormat (1 unsigned, 2 signed), pixel (0, 0)'s value, GDAL_NODATA, whether GDAL masks it */
const CASES: [string, 8 | 16 | 32, 1 | 2, number, string, boolean][] = [
  ['i16-below', 16, 2, -32768, '-32768.4', true],
  ['i16-above', 16, 2, 32767, '32767.6', true],
  ['u16-above', 16, 1, 65535, '65535.5', true],
  ['u16-negative', 16, 1, 0, '-0.5', false],
  ['u8-above', 8, 1, 255, '255.9', false],
  ['u8-negative', 8, 1, 0, '-0.9', false],
  ['i32-above', 32, 2, 2147483647, '2147483647.5', false],
  ['u32-above', 32, 1, 4294967295, '4294967295.5', false],
];

/** One uncompressed band at 49° N 9° E, 1″ pixels, with its pixel type and GDAL_NODATA. */
function tags(bits: 8 | 16 | 32, format: 1 | 2, nodata: string) {
  return {
    258: short(bits),
    259: short(1),
    277: short(1),
    339: short(format),
    33550: double(RES, RES, 0),
    33922: double(0, 0, 0, 9, 49, 0),
    34735: WGS84_KEYS,
    42113: ascii(nodata),
  };
}

function raster(bits: 8 | 16 | 32, format: 1 | 2, first: number, nodata: string): Uint8Array {
  const bytes = new Uint8Array(SIZE * SIZE * (bits / 8));
  const view = new DataView(bytes.buffer);
  for (let i = 0; i < SIZE * SIZE; i++) {
    const v = i === 0 ? first : 5;
    if (bits === 8) view.setUint8(i, v);
    else if (bits === 16) (format === 2 ? view.setInt16 : view.setUint16).call(view, i * 2, v, true);
    else (format === 2 ? view.setInt32 : view.setUint32).call(view, i * 4, v, true);
  }
  return writeTiff({
    width: SIZE,
    height: SIZE,
    tile: SIZE,
    tiles: [bytes],
    tags: tags(bits, format, nodata),
  });
}

/** Empty (sparse) Int16 blocks: GDAL fills them with the nodata value rounded and saturated (GDALCopyWords). */
const SPARSE: [string, string, number][] = [
  ['sparse-32768', '32768', 32767],
  ['sparse-fraction', '-3.5', -4],
];

function sparse(nodata: string): Uint8Array {
  return writeTiff({
    width: SIZE,
    height: SIZE,
    tile: SIZE,
    tiles: [new Uint8Array(0)],
    byteCounts: [0],
    tags: tags(16, 2, nodata),
  });
}

let dir: string;

beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'integer-nodata-'));
  for (const [name, bits, format, first, nodata] of CASES)
    fs.writeFileSync(path.join(dir, `${name}.tif`), raster(bits, format, first, nodata));
  for (const [name, nodata] of SPARSE) fs.writeFileSync(path.join(dir, `${name}.tif`), sparse(nodata));
  const names = [...CASES.map(([name]) => name), ...SPARSE.map(([name]) => name)];
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    `datasets:\n${names.map((name) => `  - name: ${name}\n    path: ${name}.tif\n`).join('')}`,
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

it.each(CASES)(
  '%s: %i-bit, SampleFormat %i, pixel %d, nodata %s, masked %s, as GDAL masks it',
  async (name, _bits, _f, first, _n, masked) => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const points = [0, 1].map((col) => ({ lat: 49 - 0.5 * RES, lon: 9 + (col + 0.5) * RES }));
    expect(await registry.get(name).sample(points, 'nearest')).toEqual([masked ? null : first, 5]);
  },
);

it.each(SPARSE)(
  '%s: an empty block with nodata %s reads %d, unmasked, as GDAL reads it',
  async (name, _n, value) => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    expect(await registry.get(name).sample([{ lat: 49 - 0.5 * RES, lon: 9 + 0.5 * RES }], 'nearest')).toEqual(
      [value],
    );
  },
);
