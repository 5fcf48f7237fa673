/**
 * Opens a (Cloud-Optimized) GeoTIFF with geotiff.js for its header and geo keys, then reads exactly one range
 * request per block itself: tile offsets come from the parsed IFD, bytes from the ByteSource. DEFLATE and LZW
 * blocks decode row by row on demand (block-rows: only as far down as the points need, resumable); ZSTD and
 * PACKBITS decode whole, into at most the block (bounded-decode), LERC whole through lerc-block. Predictors and byte
 * order are applied here, on whole rows. Codecs and sample types it cannot read are refused when a file opens.
 *
 * A cold point in a random row of a 1024x1024 Float32 DEFLATE+PREDICTOR=3 block costs the inflate of the rows
 * above it (half a block on average) and the predictor of its window's rows: 4.3-5.7 ms CPU against 17.8-22.4 ms
 * for the whole block, 73-100% of the limit (node:zlib inflates 426-547 MB/s of output here, the float predictor
 * runs at 483-878 MB/s; `npm run bench`, eight runs on 2 shared cores).
 */
import { GeoTIFF, getDecoder } from 'geotiff';
import type { ByteSource, ReadIo } from '../data/byte-source';
import {
  DatasetConfigError,
  DataSourceUnavailableError,
  ElevationError,
  SourceNotFoundError,
  UndecodableBlockError,
} from '../errors';
import { crsFromGeoKeys } from '../geo/crs';
import { packbitsAtMost, zstdAtMost, zstdDecoder } from './bounded-decode';
import { bandRoles, type BandRoles } from './gdal-metadata';
import { cplAtofM, gdalNodataValue } from './gdal-nodata';
import type { ReadContext } from '../types';
import { completeBlock, PartialBlock, type BlockRows, type ResumableDecoder } from './block-rows';
import { HeaderSource } from './header-source';
import { decodeLercBlock, LERC, LERC_ZSTD, lercProblem } from './lerc-block';
import { ownBuffer } from './own-buffer';
import { swapBytes, undoFloatingPointPredictor, undoHorizontalPredictor } from './predictor';
import { INTEGER_RANGES, type PixelArray, type Raster, type RasterGrid } from './raster';
import { ResumableInflate } from './resumable-inflate';
import { ResumableLzw } from './resumable-lzw';

const PIXEL_IS_POINT = 2;
const LZW = 5;
const DEFLATE = [8, 32946];
/**
 * The TIFF codecs the reader decodes, each pinned against GDAL's read (test/fixtures/decode and codecs, the
 * realdata suite). All are lossless (LERC when written with MAX_Z_ERROR=0; a lossy LERC file still decodes to GDAL's
 * values). Anything else is refused when the file is opened, naming the codec.
 */
const ZSTD = 50000;
const PACKBITS = 32773;
/** The largest decoded block read: a 4096 x 4096 Float64 tile, or a strip of 32 Mpx of Float64 (a whole raster in one strip). */
export const MAX_BLOCK_BYTES = 256 * 1024 * 1024;
const SUPPORTED_CODECS: Record<number, string> = {
  1: 'none',
  [LZW]: 'LZW',
  8: 'DEFLATE',
  32946: 'DEFLATE',
  [PACKBITS]: 'PACKBITS',
  [LERC]: 'LERC',
  [ZSTD]: 'ZSTD',
};
/** Codecs GDAL writes that the reader refuses, by name for the message. */
const REFUSED_CODECS: Record<number, string> = {
  6: 'old-style JPEG',
  7: 'JPEG (lossy; JPEG decoders differ from libjpeg by a unit here and there)',
  34925: 'LZMA',
  50001: 'WEBP',
  50002: 'JPEG-XL',
};
const VERTICAL_DATUMS: Record<number, string> = {
  3855: 'EGM2008',
  5773: 'EGM96',
  5703: 'NAVD88',
  5730: 'EVRF2000',
  5621: 'EVRF2007',
};

interface Decoder {
  decode(buffer: ArrayBuffer): Promise<ArrayBufferLike>;
}

export interface CogOptions {
  /** Serve rows as soon as they are inflated; false: inflate (and checksum) the whole block first. */
  partialDecode: boolean;
  /**
   * How often this location's header was read again after one of its blocks did not decode: part of the blocks'
   * cache key, so blocks decoded with a header since found suspect are never served again.
   */
  generation?: number;
}

export async function openCogRaster(
  source: ByteSource,
  prefetchBytes: number,
  io?: ReadIo,
  options: CogOptions = { partialDecode: false },
): Promise<Raster> {
  let header: Header;
  try {
    header = await readHeader(source, prefetchBytes, io);
  } catch (error) {
    // An empty file (the store says its size is 0, so no retry or fault on the way explains it): a dataset file
    // an operator must replace, a 500 saying so, not a 502 telling the client to retry.
    if (source.size === 0) {
      throw new DatasetConfigError(`${source.url} is empty (0 bytes), not a GeoTIFF`, { cause: error });
    }
    // Bytes that are no TIFF at all where a raster is named (an HTML error page, a text file): the data store
    // holds a wrong file, a 502 as for any other file it holds that cannot be read (one cut short, one empty).
    if (error instanceof Error && /byte order|magic number/i.test(error.message)) {
      throw new DataSourceUnavailableError(`${source.url} is not a GeoTIFF: ${error.message}`, {
        cause: error,
      });
    }
    // A directory past the file's end, a tag table cut short: geotiff throws RangeError and the like.
    throw unreadableHeader(source.url, error);
  }
  const { tiff, image, tiled, offsets, byteCounts, bits, sampleFormat, planar, predictor, compression } =
    header;
  refuseSampleType(sampleFormat, bits, source.url);
  refuseCodec(header, image.getSamplesPerPixel(), source.url);
  const roles = bandRoles(header.gdalMetadata, source.url);
  const { scale, offset } = readScale(roles, source.url);
  refuseNotMetres(roles, header.geoKeys, source.url);
  refuseMasks(header, source.url);
  refuseBlocksPastEnd(offsets, byteCounts, source);
  const samplesPerPixel = planar === 2 ? 1 : image.getSamplesPerPixel();
  const bytesPerSample = bits[0] / 8;
  const pixelType = pixelTypeName(sampleFormat, bits[0]);

  const geoKeys = header.geoKeys;
  const pixelIsPoint = Number(geoKeys.GTRasterTypeGeoKey) === PIXEL_IS_POINT;
  const grid = readGrid(image, pixelIsPoint, source.url);
  /** DEFLATE and LZW blocks decode row by row (resumable-inflate, resumable-lzw); the other codecs whole. */
  const rowByRow = DEFLATE.includes(compression) || compression === LZW;
  // geotiff's registry decodes only what neither the resumable decoders, lerc-block nor bounded-decode (ZSTD,
  // PACKBITS) do: uncompressed blocks.
  if (compression === ZSTD || (compression === LERC && header.lercParameters[1] === LERC_ZSTD))
    await zstdDecoder();
  const decoder =
    !rowByRow && compression !== LERC && compression !== ZSTD && compression !== PACKBITS
      ? ((await getDecoder(compression, {
          tileWidth: grid.blockWidth,
          tileHeight: grid.blockHeight,
          predictor: 1, // predictors are undone below, after byte-order fixes
          bitsPerSample: bits,
          planarConfiguration: planar,
        })) as unknown as Decoder)
      : null;
  const blocksAcross = Math.ceil(grid.width / grid.blockWidth);
  const blocksDown = Math.ceil(grid.height / grid.blockHeight);

  const rowBytes = grid.blockWidth * samplesPerPixel * bytesPerSample;
  // A block is decoded whole into one buffer (or row by row into one): 65536 x 65536 tiles asked for 8 GiB and
  // failed each request with a bare 500 (a helper's probe). Refused at open, naming the file and the way out.
  // A tile is decoded (or filled, when sparse) whole; a strip only as far as the raster goes (RowsPerStrip is often
  // 2^32 - 1: one strip).
  const decodedBlockBytes = rowBytes * (tiled ? grid.blockHeight : Math.min(grid.blockHeight, grid.height));
  if (decodedBlockBytes > MAX_BLOCK_BYTES) {
    throw new DatasetConfigError(
      `${source.url} has blocks of ${grid.blockWidth} x ${grid.blockHeight} pixels (${Math.round(decodedBlockBytes / 1024 / 1024)} MiB decoded), over the ${MAX_BLOCK_BYTES / 1024 / 1024} MiB the reader decodes at once; rewrite it tiled (npm run dem:optimize, or gdal_translate -co TILED=YES).`,
    );
  }
  /**
   * Rows block `index` holds: a striped raster's last strip may hold fewer than the block height. A strip spans
   * the raster's width (one block across), so its index is its strip row.
   */
  const rowsOf = (index: number): number =>
    tiled ? grid.blockHeight : Math.min(grid.blockHeight, grid.height - index * grid.blockHeight);
  /** In place on whole freshly decoded rows: byte order first (predictor 3 handles its own), then predictor. */
  const prepareRows = (rows: Uint8Array): void => {
    if (!tiff.littleEndian && predictor !== 3) swapBytes(rows, bytesPerSample);
    if (predictor === 2) undoHorizontalPredictor(rows, grid.blockWidth, bytesPerSample, samplesPerPixel);
    if (predictor === 3) {
      const out = undoFloatingPointPredictor(rows, grid.blockWidth, bytesPerSample, samplesPerPixel);
      if (out !== rows) rows.set(out);
    }
  };
  const view = (bytes: Uint8Array): PixelArray => typedView(bytes, sampleFormat, bits[0]);

  /**
   * Other codecs: the whole block at once, through geotiff's decoder registry (LERC: lerc-block). libtiff applies
   * no predictor to LERC, but does swap a big-endian file's samples after decoding (its LERC blobs hold them
   * swapped), so only the byte order is fixed there.
   */
  const decodeWhole = async (compressed: Uint8Array, index: number): Promise<PixelArray> => {
    const lerc = compression === LERC;
    const bytes = lerc
      ? await decodeLercBlock(compressed, header.lercParameters[1], {
          width: grid.blockWidth,
          height: rowsOf(index),
          sampleFormat,
          bitsPerSample: bits[0],
        })
      : compression === ZSTD
        ? await zstdAtMost(compressed, rowsOf(index) * rowBytes)
        : compression === PACKBITS
          ? packbitsAtMost(compressed, rowsOf(index) * rowBytes)
          : new Uint8Array(await registryDecoder().decode(ownBuffer(compressed)));
    // A block that inflates to fewer bytes than its rows need is corrupt: never sample past its end.
    const needed = rowsOf(index) * rowBytes;
    if (bytes.byteLength < needed) {
      throw new Error(`block ${index} decodes to ${bytes.byteLength} bytes, ${needed} expected`);
    }
    const rows = bytes.subarray(0, needed);
    if (!lerc) prepareRows(rows);
    else if (!tiff.littleEndian) swapBytes(rows, bytesPerSample);
    return view(rows);
  };

  const registryDecoder = (): Decoder => {
    if (!decoder) throw new Error(`compression ${compression} has no whole-block decoder`);
    return decoder;
  };

  const resumable = (compressed: Uint8Array, size: number): ResumableDecoder | null => {
    if (DEFLATE.includes(compression)) return new ResumableInflate(compressed, size);
    if (compression === LZW) return new ResumableLzw(compressed, size);
    return null;
  };

  const directory = image.fileDirectory;
  const gdalNodata = directory.hasTag('GDAL_NODATA')
    ? gdalNodataValue(String(directory.getValue('GDAL_NODATA')))
    : null;
  const nodata = readNodata(gdalNodata, pixelType);
  // GDAL fills an empty block with the nodata value, NaN included (which `nodata` holds as null), else 0; on an
  // integer band as GDALCopyWords converts it: rounded half away from zero (-3.5 fills -4, which the mask's truncated
  // -3 does not mask) and saturated (32768 fills 32767 on Int16, where a typed array's fill would wrap to -32768).
  const range = INTEGER_RANGES[pixelType];
  const sparseFill =
    gdalNodata === null
      ? 0
      : Number.isNaN(gdalNodata)
        ? NaN
        : range
          ? Math.min(range[1], Math.max(range[0], Math.sign(gdalNodata) * Math.round(Math.abs(gdalNodata))))
          : (nodata ?? 0);
  return {
    url: source.url,
    // The version read with the header: blocks of a replaced file never mix with blocks of its successor.
    cacheKey: `${source.url}@${source.version}${options.generation ? `~${options.generation}` : ''}`,
    grid,
    crs: crsOfFile(geoKeys, source.url),
    nodata,
    scale,
    offset,
    pixelType,
    pixelIsPoint,
    verticalDatum: VERTICAL_DATUMS[Number(geoKeys.VerticalCSTypeGeoKey)] ?? null,
    blocksAcross,
    blocksDown,
    samplesPerPixel,
    blockBytes: grid.blockWidth * grid.blockHeight * samplesPerPixel * bytesPerSample,
    partialExtraBytes: (index) => (rowByRow ? (byteCounts[index] ?? 0) : 0),
    async readBlock(index: number, ctx: ReadContext): Promise<BlockRows> {
      const length = byteCounts[index];
      if (index < 0 || index >= blocksAcross * blocksDown)
        throw new RangeError(`Block ${index} outside ${source.url}`);
      const rowCount = rowsOf(index);
      if (!length)
        return completeBlock(sparseBlock(sampleFormat, bits[0], grid, samplesPerPixel, sparseFill), rowCount);
      const compressed = await source.read(offsets[index], length, ctx);
      if (compressed.byteLength < length) {
        // The object ends before the block the header points at: the header is suspect (UndecodableBlockError).
        throw new UndecodableBlockError(
          source.url,
          `Short read of block ${index} of ${source.url}: ${compressed.byteLength}/${length} bytes`,
        );
      }
      const partial = resumable(compressed, rowCount * rowBytes);
      if (partial) {
        return new PartialBlock({
          view,
          rowBytes,
          rowCount,
          decoder: partial,
          prepareRows,
          wholeFirst: !options.partialDecode,
          failure: (error) => undecodable(source.url, index, error),
        });
      }
      return ctx.trace.span('decode', async (annotate) => {
        const started = performance.now();
        try {
          return completeBlock(await decodeWhole(compressed, index), rowCount);
        } catch (error) {
          throw undecodable(source.url, index, error);
        } finally {
          const ms = performance.now() - started;
          ctx.stats.decodeMs += ms;
          annotate('ms', Math.round(ms * 1000) / 1000);
        }
      });
    },
  };
}

interface Header {
  tiff: GeoTIFF;
  image: Image;
  tiled: boolean;
  offsets: number[];
  byteCounts: number[];
  bits: number[];
  sampleFormat: number;
  planar: number;
  predictor: number;
  compression: number;
  /** LERC files: [LERC version, codec wrapped around each blob]; empty otherwise. */
  lercParameters: number[];
  geoKeys: Record<string, unknown>;
  /** The GDAL_METADATA tag's text (band 1's scale, offset and unit: gdal-metadata.ts); null without one. */
  gdalMetadata: string | null;
  /** ExtraSamples: what each sample after the colour ones is (1 associated, 2 unassociated alpha). */
  extraSamples: number[];
  /** Whether a later directory is a full-resolution transparency mask (GDAL's internal mask). */
  internalMask: boolean;
}

/** The first image's directory: every tag the reader needs, with TIFF's defaults for the optional ones. */
async function readHeader(source: ByteSource, prefetchBytes: number, io?: ReadIo): Promise<Header> {
  const tiff = await GeoTIFF.fromSource(new HeaderSource(source, prefetchBytes, io) as never);
  const image = await tiff.getImage(0);
  const directory = image.fileDirectory;
  const tiled = !directory.hasTag('StripOffsets');
  return {
    tiff,
    image,
    tiled,
    offsets: await loadNumbers(directory, tiled ? TAG.tileOffsets : TAG.stripOffsets, tiff.littleEndian),
    byteCounts: await loadNumbers(
      directory,
      tiled ? TAG.tileByteCounts : TAG.stripByteCounts,
      tiff.littleEndian,
    ),
    bits: await loadNumbers(directory, TAG.bitsPerSample, tiff.littleEndian),
    sampleFormat: (await loadNumbers(directory, TAG.sampleFormat, tiff.littleEndian))[0] ?? 1,
    planar: Number((await directory.loadValue('PlanarConfiguration')) ?? 1),
    predictor: Number((await directory.loadValue('Predictor')) ?? 1),
    compression: Number((await directory.loadValue('Compression')) ?? 1),
    lercParameters: await loadNumbers(directory, TAG.lercParameters, tiff.littleEndian),
    geoKeys: (image.getGeoKeys() ?? {}) as Record<string, unknown>,
    gdalMetadata: directory.hasTag('GDAL_METADATA')
      ? String(await directory.loadValue('GDAL_METADATA'))
      : null,
    extraSamples: await loadNumbers(directory, TAG.extraSamples, tiff.littleEndian),
    internalMask: await hasInternalMask(tiff, image),
  };
}

/** The numeric array tags read through `loadNumbers`. */
const TAG = {
  bitsPerSample: 258,
  stripOffsets: 273,
  stripByteCounts: 279,
  tileOffsets: 324,
  tileByteCounts: 325,
  extraSamples: 338,
  sampleFormat: 339,
  lercParameters: 50674,
} as const;

/** What geotiff.js keeps of an array tag it has not read yet (imagefiledirectory.js, DeferredArray). */
interface DeferredArray {
  source: { fetch(slices: { offset: number; length: number }[]): Promise<ArrayBuffer[]> };
  arrayOffset: number;
  fieldType: number;
  length: number;
}

/** TIFF field types of unsigned integer arrays, by byte size (BYTE, SHORT, LONG, LONG8, IFD, IFD8). */
const UNSIGNED_SIZES: Record<number, number> = { 1: 1, 3: 2, 4: 4, 16: 8, 13: 4, 18: 8 };

/**
 * An array tag's values (empty when the file has none). An array past the header's first read is loaded later by
 * geotiff.js (a DeferredArray), which reads it little-endian whatever the file's byte order (3.0.5): a big-endian
 * file with more than ~130 blocks had every block looked for at a byte-swapped offset, answering heights from
 * other bytes or refusing the file as cut short. Such an array is read here, in the file's byte order.
 */
async function loadNumbers(
  directory: Image['fileDirectory'],
  tag: number,
  littleEndian: boolean,
): Promise<number[]> {
  if (!directory.hasTag(tag)) return [];
  const deferred = (
    directory as unknown as { deferredArrays?: Map<number, DeferredArray> }
  ).deferredArrays?.get(tag);
  if (littleEndian || deferred === undefined) return toNumbers(await directory.loadValue(tag));
  const size = UNSIGNED_SIZES[deferred.fieldType];
  if (size === undefined)
    throw new Error(`TIFF tag ${tag} has field type ${deferred.fieldType}, not an unsigned integer`);
  const [bytes] = await deferred.source.fetch([
    { offset: deferred.arrayOffset, length: size * deferred.length },
  ]);
  const view = new DataView(bytes);
  const values = new Array<number>(deferred.length);
  for (let i = 0; i < deferred.length; i++) {
    const at = i * size;
    values[i] =
      size === 1
        ? view.getUint8(at)
        : size === 2
          ? view.getUint16(at, false)
          : size === 4
            ? view.getUint32(at, false)
            : Number(view.getBigUint64(at, false));
  }
  return values;
}

/** Directories looked at for a mask: GDAL writes one right after its image's, before or among the overviews'. */
const MAX_DIRECTORIES = 64;
/** NewSubfileType bits: a reduced-resolution image (an overview), a transparency mask. */
const REDUCED = 1;
const MASK = 4;

/**
 * Whether the file holds a full-resolution mask (NewSubfileType with the mask bit and not the overview bit, as
 * `GDAL_TIFF_INTERNAL_MASK` and the COG driver write it), which GDAL applies as the band's valid pixels. Reads the
 * directories after the first (in the header's prefetched bytes for a COG), at most MAX_DIRECTORIES: a chain that
 * loops back stops there.
 */
async function hasInternalMask(tiff: GeoTIFF, first: Image): Promise<boolean> {
  let previous = first;
  for (let index = 1; index < MAX_DIRECTORIES; index++) {
    if (previous.fileDirectory.nextIFDByteOffset === 0) return false; // the last directory
    const directory = (previous = await tiff.getImage(index)).fileDirectory;
    const type = Number((await directory.loadValue('NewSubfileType')) ?? 0); // TIFF's default: a full image
    if ((type & MASK) !== 0 && (type & REDUCED) === 0) return true;
  }
  return false;
}

/** Alpha samples in ExtraSamples (1 associated, 2 unassociated). */
const ALPHA = new Set([1, 2]);

/**
 * Pixels GDAL reads as invalid through a mask the reader does not apply, refused at open rather than answered as
 * heights: an internal mask (GDAL's -mask, GDAL_TIFF_INTERNAL_MASK), and an alpha band of a Byte or UInt16 file
 * (GDAL takes those as the mask of the other bands; it ignores an alpha band of other types, and so does the reader).
 * Before, a masked-out void answered its stored value (-32768 m) as a height.
 */
function refuseMasks(header: Header, url: string): void {
  const fix =
    'write nodata where it is invalid instead: gdalwarp -dstnodata <value> IN OUT applies the mask (then gdal_translate -b 1 OUT OUT2 drops an alpha band).';
  if (header.internalMask) {
    throw new DatasetConfigError(
      `${url} has an internal mask of valid pixels, which the reader does not apply; ${fix}`,
    );
  }
  const bits = header.bits[0];
  const alphaTyped = header.sampleFormat === 1 && (bits === 8 || bits === 16);
  if (alphaTyped && header.extraSamples.some((kind) => ALPHA.has(kind))) {
    throw new DatasetConfigError(
      `${url} has an alpha band, which GDAL reads as the mask of valid pixels and the reader does not apply; ${fix}`,
    );
  }
}

/** Bits per sample the reader reads, by TIFF SampleFormat (1 unsigned, 2 signed, 3 IEEE float). */
const SAMPLE_BITS: Record<number, number[]> = { 1: [8, 16, 32], 2: [8, 16, 32], 3: [32, 64] };
const SAMPLE_FORMAT_NAMES: Record<number, string> = {
  1: 'unsigned integer',
  2: 'signed integer',
  3: 'float',
  4: 'untyped',
  5: 'complex integer',
  6: 'complex float',
};

/**
 * Samples the reader cannot read as heights are refused at open, naming them: complex numbers (read as integers
 * they would answer wrong heights), Float16 and odd integer widths (GDAL's NBITS=16/12/...), 64-bit integers, and
 * bands whose samples differ in size. Before, these failed on every request (500/502), or answered the wrong
 * height (a CInt16 band read as UInt32: -5 m became 65,531 m).
 */
function refuseSampleType(sampleFormat: number, bits: number[], url: string): void {
  const kind = SAMPLE_FORMAT_NAMES[sampleFormat] ?? `SampleFormat ${sampleFormat}`;
  const sizes = new Set(bits);
  if (sizes.size === 1 && SAMPLE_BITS[sampleFormat]?.includes(bits[0])) return;
  const what =
    sizes.size === 1
      ? `${bits[0]}-bit ${kind} samples`
      : `${kind} samples of mixed sizes (${bits.join(', ')} bits)`;
  throw new DatasetConfigError(
    `${url} holds ${what}, which the reader does not read as heights (it reads 8, 16 and 32-bit integers, 32 and 64-bit floats); convert it, e.g. gdal_translate -ot Float32 -co NBITS=32.`,
  );
}

/** A codec the reader does not decode (or a LERC file it cannot) is a configuration error, named at open. */
function refuseCodec(header: Header, samplesPerPixel: number, url: string): void {
  const { compression } = header;
  if (!(compression in SUPPORTED_CODECS)) {
    const name = REFUSED_CODECS[compression] ?? `TIFF compression ${compression}`;
    const known = [...new Set(Object.values(SUPPORTED_CODECS))].join(', ');
    throw new DatasetConfigError(
      `${url} is compressed with ${name}, which the reader does not decode (it reads ${known}); recompress it losslessly, e.g. with npm run dem:optimize or gdal_translate -co COMPRESS=DEFLATE.`,
    );
  }
  const problem =
    compression === LERC
      ? lercProblem(header.lercParameters, samplesPerPixel, header.sampleFormat, header.bits[0])
      : null;
  if (problem) {
    throw new DatasetConfigError(
      `${url} ${problem}, which the reader does not decode; recompress it losslessly, e.g. with npm run dem:optimize.`,
    );
  }
}

/**
 * GDAL's band scale and offset (`<Item name="SCALE" sample="0" role="scale">`, written by `gdal_translate
 * -a_scale/-a_offset`): a height is the stored value × scale + offset, which gdallocationinfo prints as its
 * "Descaled Value". Values that are no finite number, and a scale of 0 (every pixel the same height), are refused:
 * applied, they would answer heights the file does not hold.
 */
function readScale(metadata: BandRoles, url: string): { scale: number; offset: number } {
  const item = (name: 'SCALE' | 'OFFSET', identity: number): number => {
    const text = metadata[name];
    if (text === undefined) return identity;
    // As GDAL reads it (CPLAtofM: '0,5' is 0.5, '10 m' is 10, '0b11' is 0, not Number()'s 3).
    const value = cplAtofM(text);
    if (!Number.isFinite(value) || (name === 'SCALE' && value === 0)) {
      throw new DatasetConfigError(
        `${url} declares a band ${name.toLowerCase()} of '${String(text)}', which turns no stored value into a height; fix or remove it (gdal_edit.py -scale 1 -offset 0, if the values are heights as stored).`,
      );
    }
    return value;
  };
  return { scale: item('SCALE', 1), offset: item('OFFSET', 0) };
}

/** EPSG's metre, the unit of every answered height. */
const METRE_CODE = 9001;
const METRE_NAMES = new Set(['', 'm', 'metre', 'meter', 'metres', 'meters']);

/**
 * Heights in feet (a band UNITTYPE of `ft`, or a VerticalUnitsGeoKey of 9002/9003) would be answered as metres,
 * 3.28 times too high: such a file is refused, naming its unit.
 */
function refuseNotMetres(metadata: BandRoles, geoKeys: Record<string, unknown>, url: string): void {
  const unit = metadata.UNITTYPE === undefined ? '' : String(metadata.UNITTYPE).trim();
  const code = geoKeys.VerticalUnitsGeoKey === undefined ? METRE_CODE : Number(geoKeys.VerticalUnitsGeoKey);
  const metreName = METRE_NAMES.has(unit.toLowerCase());
  if (metreName && code === METRE_CODE) return;
  throw new DatasetConfigError(
    `${url} stores its heights in ${metreName ? `the unit of EPSG code ${code}` : `'${unit}'`}, not metres; convert it first (gdal_calc.py or gdal_translate -scale to metres, then -a_units m).`,
  );
}

/**
 * A file whose blocks reach past its end is cut short or still being written: refused whole (502, as any file cut
 * short), not read where its blocks happen to lie within it. A tile rewritten in place (`rsync --inplace`,
 * `dd conv=notrunc`) holds the new header over the old blocks until the write ends, and its uncompressed blocks
 * answered heights neither file holds (a probe: 738 where the old tile held 608 and the new 510), as GDAL reads
 * them too. A rewrite of the same size is not caught by this; no checksum covers uncompressed blocks.
 */
function refuseBlocksPastEnd(
  offsets: readonly number[],
  byteCounts: readonly number[],
  source: ByteSource,
): void {
  const size = source.size;
  if (size === null) return;
  let end = 0;
  for (let i = 0; i < offsets.length; i++)
    if (byteCounts[i] > 0) end = Math.max(end, offsets[i] + byteCounts[i]);
  if (end > size) {
    throw new DataSourceUnavailableError(
      `${source.url} is cut short: its blocks reach byte ${end} but it holds ${size} bytes (a copy still in progress, or a truncated file)`,
    );
  }
}

function unreadableHeader(url: string, error: unknown): Error {
  if (error instanceof ElevationError || error instanceof SourceNotFoundError) return error;
  return new DataSourceUnavailableError(`Cannot decode the header of ${url}: ${String(error)}`, {
    cause: error,
  });
}

/** A block that cannot be decoded: the dataset reads the header again once (UndecodableBlockError). */
function undecodable(url: string, index: number, error: unknown): Error {
  if (error instanceof ElevationError || error instanceof SourceNotFoundError) return error;
  return new UndecodableBlockError(url, `Cannot decode the block ${index} of ${url}: ${String(error)}`, {
    cause: error,
  });
}

type Image = Awaited<ReturnType<GeoTIFF['getImage']>>;

function readGrid(image: Image, pixelIsPoint: boolean, url: string): RasterGrid {
  const directory = image.fileDirectory;
  const transform = directory.hasTag('ModelTransformation')
    ? toNumbers(directory.getValue('ModelTransformation'))
    : null;
  if (transform && (transform[1] !== 0 || transform[4] !== 0)) {
    throw new DatasetConfigError(
      `${url} is rotated (ModelTransformation with shear); only north-up rasters are supported: gdalwarp it to a north-up grid.`,
    );
  }
  const { originX, originY, resX, resY } = georeference(directory, transform, url);
  // PixelIsPoint: the tiepoint is the centre of pixel (0,0); move it to the pixel's corner like GDAL does.
  const shift = pixelIsPoint ? 0.5 : 0;
  return {
    width: image.getWidth(),
    height: image.getHeight(),
    originX: originX - shift * resX,
    originY: originY - shift * resY,
    resX,
    resY,
    blockWidth: image.getTileWidth(),
    blockHeight: image.getTileHeight(),
  };
}

/**
 * The raster's corner and pixel size, by the GeoTIFF spec (as GDAL reads it): ModelPixelScale with a
 * ModelTiepoint at any raster position (I, J), or a north-up ModelTransformation. Not geotiff.js's
 * getOrigin()/getResolution(): they ignore a tiepoint's (I, J) and give a ModelTransformation's pixel height the
 * wrong sign, which put every point outside the raster (null heights) when a file is georeferenced that way.
 */
function georeference(
  directory: Image['fileDirectory'],
  transform: number[] | null,
  url: string,
): { originX: number; originY: number; resX: number; resY: number } {
  const scale = directory.hasTag('ModelPixelScale') ? toNumbers(directory.getValue('ModelPixelScale')) : [];
  const tie = directory.hasTag('ModelTiepoint') ? toNumbers(directory.getValue('ModelTiepoint')) : [];
  let placed: { originX: number; originY: number; resX: number; resY: number };
  if (scale.length >= 2 && tie.length >= 6) {
    const resX = scale[0];
    // A negative Y scale is read as GDAL reads it (GTIFF_HONOUR_NEGATIVE_SCALEY off): meant north-up. Read as
    // written, its rows ran north from the tiepoint and every point answered null.
    const resY = -Math.abs(scale[1]);
    placed = { originX: tie[3] - tie[0] * resX, originY: tie[4] - tie[1] * resY, resX, resY };
  } else if (transform && transform.length >= 16) {
    // the spec's 4 x 4 matrix
    placed = { originX: transform[3], originY: transform[7], resX: transform[0], resY: transform[5] };
  } else {
    throw new DatasetConfigError(
      `${url} has no georeferencing (ModelPixelScale with ModelTiepoint, or ModelTransformation).`,
    );
  }
  // A pixel size of 0 or one that is no number places every pixel nowhere: every point answered null as success.
  const { originX, originY, resX, resY } = placed;
  if (![originX, originY, resX, resY].every(Number.isFinite) || resX === 0 || resY === 0) {
    throw new DatasetConfigError(
      `${url} has unusable georeferencing (origin ${originX}, ${originY}; pixel size ${resX} x ${resY}); assign it with gdal_edit.py -a_ullr or -a_gt.`,
    );
  }
  return placed;
}

/** The raster's CRS; a refusal names the file (a tiled dataset's start-up error named only the dataset). */
function crsOfFile(geoKeys: Record<string, unknown>, url: string): ReturnType<typeof crsFromGeoKeys> {
  try {
    return crsFromGeoKeys(geoKeys);
  } catch (error) {
    if (error instanceof DatasetConfigError)
      throw new DatasetConfigError(`${url}: ${error.message}`, { cause: error });
    throw error;
  }
}

/**
 * The integer type GDAL 3.6's nodata mask reads each integer band in (GDALNoDataMaskBand's work type), whose range
 * a nodata value must fall in: Int16 in Int32, UInt16 in UInt32. So -32768.4 on an Int16 band masks -32768 and
 * 65535.5 on a UInt16 band masks 65535, while 255.9 on a Byte band masks nothing.
 */
const MASK_WORK_RANGES: Readonly<Record<string, readonly [number, number]>> = {
  UInt8: INTEGER_RANGES.UInt8,
  Int8: INTEGER_RANGES.Int8,
  UInt16: INTEGER_RANGES.UInt32,
  UInt32: INTEGER_RANGES.UInt32,
  Int16: INTEGER_RANGES.Int32,
  Int32: INTEGER_RANGES.Int32,
};

/**
 * The stored value that marks nodata, as GDAL's nodata mask compares it (GDALNoDataMaskBand): on an integer band a
 * value inside its work type's range (MASK_WORK_RANGES) is truncated toward zero (1.5 marks the pixels holding 1;
 * GDAL writes such values with gdal_edit.py or its API), one outside marks no pixel; a Float32 band compares the
 * value rounded to Float32 (within ARE_REAL_EQUAL: raster.ts, isNodataValue).
 */
function readNodata(value: number | null, pixelType: string): number | null {
  if (value === null || Number.isNaN(value)) return null; // NaN is always treated as nodata
  // GDAL writes the Float32 nodata as a decimal string; compare against the value as stored in the file.
  if (pixelType === 'Float32') return Math.fround(value);
  const range = MASK_WORK_RANGES[pixelType];
  if (!range) return value;
  return value >= range[0] && value <= range[1] ? Math.trunc(value) + 0 : null; // + 0: -0 becomes 0
}

function pixelTypeName(sampleFormat: number, bits: number): string {
  if (sampleFormat === 3) return bits === 64 ? 'Float64' : 'Float32';
  return `${sampleFormat === 2 ? 'Int' : 'UInt'}${bits}`;
}

function typedView(bytes: Uint8Array, sampleFormat: number, bits: number): PixelArray {
  const { buffer, byteOffset } = bytes;
  const count = bytes.byteLength / (bits / 8);
  if (sampleFormat === 3)
    return bits === 64
      ? new Float64Array(buffer, byteOffset, count)
      : new Float32Array(buffer, byteOffset, count);
  const signed = sampleFormat === 2;
  switch (bits) {
    case 8:
      return signed ? new Int8Array(buffer, byteOffset, count) : bytes;
    case 16:
      return signed ? new Int16Array(buffer, byteOffset, count) : new Uint16Array(buffer, byteOffset, count);
    case 32:
      return signed ? new Int32Array(buffer, byteOffset, count) : new Uint32Array(buffer, byteOffset, count);
    default:
      throw new DatasetConfigError(`Unsupported sample size: ${bits} bits`);
  }
}

/** GDAL reads a block with no bytes (sparse COG) as nodata, or 0 when the raster has no nodata value. */
function sparseBlock(
  sampleFormat: number,
  bits: number,
  grid: RasterGrid,
  spp: number,
  fill: number,
): PixelArray {
  const bytes = new Uint8Array(grid.blockWidth * grid.blockHeight * spp * (bits / 8));
  const view = typedView(bytes, sampleFormat, bits);
  view.fill(fill);
  return view;
}

function toNumbers(value: unknown): number[] {
  if (value === undefined || value === null) return [];
  if (typeof value === 'number' || typeof value === 'bigint') return [Number(value)];
  return Array.from(value as ArrayLike<number | bigint>, Number);
}
