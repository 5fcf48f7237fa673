/**
 * SRTM `.hgt` tiles (and `.hgt.zip`), as OpenTopoData datasets often hold them: a square grid of big-endian
 * Int16, 1201x1201 (3") or 3601x3601 (1"), pixel-is-point, named by the south-west corner, voids -32768.
 * A plain `.hgt` is read in strips of rows by range requests, like a striped GeoTIFF; a zipped one is read
 * as a single block (its DEFLATE stream cannot be entered in the middle), cached like any other block.
 */
import { promisify } from 'node:util';
import { crc32, inflateRaw } from 'node:zlib';
import type { ByteSource, ReadIo } from '../data/byte-source';
import { DatasetConfigError, DataSourceUnavailableError } from '../errors';
import { crsFromEpsg } from '../geo/crs';
import type { ReadContext } from '../types';
import { completeBlock } from './block-rows';
import { swapBytes } from './predictor';
import type { PixelArray, Raster, RasterGrid } from './raster';

const inflateRawAsync = promisify(inflateRaw);
const SIZES = [1201, 3601];
const HGT_NODATA = -32768;
/** Rows per strip: 32 rows of a 1" tile are 230 KB, one range request each. */
const STRIP_ROWS = 32;

export function isHgtLocation(location: string): boolean {
  return /\.hgt(\.zip)?$/i.test(location);
}

export async function openHgtRaster(source: ByteSource, io?: ReadIo): Promise<Raster> {
  const corner = /([NS])(\d{1,2})([EW])(\d{1,3})[^/\\]*$/i.exec(source.url);
  if (!corner)
    throw new DatasetConfigError(
      `${source.url}: an .hgt file must be named by its south-west corner, e.g. N48E009.hgt`,
    );
  const lat = Number(corner[2]) * (corner[1].toUpperCase() === 'S' ? -1 : 1);
  const lon = Number(corner[4]) * (corner[3].toUpperCase() === 'W' ? -1 : 1);
  if (/\.zip$/i.test(source.url)) return zippedHgt(source, lat, lon, io);
  const size = await probeSize(source, io);
  const grid = hgtGrid(size, lat, lon, STRIP_ROWS);
  return hgtRaster(source, grid, async (index, ctx) => {
    const firstRow = index * STRIP_ROWS;
    const rows = Math.min(STRIP_ROWS, size - firstRow);
    const bytes = await source.read(firstRow * size * 2, rows * size * 2, ctx);
    return toInt16(bytes, ctx);
  });
}

/**
 * The tile's size from the store's answer to its first two bytes (every verified source tells the object's
 * size): it must be exactly one of the two, since a truncated upload is a broken data layer (502), never a tile
 * of nulls. A source that does not tell it: the one size whose last sample exists (a read across the end of a
 * 1201 tile comes back short).
 */
async function probeSize(source: ByteSource, io?: ReadIo): Promise<number> {
  await source.read(0, 2, io);
  const size = source.size;
  // Empty in the store (no fault on the way explains a size of 0): a file an operator must replace (500).
  if (size === 0) throw new DatasetConfigError(`${source.url} is empty (0 bytes), not an SRTM .hgt file`);
  if (size !== null) {
    const side = SIZES.find((n) => 2 * n * n === size);
    if (side === undefined) {
      throw new DataSourceUnavailableError(
        `${source.url} is ${size} bytes: not a complete 1201x1201 or 3601x3601 .hgt file (truncated?)`,
      );
    }
    return side;
  }
  const probe = await source.read(2 * SIZES[0] * SIZES[0] - 2, 4, io);
  if (probe.byteLength === 2) return SIZES[0];
  if (probe.byteLength === 4) return SIZES[1];
  throw new DataSourceUnavailableError(
    `${source.url} is not a complete SRTM .hgt file of 1201x1201 or 3601x3601 samples`,
  );
}

function hgtGrid(size: number, lat: number, lon: number, blockHeight: number): RasterGrid {
  const res = 1 / (size - 1);
  // Pixel-is-point: the first sample is centred on (lon, lat + 1); the grid's corner is half a pixel outside.
  return {
    width: size,
    height: size,
    originX: lon - res / 2,
    originY: lat + 1 + res / 2,
    resX: res,
    resY: -res,
    blockWidth: size,
    blockHeight,
  };
}

function hgtRaster(
  source: ByteSource,
  grid: RasterGrid,
  read: (index: number, ctx: ReadContext) => Promise<PixelArray>,
): Raster {
  return {
    url: source.url,
    cacheKey: `${source.url}@${source.version}`,
    grid,
    crs: crsFromEpsg(4326),
    nodata: HGT_NODATA,
    scale: 1,
    offset: 0,
    pixelType: 'Int16',
    pixelIsPoint: true,
    verticalDatum: 'EGM96',
    blocksAcross: 1,
    blocksDown: Math.ceil(grid.height / grid.blockHeight),
    samplesPerPixel: 1,
    blockBytes: grid.blockWidth * grid.blockHeight * 2,
    partialExtraBytes: () => 0,
    // Uncompressed strips, or a zipped tile inflated whole: every row of a block is ready at once.
    readBlock: async (index, ctx) => {
      const data = await read(index, ctx);
      return completeBlock(data, data.length / grid.blockWidth);
    },
  };
}

/** A zipped tile is one block: its DEFLATE stream cannot be entered in the middle. */
async function zippedHgt(source: ByteSource, lat: number, lon: number, io?: ReadIo): Promise<Raster> {
  const header = zipLocalHeader(await source.read(0, ZIP_HEADER_BYTES, io), source.url);
  const size = Math.round(Math.sqrt(header.uncompressedSize / 2));
  if (!SIZES.includes(size) || 2 * size * size !== header.uncompressedSize) {
    throw new DatasetConfigError(`${source.url} does not hold a 1201x1201 or 3601x3601 .hgt grid`);
  }
  return hgtRaster(source, hgtGrid(size, lat, lon, size), async (_index, ctx) => {
    const data = await source.read(header.dataOffset, header.compressedSize, ctx);
    const grid = header.method === 0 ? data : await inflate(data, source.url, header.uncompressedSize);
    if (grid.byteLength !== header.uncompressedSize) {
      throw new DataSourceUnavailableError(
        `${source.url}: the zipped grid is ${grid.byteLength} bytes, its header says ${header.uncompressedSize}`,
      );
    }
    // Raw DEFLATE has no checksum of its own and a stored entry none at all: without the zip's CRC-32 a changed
    // byte would be answered as another height.
    if (crc32(grid) !== header.crc32) {
      throw new DataSourceUnavailableError(
        `${source.url}: the zipped grid is damaged (its CRC-32 does not match the zip header)`,
      );
    }
    return toInt16(grid, ctx);
  });
}

/**
 * A corrupt DEFLATE stream is a broken data layer (502), not a server bug (500). Inflated to at most one byte more
 * than the header says: a stream of far more (a zip bomb: 1.5 MB to 1.5 GiB) is stopped there, not held whole
 * (it took a worker past 6 GB and down).
 */
async function inflate(data: Uint8Array, url: string, expected: number): Promise<Uint8Array> {
  try {
    return new Uint8Array(await inflateRawAsync(data, { maxOutputLength: expected + 1 }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') {
      throw new DataSourceUnavailableError(
        `${url}: the zipped grid inflates to more than the ${expected} bytes its header says`,
        { cause: error },
      );
    }
    throw new DataSourceUnavailableError(`Cannot inflate ${url}: ${String(error)}`, { cause: error });
  }
}

const ZIP_HEADER_BYTES = 1024;

interface ZipEntry {
  method: number;
  crc32: number;
  dataOffset: number;
  compressedSize: number;
  uncompressedSize: number;
}

/** The first entry's local header. Streamed zips (sizes after the data) are refused with a clear message. */
function zipLocalHeader(bytes: Uint8Array, url: string): ZipEntry {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  if (bytes.byteLength < 30 || view.getUint32(0, true) !== 0x04034b50)
    throw new DatasetConfigError(`${url} is not a zip file`);
  const method = view.getUint16(8, true);
  const compressedSize = view.getUint32(18, true);
  const uncompressedSize = view.getUint32(22, true);
  if (method !== 0 && method !== 8)
    throw new DatasetConfigError(`${url}: zip compression method ${method} is not supported`);
  if (compressedSize === 0 || uncompressedSize === 0) {
    throw new DatasetConfigError(
      `${url}: a streamed zip (sizes after the data) cannot be read by range; unzip it`,
    );
  }
  return {
    method,
    crc32: view.getUint32(14, true),
    dataOffset: 30 + view.getUint16(26, true) + view.getUint16(28, true),
    compressedSize,
    uncompressedSize,
  };
}

function toInt16(bytes: Uint8Array, ctx: ReadContext): Int16Array {
  const started = performance.now();
  const copy = new Uint8Array(bytes); // own, aligned buffer
  swapBytes(copy, 2);
  ctx.stats.decodeMs += performance.now() - started;
  return new Int16Array(copy.buffer, 0, copy.byteLength >> 1);
}
