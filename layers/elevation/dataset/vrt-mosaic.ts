/**
 * GDAL VRT mosaics, the form `gdalbuildvrt` writes: a `VRTDataset` whose first `VRTRasterBand` places
 * `SimpleSource`/`ComplexSource` rasters on one grid. Each source is read as the raster it is (its own blocks,
 * cache and checks); the VRT only says which source owns a point. So only sources copied pixel for pixel are
 * accepted: the whole source (`SrcRect` = its size), unscaled (`DstRect` the same size), at the VRT's resolution and
 * on its grid (whole pixels, inside the VRT), of a type the VRT's band holds exactly (GDAL converts each source to
 * it). Anything else (resampling, windows, `ScaleRatio`, LUTs, warped, derived or nested VRTs, an Int16 band over
 * Float32 sources) is refused with the reason, never read approximately. The VRT's `<SRS>` places the mosaic, as
 * in GDAL, whatever its sources say (`gdalbuildvrt -a_srs`); without one, all sources share the first one's CRS.
 *
 * The band's `<Scale>`/`<Offset>` turn the sources' stored values into heights, as GDAL's "Descaled Value" does;
 * gdalbuildvrt copies them from the sources, so a source whose own scale/offset says otherwise contradicts the
 * VRT and is refused when opened.
 *
 * Ownership follows GDAL's painting order: a later source overwrites an earlier one, so candidates are returned
 * last source first. A `ComplexSource`'s `<NODATA>` (or else the band's `<NoDataValue>`) is the nodata value of
 * its pixels; where the VRT declares none, the source's own nodata still applies (a nodata sentinel such as -32768
 * is never answered as a height).
 */
import type { ByteSource, ReadIo } from '../data/byte-source';
import { openByteSource } from '../data/byte-source';
import { DatasetConfigError, DatasetUnavailableError, SourceNotFoundError } from '../errors';
import type { Crs } from '../geo/crs';
import { INTEGER_RANGES, type Raster, type RasterGrid } from '../raster/raster';
import { scanXml, type XmlElement } from '../track/xml-scan';
import { missingFile, type Layering, type Mosaic } from './mosaic';
import type { RasterOpener } from './raster-opener';
import { joinLocation } from './tile-index';

/** A VRT of 100,000 sources is ~40 MB; ours are read whole at the dataset's first request. */
export const MAX_VRT_BYTES = 16 * 1024 * 1024;
/** Placement tolerance, in pixels, between the VRT's grid and a source's own georeferencing. */
const GRID_TOLERANCE_PX = 1e-6;
/**
 * Sources listed in one cell of the index (a cell is the median source's size): a gdalbuildvrt mosaic lists up
 * to 9 (a source and its neighbours within the pixel margin). 20,000 stacked sources took a worker past 3.5 GB
 * (a helper's probe: every sample weighs every source under it against the others).
 */
export const MAX_SOURCES_PER_CELL = 256;
/** Cell entries of the whole index (8 bytes each): a source thousands of times the median's size would list it in millions. */
export const MAX_CELL_ENTRIES = 4_000_000;

export interface VrtSource {
  location: string;
  /** Where the source sits on the VRT grid, in VRT pixels. */
  dstX: number;
  dstY: number;
  width: number;
  height: number;
  /** `<NODATA>` of a ComplexSource, or the band's `<NoDataValue>`; null: the source's own. */
  nodata: number | null;
  /**
   * A ComplexSource with `<NODATA>` (what gdalbuildvrt writes for sources with a nodata value): GDAL paints only
   * its other pixels, so where it holds nodata an earlier source under it shows through. A SimpleSource paints
   * every pixel, nodata too.
   */
  transparent: boolean;
}

export interface VrtSpec {
  width: number;
  height: number;
  /** GDAL geotransform: [originX, resX, 0, originY, 0, resY] (north-up only). */
  geoTransform: [number, number, number, number, number, number];
  /** Band 1's `<Scale>` and `<Offset>` (1 and 0 when absent): height = stored value × scale + offset. */
  scale: number;
  offset: number;
  /** Band 1's data type as the reader names pixel types (GDAL converts every source to it); null: not given. */
  pixelType: string | null;
  /** The EPSG code of the VRT's `<SRS>` (GDAL places the mosaic by it, whatever its sources say); null: none. */
  srsEpsg: number | null;
  sources: VrtSource[];
}

/** Parses a VRT's XML; `location` is where it was read from (relative source names resolve against its folder). */
export function parseVrt(text: string, location: string): VrtSpec {
  const refuse = (why: string): never => {
    throw new DatasetConfigError(`${location}: ${why}`);
  };
  let width = NaN;
  let height = NaN;
  let geoTransform: number[] | null = null;
  // Band 1 and the source of it last opened: only their own children are read, so the sources of a mask band
  // (<MaskBand> inside band 1 or beside it) are never taken for heights.
  let band: XmlElement | null = null;
  let sourceElement: XmlElement | null = null;
  let bandNodata: number | null = null;
  let scale = 1;
  let offset = 0;
  let pixelType: string | null = null;
  let srsEpsg: number | null = null;
  let current: Partial<VrtSource> & { relative?: boolean; file?: string; band?: number; complex?: boolean } =
    {};
  const rects: Record<string, Record<string, number>> = {};
  const pending: (typeof current & { src?: Record<string, number>; dst?: Record<string, number> })[] = [];
  const number = (value: string | undefined, what: string): number => {
    // Number('') is 0: an empty value is no number, not zero. Number('0b11') is 3 where GDAL's CPLAtof reads 0.
    const n = value?.trim() && !/^\s*[+-]?0[bo]/i.test(value) ? Number(value) : NaN;
    return Number.isFinite(n) ? n : refuse(`${what} is not a number ('${value ?? ''}').`);
  };
  const inBand = (e: XmlElement) => band !== null && e.parent === band;
  const inSource = (e: XmlElement) => sourceElement !== null && e.parent === sourceElement;
  // GDAL finds an element and an attribute in any case (CPLGetXMLNode) and takes the first of repeated ones: read
  // otherwise, `<scale>2</scale>` or a second <Scale>, <NoDataValue> or <SourceFilename> was skipped or taken where
  // GDAL reads another height (a helper's probe). Each is read once: `seen` holds the band's and root's, `current`
  // the source's.
  const seen = new Set<string>();
  const first = (key: string): boolean => !seen.has(key) && Boolean(seen.add(key));
  try {
    scanXml(text, {
      wantsText: (e) => {
        const name = nameOf(e);
        return inBand(e) || inSource(e) || name === 'GeoTransform' || name === 'SRS';
      },
      open(e: XmlElement) {
        const name = nameOf(e);
        if (e.parent === null) {
          if (e.local !== 'VRTDataset') refuse(`not a GDAL VRT (root element <${e.local}>).`);
          if (attributeOf(e, 'subClass'))
            refuse(`a ${attributeOf(e, 'subClass')} VRT is not read; only mosaics.`);
          width = number(attributeOf(e, 'rasterXSize'), 'rasterXSize');
          height = number(attributeOf(e, 'rasterYSize'), 'rasterYSize');
        } else if (name === 'VRTRasterBand' && e.parent.parent === null) {
          if (band !== null) return;
          band = e;
          const dataType = attributeOf(e, 'dataType');
          pixelType = dataType === undefined ? null : gdalTypeName(dataType);
          const subClass = attributeOf(e, 'subClass');
          if (subClass) refuse(`band 1 is a ${subClass}; only SimpleSource/ComplexSource mosaics are read.`);
        } else if (inBand(e)) {
          if (name === 'SimpleSource' || name === 'ComplexSource') {
            sourceElement = e;
            current = { complex: name === 'ComplexSource' };
          } else if (/source$/i.test(e.local))
            refuse(`band 1 has a <${e.local}>; only SimpleSource and ComplexSource are read.`);
        } else if (inSource(e)) {
          if ((name === 'SrcRect' || name === 'DstRect') && rects[name] === undefined) {
            rects[name] = Object.fromEntries(
              ['xOff', 'yOff', 'xSize', 'ySize'].map((k) => [k, number(attributeOf(e, k), `${name} ${k}`)]),
            );
          } else if (name === 'SourceFilename' && current.relative === undefined)
            current.relative = attributeOf(e, 'relativeToVRT') === '1';
        }
      },
      close(e, _end, content) {
        const text = content?.text.trim() ?? '';
        const name = nameOf(e);
        if (name === 'GeoTransform' && e.parent?.parent === null) {
          if (first('GeoTransform'))
            geoTransform = text.split(',').map((v) => number(v.trim(), 'GeoTransform'));
        } else if (name === 'SRS' && e.parent?.parent === null) {
          if (first('SRS')) srsEpsg = srsCode(text);
        } else if (e === sourceElement) {
          pending.push({ ...current, src: rects.SrcRect, dst: rects.DstRect });
          delete rects.SrcRect;
          delete rects.DstRect;
        } else if (inBand(e)) {
          if (name === 'NoDataValue' && first(name))
            bandNodata = text.toLowerCase() === 'nan' ? null : number(text, 'NoDataValue');
          // A band <Scale>/<Offset> turns the sources' stored values into heights.
          else if (name === 'Scale' && first(name)) {
            scale = number(text, 'Scale');
            if (scale === 0) refuse('band 1 has <Scale>0</Scale>, which makes every pixel the same height.');
          } else if (name === 'Offset' && first(name)) offset = number(text, 'Offset');
        } else if (!inSource(e)) {
          return;
        } else if (name === 'SourceFilename') {
          current.file ??= text;
        } else if (name === 'SourceBand') {
          current.band ??= number(text, 'SourceBand');
        } else if (name === 'NODATA') {
          if (current.nodata === undefined)
            current.nodata = text.toLowerCase() === 'nan' ? null : number(text, 'NODATA');
        } else if (rescales(name, text)) {
          refuse(`a source is scaled (<${e.local}>${text}</${e.local}>); only unscaled mosaics are read.`);
        } else if (name === 'LUT' || name === 'Exponent') {
          refuse(`a source has a <${e.local}>; only unscaled mosaics are read.`);
        }
      },
    });
  } catch (error) {
    if (error instanceof DatasetConfigError) throw error;
    throw new DatasetConfigError(`${location} is not a readable VRT: ${(error as Error).message}`);
  }
  if (!(width > 0 && height > 0)) refuse('rasterXSize/rasterYSize missing.');
  const gt = geoTransform as number[] | null;
  if (!gt || gt.length !== 6) refuse('no <GeoTransform> with six numbers.');
  const [originX, resX, rotX, originY, rotY, resY] = gt as number[];
  if (rotX !== 0 || rotY !== 0) refuse('the VRT is rotated; only north-up grids are read.');
  if (band === null) refuse('no <VRTRasterBand>.');
  if (pending.length === 0) refuse('band 1 has no sources.');
  const sources = pending.map((s, i): VrtSource => {
    const which = `source ${i + 1} (${s.file || '?'})`;
    if (!s.file) return refuse(`${which} has no <SourceFilename>.`);
    if ((s.band ?? 1) !== 1) refuse(`${which} reads band ${s.band}; only band 1 of each source is read.`);
    if (/\.vrt$/i.test(s.file))
      refuse(
        `${which} is itself a VRT; nested VRTs are not read: build one VRT over the rasters themselves.`,
      );
    if (!s.dst) return refuse(`${which} has no <DstRect>.`);
    if (
      s.src &&
      (s.src.xOff !== 0 || s.src.yOff !== 0 || s.src.xSize !== s.dst.xSize || s.src.ySize !== s.dst.ySize)
    )
      refuse(
        `${which} is windowed or resampled (SrcRect ${rectText(s.src)} -> DstRect ${rectText(s.dst)}); only whole sources copied pixel for pixel (gdalbuildvrt without -tr/-te) are read.`,
      );
    // gdalbuildvrt -te or -tap off the sources' grid writes a fractional DstRect: GDAL resamples the source onto
    // the VRT's pixels (a half-pixel shift), which reading the source itself would not reproduce.
    const dst = Object.fromEntries(Object.entries(s.dst).map(([k, v]) => [k, Math.round(v)]));
    if (Object.keys(dst).some((k) => Math.abs(dst[k] - s.dst![k]) > GRID_TOLERANCE_PX))
      refuse(
        `${which} is placed off the VRT's pixel grid (DstRect ${rectText(s.dst)}), so GDAL resamples it; only sources on one grid are read: build the VRT without -te/-tr/-tap.`,
      );
    if (dst.xOff < 0 || dst.yOff < 0 || dst.xOff + dst.xSize > width || dst.yOff + dst.ySize > height)
      refuse(
        `${which} reaches beyond the VRT's ${width}x${height} pixels (DstRect ${rectText(dst)}), where GDAL cuts it off; build the VRT with gdalbuildvrt.`,
      );
    return {
      location: sourceLocation(s.file, s.relative === true, location, which),
      dstX: dst.xOff,
      dstY: dst.yOff,
      width: dst.xSize,
      height: dst.ySize,
      nodata: s.nodata !== undefined ? s.nodata : bandNodata,
      transparent: s.complex === true && s.nodata !== undefined,
    };
  });
  return {
    width,
    height,
    geoTransform: [originX, resX, 0, originY, 0, resY],
    scale,
    offset,
    pixelType,
    srsEpsg,
    sources,
  };
}

/** GDAL's name of a band data type as the reader names pixel types (Byte is UInt8). */
function gdalTypeName(dataType: string): string {
  return dataType === 'Byte' ? 'UInt8' : dataType;
}

/**
 * The EPSG code of a VRT's `<SRS>` (its text, trimmed): `EPSG:n`, or the authority of a WKT's outermost element (WKT1's AUTHORITY,
 * WKT2's ID, the last item before its closing bracket). None for a compound CRS (its code is not the horizontal
 * one the reader places points by) or a CRS without a code.
 */
export function srsCode(text: string): number | null {
  const plain = /^EPSG:(\d+)$/i.exec(text);
  if (plain) return Number(plain[1]);
  if (/^(COMPD_CS|COMPOUNDCRS)\b/i.test(text)) return null;
  const outer = /(?:AUTHORITY|ID)\[\s*"EPSG"\s*,\s*"?(\d+)"?\s*\]\s*\]\s*$/i.exec(text);
  return outer ? Number(outer[1]) : null;
}

/**
 * Whether a source's element `name` with `text` rescales its values: `<ScaleRatio>` other than 1 or
 * `<ScaleOffset>` other than 0 (a ComplexSource's own linear scaling, applied before the band's).
 */
/** The VRT elements read, by their name in lower case: GDAL finds them in any case. */
const ELEMENTS = new Map(
  [
    'VRTRasterBand',
    'SimpleSource',
    'ComplexSource',
    'SrcRect',
    'DstRect',
    'SourceFilename',
    'SourceBand',
    'NODATA',
    'NoDataValue',
    'Scale',
    'Offset',
    'GeoTransform',
    'SRS',
    'LUT',
    'Exponent',
    'ScaleRatio',
    'ScaleOffset',
  ].map((name) => [name.toLowerCase(), name]),
);

/** An element's name as the parser compares it: one it reads in its own spelling, any other as written. */
function nameOf(e: XmlElement): string {
  return ELEMENTS.get(e.local.toLowerCase()) ?? e.local;
}

/** An attribute in any case, as GDAL finds it: the first so named. */
function attributeOf(e: XmlElement, name: string): string | undefined {
  if (e.attributes[name] !== undefined) return e.attributes[name];
  const lower = name.toLowerCase();
  const key = Object.keys(e.attributes).find((k) => k.toLowerCase() === lower);
  return key === undefined ? undefined : e.attributes[key];
}

function rescales(name: string, text: string): boolean {
  return (name === 'ScaleRatio' && Number(text) !== 1) || (name === 'ScaleOffset' && Number(text) !== 0);
}

function rectText(r: Record<string, number>): string {
  return `${r.xOff},${r.yOff} ${r.xSize}x${r.ySize}`;
}

/** Where a source is read from: relative to the VRT's folder, a /vsicurl/ or /vsis3/ path, or an absolute path. */
function sourceLocation(file: string, relative: boolean, vrt: string, which: string): string {
  if (relative) return withoutDotSegments(joinLocation(folderOf(vrt), file));
  if (file.startsWith('/vsicurl/')) return file.slice('/vsicurl/'.length);
  if (file.startsWith('/vsis3/')) return `s3://${file.slice('/vsis3/'.length)}`;
  if (/^(https?|s3):\/\//i.test(file)) return file;
  const vsi = /^\/vsi[a-z0-9_]+[/?]/i.exec(file)?.[0];
  if (vsi) {
    // gdalbuildvrt writes an archive member relativeToVRT="0", its path as given: relative to where it ran.
    const fromCwd =
      vsi.endsWith('/') && file[vsi.length] !== '/'
        ? ', relative to the folder gdalbuildvrt ran in (GDAL itself opens it only from there)'
        : '';
    throw new DatasetConfigError(
      `${vrt}: ${which} is read through GDAL's ${vsi.slice(0, -1)}/ file system${fromCwd}, which the data store does not serve; build the VRT over the rasters themselves (unpacked, beside or below the VRT).`,
    );
  }
  if (/^(https?|s3):\/\//i.test(vrt)) {
    throw new DatasetConfigError(
      `${vrt}: ${which} is an absolute path the data store cannot serve; write the VRT with relative source names (gdalbuildvrt does, for sources beside or below the VRT).`,
    );
  }
  return file;
}

/**
 * `../tiles/a.tif` beside `http://host/data/vrt/m.vrt` is `http://host/data/tiles/a.tif`: S3 keys are never
 * normalised by the store, so a URL's `.` and `..` segments are resolved here (local paths by path.join).
 */
function withoutDotSegments(location: string): string {
  const match = /^((?:https?|s3):\/\/[^/]*)(\/.*)$/i.exec(location);
  if (!match) return location;
  const out: string[] = [];
  for (const segment of match[2].split('/').slice(1)) {
    if (segment === '..') out.pop();
    else if (segment !== '.') out.push(segment);
  }
  return `${match[1]}/${out.join('/')}`;
}

function folderOf(location: string): string {
  const slash = location.lastIndexOf('/');
  // '/m.vrt' lives in '/', not in ''.
  return slash < 0 ? '.' : location.slice(0, slash) || '/';
}

/** Reads a VRT file whole (it is small) through the data layer, verified like every read. */
export async function readVrt(
  location: string,
  opener: RasterOpener,
  dataset: string,
  io?: ReadIo,
): Promise<VrtSpec> {
  return (await readVrtFile(location, opener, dataset, io)).spec;
}

/** readVrt, and the file's source pinned to the version read (to check later whether it changed). */
export async function readVrtFile(
  location: string,
  opener: RasterOpener,
  dataset: string,
  io?: ReadIo,
): Promise<{ spec: VrtSpec; source: ByteSource }> {
  const source = openByteSource(location, opener.policy);
  let head: Uint8Array;
  try {
    head = await source.read(0, 64 * 1024, io);
  } catch (error) {
    if (!(error instanceof SourceNotFoundError)) throw error;
    throw new DatasetUnavailableError(dataset, 'its VRT file was not found in the data store.', {
      cause: error,
    });
  }
  const size = source.size ?? head.byteLength;
  if (size > MAX_VRT_BYTES)
    throw new DatasetConfigError(
      `${location} is ${size} bytes; VRTs over ${MAX_VRT_BYTES} bytes are not read.`,
    );
  const bytes = size > head.byteLength ? await source.read(0, size, io) : head;
  return { spec: parseVrt(new TextDecoder('utf-8').decode(bytes), location), source };
}

/**
 * Sources bucketed on a coarse grid of the VRT (cells the size of a typical source), so finding the owners of a
 * point looks at a handful of sources, not all of them.
 */
export class VrtMosaic implements Mosaic {
  private readonly cells = new Map<number, number[]>();
  private readonly cellW: number;
  private readonly cellH: number;
  private readonly cellsAcross: number;
  private readonly ids: string[];
  /** The source rasters as the VRT reads them (its nodata, scale, offset, CRS), by the raster opened. */
  private readonly views = new WeakMap<Raster, Raster>();
  private readonly layerings = new Map<string, Layering>();

  constructor(
    readonly crs: Crs,
    readonly spec: VrtSpec,
    private readonly opener: RasterOpener,
    private readonly datasetName: string,
  ) {
    const { sources } = spec;
    this.cellW = Math.max(1, median(sources.map((s) => s.width)));
    this.cellH = Math.max(1, median(sources.map((s) => s.height)));
    // Cells from -1 (the margin west of the VRT) to one past the east edge's: no two cells share a key.
    this.cellsAcross = Math.ceil(spec.width / this.cellW) + 3;
    this.ids = sources.map((_, i) => String(i));
    // Each source is listed in every cell its footprint grown by a pixel reaches: the margin candidates() allows.
    let entries = 0;
    sources.forEach((s, i) => {
      const [x0, x1] = [s.dstX - 1, s.dstX + s.width + 1];
      const [y0, y1] = [s.dstY - 1, s.dstY + s.height + 1];
      const [cx0, cx1] = [Math.floor(x0 / this.cellW), Math.floor(x1 / this.cellW)];
      const [cy0, cy1] = [Math.floor(y0 / this.cellH), Math.floor(y1 / this.cellH)];
      entries += (cx1 - cx0 + 1) * (cy1 - cy0 + 1);
      if (entries > MAX_CELL_ENTRIES) {
        throw new DatasetConfigError(
          `${datasetName}: its VRT's sources differ too much in size to be indexed (source ${i + 1} of ${sources.length} spans ${(cx1 - cx0 + 1) * (cy1 - cy0 + 1)} cells of the median source's size); split it into VRTs of like-sized sources.`,
        );
      }
      for (let cy = cy0; cy <= cy1; cy++)
        for (let cx = cx0; cx <= cx1; cx++) {
          const key = this.cellKey(cx, cy);
          const list = this.cells.get(key);
          if (!list) this.cells.set(key, [i]);
          else if (list.push(i) > MAX_SOURCES_PER_CELL) {
            throw new DatasetConfigError(
              `${datasetName}: its VRT stacks more than ${MAX_SOURCES_PER_CELL} sources over one place (source ${i + 1} of ${sources.length}); GDAL paints them all, this reader does not read such a VRT. Keep the sources that show (gdalbuildvrt over the tiles themselves).`,
            );
          }
        }
    });
  }

  private cellKey(cx: number, cy: number): number {
    return (cy + 1) * this.cellsAcross + (cx + 1);
  }

  /** The VRT's grid, corner-based like a raster's. */
  get grid(): Pick<RasterGrid, 'width' | 'height' | 'originX' | 'originY' | 'resX' | 'resY'> {
    const [originX, resX, , originY, , resY] = this.spec.geoTransform;
    return { width: this.spec.width, height: this.spec.height, originX, originY, resX, resY };
  }

  candidates(x: number, y: number): readonly string[] {
    const [originX, resX, , originY, , resY] = this.spec.geoTransform;
    const px = (x - originX) / resX;
    const py = (y - originY) / resY;
    if (!(px >= -1 && py >= -1 && px <= this.spec.width + 1 && py <= this.spec.height + 1)) return [];
    const list = this.cells.get(this.cellKey(Math.floor(px / this.cellW), Math.floor(py / this.cellH)));
    if (!list) return [];
    const ids: string[] = [];
    // Last painted first: a later source overwrites an earlier one where they overlap.
    for (let k = list.length - 1; k >= 0; k--) {
      const s = this.spec.sources[list[k]];
      if (px >= s.dstX - 1 && px <= s.dstX + s.width + 1 && py >= s.dstY - 1 && py <= s.dstY + s.height + 1)
        ids.push(this.ids[list[k]]);
    }
    return ids;
  }

  /**
   * Where source `id` shares pixels with other sources, in its own pixel coordinates, and whether its nodata
   * pixels show what lies under it: the sampler reads those pixels through every source, last painted first.
   */
  layering(id: string): Layering {
    let layering = this.layerings.get(id);
    if (layering) return layering;
    const i = Number(id);
    const source = this.spec.sources[i];
    const others = new Set<number>();
    const [x0, x1] = [source.dstX, source.dstX + source.width - 1];
    const [y0, y1] = [source.dstY, source.dstY + source.height - 1];
    for (let cy = Math.floor(y0 / this.cellH); cy <= Math.floor(y1 / this.cellH); cy++)
      for (let cx = Math.floor(x0 / this.cellW); cx <= Math.floor(x1 / this.cellW); cx++)
        for (const j of this.cells.get(this.cellKey(cx, cy)) ?? []) if (j !== i) others.add(j);
    const shared: number[] = [];
    for (const j of others) {
      const o = this.spec.sources[j];
      const left = Math.max(source.dstX, o.dstX);
      const top = Math.max(source.dstY, o.dstY);
      const right = Math.min(source.dstX + source.width, o.dstX + o.width);
      const bottom = Math.min(source.dstY + source.height, o.dstY + o.height);
      if (left < right && top < bottom)
        shared.push(left - source.dstX, top - source.dstY, right - source.dstX, bottom - source.dstY);
    }
    layering = { shared, transparent: source.transparent };
    this.layerings.set(id, layering);
    return layering;
  }

  async open(id: string, io?: ReadIo): Promise<Raster | null> {
    // Only the ids `candidates` hands out: Number('') or Number(' 4') would name a source all the same.
    const source = this.ids[Number(id)] === id ? this.spec.sources[Number(id)] : undefined;
    if (!source) return null;
    const raster = await this.opener.open(source.location, io);
    if (!raster) {
      // A source the VRT names but the store lacks: the mosaic is broken, not "no data here".
      throw missingFile(this.datasetName, 'VRT', source.location);
    }
    this.checkPlacement(raster, source);
    this.checkScale(raster, source);
    this.checkType(raster, source);
    const { scale, offset } = this.spec;
    const nodata =
      source.nodata === null
        ? raster.nodata
        : raster.pixelType === 'Float32'
          ? Math.fround(source.nodata)
          : source.nodata;
    // A VRT's own CRS places its pixels (gdalbuildvrt -a_srs), whatever its sources say.
    // (Without one, checkPlacement has made sure the source's CRS is the mosaic's.)
    const crs = raster.crs.key === this.crs.key ? raster.crs : this.crs;
    if (nodata === raster.nodata && scale === raster.scale && offset === raster.offset && crs === raster.crs)
      return raster;
    // One view per opened raster (keyed by it: a file opened again gets a new one), not a new object per request.
    // Only nodata can differ between two sources naming the same file: a view with another is replaced.
    let view = this.views.get(raster);
    if (view?.nodata !== nodata) {
      view = { ...raster, nodata, scale, offset, crs };
      this.views.set(raster, view);
    }
    return view;
  }

  /**
   * GDAL converts every source to the VRT band's data type (gdalbuildvrt -ot): rounding and clipping where that
   * type cannot hold the source's values exactly, which reading the source itself would not reproduce.
   */
  private checkType(raster: Raster, source: VrtSource): void {
    const band = this.spec.pixelType;
    if (band === null || holdsExactly(band, raster.pixelType)) return;
    throw new DatasetConfigError(
      `${source.location} holds ${raster.pixelType} samples, which its VRT's ${band} band does not hold exactly (GDAL rounds and clips them); rebuild the VRT without -ot, or with -ot Float32/Float64.`,
    );
  }

  /**
   * The VRT's scale/offset apply to the source's stored values (GDAL reads a source as stored). A source that
   * declares its own, different ones is ambiguous (which makes its heights?) and refused; one without any takes
   * the VRT's.
   */
  private checkScale(raster: Raster, source: VrtSource): void {
    const own = raster.scale !== 1 || raster.offset !== 0;
    if (!own || (raster.scale === this.spec.scale && raster.offset === this.spec.offset)) return;
    throw new DatasetConfigError(
      `${source.location} declares its own scale ${raster.scale} and offset ${raster.offset}, but its VRT scales band 1 by ${this.spec.scale} with offset ${this.spec.offset}; rebuild the VRT with gdalbuildvrt from files that share one scale and offset.`,
    );
  }

  private checkPlacement(raster: Raster, source: VrtSource): void {
    const [originX, resX, , originY, , resY] = this.spec.geoTransform;
    const { grid } = raster;
    const near = (a: number, b: number, res: number) => Math.abs(a - b) <= Math.abs(res) * GRID_TOLERANCE_PX;
    const placed =
      grid.width === source.width &&
      grid.height === source.height &&
      near(grid.resX * grid.width, resX * source.width, resX) &&
      near(grid.resY * grid.height, resY * source.height, resY) &&
      near(grid.originX, originX + source.dstX * resX, resX) &&
      near(grid.originY, originY + source.dstY * resY, resY);
    // A VRT with its own CRS places every source by it (checkType, open); without one, all must share the first's.
    if (!placed || (this.spec.srsEpsg === null && raster.crs.key !== this.crs.key)) {
      throw new DatasetConfigError(
        `${source.location} does not sit on its VRT's grid as the VRT places it (size, resolution, position or CRS differ); rebuild the VRT with gdalbuildvrt from the files as they are.`,
      );
    }
  }
}

/** Integer types whose every value a Float32 holds exactly (it holds integers up to 2^24). */
const IN_FLOAT32 = new Set(['UInt8', 'Int8', 'UInt16', 'Int16']);

/** Whether a band of type `band` holds every value of type `source` exactly. */
function holdsExactly(band: string, source: string): boolean {
  if (band === source || band === 'Float64') return true;
  if (band === 'Float32') return IN_FLOAT32.has(source);
  const [from, to] = [INTEGER_RANGES[source], INTEGER_RANGES[band]];
  // A float source in an integer band, or a band type the reader does not know (CInt16, Int64): not exactly.
  return from !== undefined && to !== undefined && from[0] >= to[0] && from[1] <= to[1];
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}
