/**
 * LERC blocks (TIFF compression 34887: GDAL's COMPRESS=LERC, LERC_DEFLATE and LERC_ZSTD), decoded as libtiff
 * decodes them, so the heights equal GDAL's:
 * - the LercParameters tag's second value names a codec wrapped around each LERC blob (0 none, 1 DEFLATE,
 *   2 ZSTD), undone first;
 * - the blob is decoded by Esri's `lerc` decoder, which verifies the blob's Fletcher-32 checksum (a corrupt
 *   block fails instead of decoding to other heights);
 * - pixels the blob masks as invalid become NaN in a float raster (libtiff's rule; GDAL writes such a mask for
 *   the NaN pixels of a block), which the reader answers as nodata. An integer block with masked pixels has no
 *   such value (libtiff leaves them undefined), so it is refused rather than answered.
 * Values come back in the machine's byte order and libtiff applies no predictor to LERC, so neither is undone.
 * geotiff.js's own LERC decoder drops the mask (NaN pixels read as 0 m) and needs the LercParameters that the
 * reader's decoder call did not pass (every LERC block failed), hence this module.
 */
import Lerc from 'lerc';
import { inflateAtMost, zstdAtMost } from './bounded-decode';
import { ownBuffer } from './own-buffer';

export const LERC = 34887;
/**
 * The most a block's LERC blob can hold unwrapped: its samples raw, twice (LERC stores a block raw where it does
 * not compress), and 64 KiB for its headers and mask. A wrapped stream inflating to more is refused there.
 */
const blobBound = (layout: LercLayout): number =>
  2 * layout.width * layout.height * (layout.bitsPerSample / 8) + 64 * 1024;

/** LercParameters[1] (libtiff's LERC_ADD_COMPRESSION_*). */
const ADD_COMPRESSIONS: Record<number, string> = { 0: 'none', 1: 'DEFLATE', 2: 'ZSTD' };
const LERC_DEFLATE = 1;
/** LercParameters[1] of blobs wrapped in ZSTD (whose decoder the reader loads when such a file is opened). */
export const LERC_ZSTD = 2;

export interface LercLayout {
  /** The block's pixels across and down (a raster's last strip may be shorter than the others). */
  width: number;
  height: number;
  sampleFormat: number;
  bitsPerSample: number;
}

/**
 * Why a LERC file cannot be read, or null: the tag's wrapping codec must be one libtiff writes, and one sample
 * per pixel (the reader answers band 1; LERC's multi-band and multi-dimension blobs are not decoded here).
 * UInt32 is refused: `lerc` 3.0.0 fails on it (it calls a DataView method that does not exist, `getUInt32`).
 */
export function lercProblem(
  parameters: number[],
  samplesPerPixel: number,
  sampleFormat: number,
  bitsPerSample: number,
): string | null {
  if (parameters.length < 2) return 'has no LercParameters tag';
  if (!(parameters[1] in ADD_COMPRESSIONS)) return `wraps its LERC blobs in unknown codec ${parameters[1]}`;
  if (samplesPerPixel !== 1) return `holds ${samplesPerPixel} samples per pixel in LERC blobs`;
  if (sampleFormat !== 2 && sampleFormat !== 3 && bitsPerSample === 32) return 'holds UInt32 LERC blobs';
  return null;
}

/** The block's samples as bytes in the machine's byte order (a new buffer). */
export async function decodeLercBlock(
  compressed: Uint8Array,
  addCompression: number,
  layout: LercLayout,
): Promise<Uint8Array> {
  const blob = await unwrap(compressed, addCompression, layout);
  // Checked before decoding: `lerc` allocates what the header says (46000 x 46000 took 4 GB; 65536 dimensions of a
  // 128 x 128 block, 2 GB kept in the cache and its first value answered as the height). GDAL refuses both there.
  const shape = lercShape(blob);
  if (shape.width !== layout.width || shape.height !== layout.height || shape.dims !== 1 || shape.more) {
    throw new Error(
      `LERC blob's header says ${shape.more ? 'several bands' : `${shape.dims} dimension(s)`} of ${shape.width}x${shape.height}, one of ${layout.width}x${layout.height} expected`,
    );
  }
  const decoded = Lerc.decode(ownBuffer(blob));
  const expected = lercPixelType(layout.sampleFormat, layout.bitsPerSample);
  if (decoded.pixelType !== expected) {
    throw new Error(`LERC blob holds ${decoded.pixelType} pixels, the file declares ${expected}`);
  }
  if (decoded.width !== layout.width || decoded.height !== layout.height || decoded.pixels.length !== 1) {
    throw new Error(
      `LERC blob holds ${decoded.pixels.length} band(s) of ${decoded.width}x${decoded.height}, one of ${layout.width}x${layout.height} expected`,
    );
  }
  const pixels = decoded.pixels[0];
  if (decoded.mask) maskInvalid(pixels, decoded.mask, layout.sampleFormat === 3);
  return new Uint8Array(pixels.buffer, pixels.byteOffset, pixels.byteLength);
}

async function unwrap(
  compressed: Uint8Array,
  addCompression: number,
  layout: LercLayout,
): Promise<Uint8Array> {
  if (addCompression === LERC_DEFLATE) return inflateAtMost(compressed, blobBound(layout));
  if (addCompression === LERC_ZSTD) return zstdAtMost(compressed, blobBound(layout));
  return compressed;
}

/**
 * A Lerc2 blob's size as its header states it (version 2 has no dimensions: 1), and whether bytes follow the blob
 * (another band's blob). Not a Lerc2 blob, or too short for its header: an error (GDAL writes Lerc2 only).
 */
function lercShape(blob: Uint8Array): { width: number; height: number; dims: number; more: boolean } {
  const view = new DataView(blob.buffer, blob.byteOffset, blob.byteLength);
  const id = String.fromCharCode(...blob.subarray(0, 6));
  if (id !== 'Lerc2 ' || blob.byteLength < 14) throw new Error('the block is not a Lerc2 blob');
  const version = view.getInt32(6, true);
  let at = version >= 3 ? 14 : 10; // the version, then (from 3) the checksum
  if (blob.byteLength < at + (version >= 4 ? 24 : 20))
    throw new Error('the Lerc2 blob is shorter than its header');
  const height = view.getUint32(at, true);
  const width = view.getUint32(at + 4, true);
  at += 8;
  const dims = version >= 4 ? view.getUint32(at, true) : 1;
  if (version >= 4) at += 4;
  const blobSize = view.getInt32(at + 8, true); // after the valid pixel count and the micro-block size
  return {
    width,
    height,
    dims,
    more:
      blobSize > 0 &&
      blobSize < blob.byteLength &&
      blob.byteLength - blobSize >= 6 &&
      String.fromCharCode(...blob.subarray(blobSize, blobSize + 6)) === 'Lerc2 ',
  };
}

function maskInvalid(pixels: Lerc.PixelArray, mask: Uint8Array, float: boolean): void {
  for (let i = 0; i < mask.length; i++) {
    if (mask[i] !== 0) continue;
    if (!float)
      throw new Error('LERC blob masks pixels of an integer raster, which have no nodata value there');
    pixels[i] = NaN;
  }
}

function lercPixelType(sampleFormat: number, bits: number): string {
  if (sampleFormat === 3) return `F${bits}`;
  return `${sampleFormat === 2 ? 'S' : 'U'}${bits}`;
}
