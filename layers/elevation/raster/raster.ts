/** What a raster (one COG / GeoTIFF file) looks like to the sampler, independent of the file format. */
import type { Crs } from '../geo/crs';
import type { ReadContext } from '../types';
import type { BlockRows } from './block-rows';

export type PixelArray =
  Float32Array | Float64Array | Int8Array | Uint8Array | Int16Array | Uint16Array | Int32Array | Uint32Array;

/**
 * The pixel grid in the raster's CRS. `originX/originY` is the outer *corner* of pixel (0,0), already shifted
 * half a pixel for PixelIsPoint rasters (GDAL's convention; geotiff.js does not apply it). Pixel (col,row) has
 * its centre at (originX + (col + 0.5) * resX, originY + (row + 0.5) * resY); resY is negative for north-up.
 */
/** The values each integer pixel type holds (GDAL's range check on a nodata value; a VRT band's type). */
export const INTEGER_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  UInt8: [0, 255],
  Int8: [-128, 127],
  UInt16: [0, 65535],
  Int16: [-32768, 32767],
  UInt32: [0, 4294967295],
  Int32: [-2147483648, 2147483647],
};

export interface RasterGrid {
  readonly width: number;
  readonly height: number;
  readonly originX: number;
  readonly originY: number;
  readonly resX: number;
  readonly resY: number;
  readonly blockWidth: number;
  readonly blockHeight: number;
}

export interface Raster {
  readonly url: string;
  /** url plus the object version the header came from: the block cache's key prefix. */
  readonly cacheKey: string;
  readonly grid: RasterGrid;
  readonly crs: Crs;
  /** The nodata value as stored (rounded to the pixel type, e.g. Math.fround for Float32); NaN is handled always. */
  readonly nodata: number | null;
  /**
   * GDAL's band scale and offset: a stored value v is the height v × scale + offset (1 and 0 for most files).
   * Applied per pixel by the sampler, after the nodata test (nodata is a stored value).
   */
  readonly scale: number;
  readonly offset: number;
  readonly pixelType: string;
  readonly pixelIsPoint: boolean;
  readonly verticalDatum: string | null;
  readonly blocksAcross: number;
  readonly blocksDown: number;
  /** Values per pixel in a decoded block (interleaved bands); the sampler reads band 1. */
  readonly samplesPerPixel: number;
  /** Decoded size of one block in bytes: what the block cache charges for a whole block (and one in flight). */
  readonly blockBytes: number;
  /**
   * Bytes block `index` holds beyond its decoded size while partly decoded (its compressed bytes, kept to resume);
   * 0 for blocks that decode whole. With blockBytes, what a request's block budget charges per block.
   */
  partialExtraBytes(index: number): number;
  /**
   * Fetches one block, ready to decode its rows on demand: compressed blocks decode only as far down as asked
   * (see block-rows), uncompressed ones come whole. No caching here; see block-store.
   */
  readBlock(index: number, ctx: ReadContext): Promise<BlockRows>;
}

/** FLT_EPSILON: GDAL's ARE_REAL_EQUAL measures both float and double bands in float epsilons. */
const FLT_EPSILON = 2 ** -23;

/**
 * Whether a stored value is the band's nodata as GDAL's nodata mask tests it (GDALNoDataMaskBand): exactly on an
 * integer band; on a float band by ARE_REAL_EQUAL(v, nodata), |v − nodata| < FLT_EPSILON·|v + nodata|·2, computed
 * in the band's precision (Float32 in float: a sum past FLT_MAX is infinite, so beside a nodata near −FLT_MAX every
 * value below about −3.5e32 is nodata, as GDAL masks it). NaN is never equal here: a NaN pixel is nodata anyway.
 *
 * @example
 * ```ts
 * assert.equal(isNodataValue(-9999.0001, -9999, 'Float64'), true);
 * assert.equal(isNodataValue(-9999.01, -9999, 'Float64'), false);
 * assert.equal(isNodataValue(Math.fround(-3.4028234663852886e38), Math.fround(-3.40282e38), 'Float32'), true);
 * assert.equal(isNodataValue(-9998, -9999, 'Int16'), false);
 * ```
 */
export function isNodataValue(value: number, nodata: number, pixelType: string): boolean {
  if (value === nodata) return true;
  // Opposite signs (heights above 0 beside a negative nodata, the usual case): |v − nodata| ≥ |v + nodata| and the
  // sum cannot overflow, so never equal; this keeps the test off the hot path (~11 % of hot bilinear points/s).
  if (value * nodata <= 0) return false;
  if (pixelType === 'Float64') return Math.abs(value - nodata) < FLT_EPSILON * Math.abs(value + nodata) * 2;
  if (pixelType !== 'Float32') return false;
  const f = Math.fround;
  return f(Math.abs(f(value - nodata))) < f(f(FLT_EPSILON * Math.abs(f(value + nodata))) * 2);
}

export function pixelCentre(grid: RasterGrid, col: number, row: number): { x: number; y: number } {
  return { x: grid.originX + (col + 0.5) * grid.resX, y: grid.originY + (row + 0.5) * grid.resY };
}

/**
 * The pixel column (or row) holding coordinate `v` as GDAL picks it (gdallocationinfo, OpenTopoData): the floor
 * of the inverse geotransform, computed in GDALInvGeoTransform's order, -origin/res + (1/res)·v. A point exactly
 * on a pixel edge then reads the pixel GDAL reads; (v − origin)/res rounds it to either side (with 1″ pixels,
 * 16 of 36 edge points of a Copernicus crop read the west or north neighbour).
 *
 * @example
 * ```ts
 * assert.equal(gdalPixel(42.94986111111111, 0.0002777777777777778, 42.97486111111111), 90);
 * assert.equal(Math.floor((42.97486111111111 - 42.94986111111111) / 0.0002777777777777778), 89);
 * ```
 */
export function gdalPixel(origin: number, res: number, v: number): number {
  return Math.floor(-origin / res + (1 / res) * v);
}

/** Whether (x, y) lies inside the raster's outer edges (corner-based extent, as GDAL reports it). */
export function containsPoint(grid: RasterGrid, x: number, y: number): boolean {
  const fx = (x - grid.originX) / grid.resX;
  const fy = (y - grid.originY) / grid.resY;
  return fx >= 0 && fx <= grid.width && fy >= 0 && fy <= grid.height;
}
