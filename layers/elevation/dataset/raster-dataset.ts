/**
 * A dataset backed by rasters: one file, or tiles named by their lower-left corner. Converts WGS84 points to the
 * mosaic's CRS, samples them, and maps nodata to null. Opening is lazy and cached; a failed open is retried on
 * the next request.
 */
import { isRemote, type ByteSource } from '../data/byte-source';
import { listFolder } from '../data/folder-listing';
import { ReadLimiter } from '../data/read-limiter';
import {
  DatasetConfigError,
  DatasetUnavailableError,
  ObjectChangedError,
  UndecodableBlockError,
} from '../errors';
import { crsFromEpsg, wgs84Converter, type Crs } from '../geo/crs';
import type { Raster } from '../raster/raster';
import {
  DatasetBase,
  noTracing,
  newReadStats,
  type CountedReads,
  type DatasetInfo,
  type Elevation,
  type Interpolation,
  type LatLon,
  type ReadContext,
  type SampleResult,
} from '../types';
import { describeMosaic } from './describe';
import { missingFile, SingleRasterMosaic, TiledMosaic, type Mosaic } from './mosaic';
import { unchangedSincePinned, type RasterOpener } from './raster-opener';
import { refuseAppliedSidecar } from './sidecar';
import { joinLocation, listedSidecars, ListedTileIndex, TemplateTileIndex } from './tile-index';
import { defaultTemplates, isRasterFile, isVrtFile, tryParseTileCorner } from './tile-names';
import { readVrtFile, VrtMosaic } from './vrt-mosaic';
import { sampleMosaic } from './window-sampler';

export interface TilingOptions {
  filenameEpsg: number;
  tileSize: number;
  /** Name template for remote tiles; local folders are listed instead when this is absent. */
  template: string | null;
}

export interface RasterDatasetOptions {
  name: string;
  location: string;
  tiling: TilingOptions | null;
  verticalDatum: string | null;
  opener: RasterOpener;
  /** Filename CRS when tiling is inferred from a folder of corner-named files (config `filename_epsg`). */
  filenameEpsg: number;
  /** How long a folder listing is trusted before it is listed again (tiles added later are found). */
  relistMs: number;
  /** Points outside these WGS84 bounds [west, south, east, north] are null without any read. */
  wgs84Bounds?: [number, number, number, number] | null;
  /** Milliseconds clock of the relisting and the VRT check (tests pass their own); default Date.now. */
  now?: () => number;
}

/** Concurrent range reads per request when the caller sets no limiter (the API sets MAX_CONCURRENT_READS). */
export const DEFAULT_CONCURRENT_READS = 16;
/** Decoded block bytes one request may hold at once when the caller sets none (REQUEST_BLOCK_BUDGET_MB). */
export const DEFAULT_BLOCK_BUDGET_BYTES = 64 * 1024 * 1024;

/** Replaced files one request reopens before it gives up with a 502. */
const MAX_REOPENS = 8;

/** What a client hears of a block that did not decode with its header and bytes read twice (no retry helps). */
const UNDECODABLE_TWICE =
  'a block of one of its files did not decode when read twice (a corrupt file in the data store, or a data layer damaging what it sends); the server log names the file.';

/**
 * @example
 * ```ts
 * const ctx = fullContext({ blockBudgetBytes: 16 * 1024 * 1024 });
 * assert.equal(ctx.stats.rangeRequests, 0);
 * assert.equal(ctx.limiter?.maxConcurrent, 16); // DEFAULT_CONCURRENT_READS
 * ```
 */
export function fullContext(ctx?: Partial<ReadContext>): ReadContext {
  return {
    stats: ctx?.stats ?? newReadStats(),
    trace: ctx?.trace ?? noTracing,
    signal: ctx?.signal,
    limiter: ctx?.limiter ?? new ReadLimiter(DEFAULT_CONCURRENT_READS),
    blockBudgetBytes: ctx?.blockBudgetBytes ?? DEFAULT_BLOCK_BUDGET_BYTES,
  };
}

export class RasterDataset extends DatasetBase {
  private mosaic: Promise<Mosaic> | null = null;
  /** The mosaic once opened, so warm requests skip a promise and a span. */
  private opened: Mosaic | null = null;
  private info: Promise<DatasetInfo> | null = null;
  /** When `info` is made again from the files as they are then. */
  private infoExpires = 0;
  /** The tile size once the mosaic is built (configured or inferred); null for one file. */
  private tileSize: number | null = null;
  /**
   * A VRT's file, pinned to the version read, and when to check it again: its sources are checked by the opener,
   * but a VRT replaced under a running environment (sources swapped or added) was followed never.
   */
  private vrtFile: { source: ByteSource; checkAt: number } | null = null;
  /**
   * A folder whose listing decided what the dataset is (one raster, one VRT, or tiles: folderShape()), listed again
   * by one request per `relistMs`: a tile added beside a lone raster made it a tiled dataset only at the next
   * cold start, and until then the new tile's points were answered null.
   */
  private folder: { shape: string; checkAt: number } | null = null;
  private readonly now: () => number;

  constructor(private readonly options: RasterDatasetOptions) {
    super();
    this.now = options.now ?? Date.now;
  }

  get name(): string {
    return this.options.name;
  }

  async sampleAttributed(
    points: readonly LatLon[],
    interpolation: Interpolation,
    ctx?: Partial<ReadContext>,
  ): Promise<SampleResult> {
    const context = fullContext(ctx);
    const bounds = this.options.wgs84Bounds;
    if (bounds) return this.sampleWithin(bounds, points, interpolation, context);
    return this.sampleReopening(points, interpolation, context);
  }

  /** OpenTopoData's `wgs84_bounds`: only the points inside are sampled; the others are null, read-free. */
  private async sampleWithin(
    [west, south, east, north]: [number, number, number, number],
    points: readonly LatLon[],
    interpolation: Interpolation,
    context: ReadContext,
  ): Promise<SampleResult> {
    const inside = points.flatMap((p, i) =>
      p.lon >= west && p.lon <= east && p.lat >= south && p.lat <= north ? [i] : [],
    );
    const elevations: Elevation[] = new Array<Elevation>(points.length).fill(null);
    const nodataPixels: boolean[] = new Array<boolean>(points.length).fill(false);
    if (inside.length > 0) {
      const answer = await this.sampleReopening(
        inside.map((i) => points[i]),
        interpolation,
        context,
      );
      inside.forEach((pointIndex, k) => {
        elevations[pointIndex] = answer.elevations[k];
        nodataPixels[pointIndex] = answer.nodataPixels[k];
      });
    }
    return { elevations, datasets: new Array<string>(points.length).fill(this.name), nodataPixels };
  }

  private async sampleReopening(
    points: readonly LatLon[],
    interpolation: Interpolation,
    context: ReadContext,
  ): Promise<SampleResult> {
    const reopened = new Set<string>();
    for (;;) {
      try {
        return await this.sampleOnce(points, interpolation, context);
      } catch (error) {
        // A file replaced while we held its header, or a block its header points at that does not decode (a
        // header damaged on the way would otherwise be kept, and fail, for the environment's life): drop what we
        // know of the file and read it again, once per file (a request over several tiles meets them one by one).
        // A file that changes again is a 502 (retry); one whose block fails again, header and block read afresh,
        // is a file an operator must replace: said so, naming the dataset (the log has the file and block).
        const reopenable = error instanceof ObjectChangedError || error instanceof UndecodableBlockError;
        if (!reopenable) throw error;
        if (reopened.has(error.url) && error instanceof UndecodableBlockError) {
          throw new DatasetUnavailableError(this.name, UNDECODABLE_TWICE, { cause: error });
        }
        if (reopened.has(error.url) || reopened.size >= MAX_REOPENS) throw error;
        reopened.add(error.url);
        this.options.opener.forget(error.url, error instanceof UndecodableBlockError);
        this.mosaic = null;
        this.opened = null;
        this.info = null;
      }
    }
  }

  private async sampleOnce(
    points: readonly LatLon[],
    interpolation: Interpolation,
    context: ReadContext,
  ): Promise<SampleResult> {
    const mosaic = await this.currentMosaic(context);
    const toMosaic = wgs84Converter(mosaic.crs);
    const xs = new Float64Array(points.length);
    const ys = new Float64Array(points.length);
    for (let i = 0; i < points.length; i++) {
      if (mosaic.crs.isWgs84) {
        xs[i] = points[i].lon;
        ys[i] = points[i].lat;
      } else {
        [xs[i], ys[i]] = toMosaic.forward(points[i].lon, points[i].lat);
      }
    }
    const covered = new Uint8Array(points.length);
    const values = await sampleMosaic(mosaic, xs, ys, interpolation, context, covered);
    const elevations: Elevation[] = new Array(points.length);
    const nodataPixels: boolean[] = new Array(points.length);
    for (let i = 0; i < values.length; i++) {
      const found = Number.isFinite(values[i]);
      elevations[i] = found ? values[i] : null;
      nodataPixels[i] = !found && covered[i] === 1;
    }
    return { elevations, datasets: new Array<string>(points.length).fill(this.name), nodataPixels };
  }

  /** The mosaic as it is now: a VRT due for its check is checked (and opened again if replaced) first. */
  private async currentMosaic(context: ReadContext): Promise<Mosaic> {
    if (this.opened && this.vrtFile && this.now() >= this.vrtFile.checkAt) await this.checkVrt(context);
    if (this.opened && this.folder && this.now() >= this.folder.checkAt) await this.checkFolder();
    // The first request of an execution environment opens the dataset (a header read for one file): traced.
    return this.opened ?? (await context.trace.span('open-dataset', () => this.openMosaic(context)));
  }

  /**
   * What `/v1/datasets` lists, cached for `relistMs` (MISSING_TTL_S) like the listing and headers it is made of:
   * then made again from the files as they are, so a file replaced by one of another extent, a tile added or a VRT
   * replaced are described as they are answered (cached for good, the old bounds stood beside the new heights).
   */
  describe(counted?: CountedReads): Promise<DatasetInfo> {
    if (this.info && this.now() >= this.infoExpires) this.info = null;
    if (this.info) return this.info;
    this.infoExpires = this.now() + this.options.relistMs;
    const context = fullContext({ stats: counted?.stats, trace: counted?.trace });
    const info = this.describeReopening(context).catch((error: unknown) => {
      if (this.info === info) this.info = null;
      throw error;
    });
    this.info = info;
    return info;
  }

  /** As `sampleReopening`: a file found replaced (its header checked after MISSING_TTL_S) is opened again once. */
  private async describeReopening(context: ReadContext): Promise<DatasetInfo> {
    for (let reopened = false; ; reopened = true) {
      try {
        const mosaic = await this.currentMosaic(context);
        const info = await describeMosaic(this.name, mosaic, this.tileSize, this.options.verticalDatum);
        // A remote single file's sidecar is asked of the store here, not on the requests' path (a round trip
        // per cold start): npm start and /health?deep=1 refuse it before users are answered.
        const { location, tiling, opener } = this.options;
        if (!tiling && isRasterFile(location) && isRemote(location))
          await refuseAppliedSidecar(location, opener.policy);
        return info;
      } catch (error) {
        if (!(error instanceof ObjectChangedError) || reopened) throw error;
        this.options.opener.forget(error.url);
        this.mosaic = null;
        this.opened = null;
      }
    }
  }

  /**
   * One request per `relistMs` reads a byte of the VRT's pinned version, by the rule the opener checks rasters by
   * (`unchangedSincePinned`): a VRT replaced or deleted since is opened again by this request (its heights never
   * outlive the file by more than MISSING_TTL_S, as a raster's do). A check the data layer fails to answer keeps
   * the VRT read before (its bytes were verified), checked again later; the request's own deadline or a refusal
   * fails the request, and the next request checks.
   */
  private async checkVrt(ctx: ReadContext): Promise<void> {
    const file = this.vrtFile!;
    file.checkAt = this.now() + this.options.relistMs;
    let unchanged: boolean;
    try {
      unchanged = await unchangedSincePinned(file.source, ctx);
    } catch (error) {
      file.checkAt = this.now();
      throw error;
    }
    if (unchanged || this.vrtFile !== file) return;
    this.mosaic = null;
    this.opened = null;
    this.info = null;
    this.vrtFile = null;
  }

  /**
   * The folder listed again: another shape (a lone raster joined by tiles or replaced by another name, a VRT
   * added or gone) opens the dataset again. A tiled folder is not watched so (its index relists its tiles): one
   * whose tiles are replaced by a single file not named by its corner keeps answering from its index until a cold
   * start. A listing that fails keeps the dataset as it is (its files are checked on their own),
   * listed again after `relistMs`.
   */
  private async checkFolder(): Promise<void> {
    const folder = this.folder!;
    folder.checkAt = this.now() + this.options.relistMs;
    let listed: string[] | null;
    try {
      listed = await listFolder(this.options.location);
    } catch {
      return;
    }
    if (listed === null || folderShape(listed) === folder.shape || this.folder !== folder) return;
    this.mosaic = null;
    this.opened = null;
    this.info = null;
    this.vrtFile = null;
    this.folder = null;
  }

  private openMosaic(ctx: ReadContext): Promise<Mosaic> {
    this.mosaic ??= this.createMosaic(ctx).then(
      (mosaic) => (this.opened = mosaic),
      (error: unknown) => {
        this.mosaic = null;
        throw error;
      },
    );
    return this.mosaic;
  }

  private async createMosaic(ctx: ReadContext): Promise<Mosaic> {
    const { location, tiling, name } = this.options;
    if (tiling) {
      // A template computes tile names (nothing is listed); a listed folder that holds one raster (or one VRT and
      // no raster) is a single-file dataset whatever filename_tile_size says, as OpenTopoData checks
      // `len(all_rasters) == 1` first: as tiles, a raster not named by its corner was never found (all null).
      // An empty folder stays tiles (its index finds tiles added later); a store that cannot list computes names.
      const listed = tiling.template ? null : await listFolder(location);
      if (listed !== null && /^(single|vrt):/.test(folderShape(listed)))
        return this.folderMosaic(listed, ctx);
      return this.tiledMosaic(tiling, listed);
    }
    if (isVrtFile(location)) return this.vrtMosaic(location, ctx);
    if (isRasterFile(location)) {
      // A local file's sidecar costs a stat; a remote one's a request, asked by describe() only (below).
      if (!isRemote(location)) await refuseAppliedSidecar(location, this.options.opener.policy);
      return this.singleMosaic(location, ctx);
    }
    // As OpenTopoData: a folder with one raster (or one VRT and no rasters) is a single-file dataset, with
    // several a tiled one.
    const listed = await listFolder(location);
    if (listed === null) {
      throw new DatasetConfigError(
        `Dataset '${name}': ${location} cannot be listed; name the file in \`path\`, or set filename_tile_size (and tile_template) for tiles.`,
      );
    }
    return this.folderMosaic(listed, ctx);
  }

  /** A listed folder as OpenTopoData reads it: one raster, one VRT and no raster, or tiles (their size inferred). */
  private async folderMosaic(listed: readonly string[], ctx: ReadContext): Promise<Mosaic> {
    const { location, name } = this.options;
    // Tiles are relisted by their index (ListedTileIndex); a lone raster or VRT by checkFolder.
    const shape = folderShape(listed);
    this.folder = shape === 'tiles' ? null : { shape, checkAt: this.now() + this.options.relistMs };
    const files = listed.filter(isRasterFile);
    const vrts = listed.filter(isVrtFile);
    if (files.length === 0 && vrts.length === 1) return this.vrtMosaic(joinLocation(location, vrts[0]), ctx);
    if (files.length === 0)
      throw new DatasetConfigError(`Dataset '${name}': ${location} holds no raster files.`);
    if (files.length === 1) {
      const file = joinLocation(location, files[0]);
      const sidecar = listedSidecars(location, listed, files).get(file);
      if (sidecar !== undefined) await refuseAppliedSidecar(file, this.options.opener.policy, sidecar);
      return this.singleMosaic(file, ctx);
    }
    const tileSize = inferTileSize(files, name, this.options.filenameEpsg);
    return this.tiledMosaic({ filenameEpsg: this.options.filenameEpsg, tileSize, template: null }, listed);
  }

  /** A gdalbuildvrt mosaic: its first source is opened now (the CRS, and a start-up check that it is served). */
  private async vrtMosaic(file: string, ctx: ReadContext): Promise<Mosaic> {
    const { spec, source } = await readVrtFile(file, this.options.opener, this.options.name, ctx);
    this.vrtFile = { source, checkAt: this.now() + this.options.relistMs };
    const first = await this.options.opener.open(spec.sources[0].location, ctx);
    if (!first) throw missingFile(this.options.name, 'VRT', spec.sources[0].location);
    const mosaic = new VrtMosaic(
      spec.srsEpsg === null || spec.srsEpsg === first.crs.epsg ? first.crs : this.vrtCrs(spec.srsEpsg, file),
      spec,
      this.options.opener,
      this.options.name,
    );
    await mosaic.open('0', ctx);
    return mosaic;
  }

  /** The CRS a VRT's `<SRS>` names where it is not its first source's: GDAL places the mosaic by it. */
  private vrtCrs(code: number, file: string): Crs {
    try {
      return crsFromEpsg(code);
    } catch (error) {
      if (!(error instanceof DatasetConfigError)) throw error;
      throw new DatasetConfigError(`${file} (its <SRS>): ${error.message}`, { cause: error });
    }
  }

  private async singleMosaic(file: string, ctx: ReadContext): Promise<Mosaic> {
    const raster: Raster | null = await this.options.opener.open(file, ctx);
    // One missing file is not "no data here" but a dataset that cannot answer at all.
    if (!raster)
      throw new DatasetUnavailableError(this.options.name, 'its file was not found in the data store.');
    return new SingleRasterMosaic(raster, file, this.options.opener);
  }

  private tiledMosaic(tiling: TilingOptions, files: readonly string[] | null): Mosaic {
    const { location, opener, relistMs } = this.options;
    this.tileSize = tiling.tileSize;
    const crs: Crs = crsFromEpsg(tiling.filenameEpsg);
    const index =
      files !== null
        ? new ListedTileIndex(location, tiling.tileSize, files, relistMs, this.now, (raster, sidecar) =>
            refuseAppliedSidecar(raster, opener.policy, sidecar),
          )
        : new TemplateTileIndex(
            location,
            tiling.template ?? defaultTemplates(tiling.filenameEpsg),
            tiling.tileSize,
          );
    return new TiledMosaic(crs, tiling.tileSize, index, opener, this.options.name);
  }
}

/**
 * A single file named in `path` has no listing: whether GDAL's sidecar (`<file>.aux.xml`) is beside it is asked of
 * the store. A refusal counts as absent (S3 without ListBucket answers 403 for a missing key).
 */
/**
 * What a folder's listing makes of a dataset (createMosaic): `vrt:<name>`, `single:<name>`, or `tiles` (several
 * rasters, whose set the tile index follows itself) or `none`.
 */
function folderShape(listed: readonly string[]): string {
  const files = listed.filter(isRasterFile);
  const vrts = listed.filter(isVrtFile);
  if (files.length === 0) return vrts.length === 1 ? `vrt:${vrts[0]}` : 'none';
  return files.length === 1 ? `single:${files[0]}` : 'tiles';
}

/**
 * OpenTopoData's default tile size is 1 (degree); names in metres (EU-DEM `N2000000E3000000`) give theirs away
 * as the greatest common divisor of the corners' spacing.
 */
function inferTileSize(files: readonly string[], name: string, filenameEpsg: number): number {
  const corners = files
    .map((f) => tryParseTileCorner(f.split('/').pop() ?? f))
    .filter((c): c is { x: number; y: number } => c !== null);
  if (corners.length === 0) {
    throw new DatasetConfigError(
      `Dataset '${name}': its folder holds several rasters, none named by its corner (e.g. N48E009.hgt); point path at one file.`,
    );
  }
  const values = corners.flatMap((c) => [Math.abs(c.x), Math.abs(c.y)]);
  if (values.every((v) => v <= 180)) return 1;
  if (filenameEpsg === 4326) {
    throw new DatasetConfigError(
      `Dataset '${name}': its tile names look like metres (e.g. N2000000E4000000); set filename_epsg (3035 for EU-DEM).`,
    );
  }
  const size = values.reduce((a, b) => gcd(a, b), 0); // gcd(x, 0) is x: a corner at 0 changes nothing
  if (!(size > 1)) {
    throw new DatasetConfigError(
      `Dataset '${name}': cannot infer the tile size from its file names; set filename_tile_size.`,
    );
  }
  return size;
}

function gcd(a: number, b: number): number {
  return b === 0 ? a : gcd(b, a % b);
}
