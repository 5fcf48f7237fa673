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
  if (addCompression === 1) return inflateAtMost(compressed, blobBound(layout));
  if (addCompression === 2) return zstdAtMost(compressed, blobBound(layout));
  return compressed;
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
