/**
 * A dataset backed by rasters: one file, or tiles named by their lower-left corner. Converts WGS84 points to the
 * mosaic's CRS, samples them, and maps nodata to null. Opening is lazy and cached; a failed open is retried on
 * the next request.
 */
import { readdir, stat } from 'node:fs/promises';
import path from 'node:path';
import { isRemote } from '../data/byte-source';
import { ReadLimiter } from '../data/read-limiter';
import { DatasetConfigError, DatasetUnavailableError, ObjectChangedError } from '../errors';
import { crsFromEpsg, wgs84Converter, type Crs } from '../geo/crs';
import type { Raster } from '../raster/raster';
import {
  DatasetBase,
  noTracing,
  newReadStats,
  type DatasetInfo,
  type Elevation,
  type Interpolation,
  type LatLon,
  type ReadContext,
  type SampleResult,
} from '../types';
import { describeMosaic } from './describe';
import { SingleRasterMosaic, TiledMosaic, type Mosaic } from './mosaic';
import type { RasterOpener } from './raster-opener';
import { LocalTileIndex, TemplateTileIndex } from './tile-index';
import { defaultTemplate } from './tile-names';
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
}

/** Concurrent range reads per request when the caller sets no limiter (the API sets MAX_CONCURRENT_READS). */
export const DEFAULT_CONCURRENT_READS = 16;
/** Decoded block bytes one request may hold at once when the caller sets none (REQUEST_BLOCK_BUDGET_MB). */
export const DEFAULT_BLOCK_BUDGET_BYTES = 64 * 1024 * 1024;

/** Replaced files one request reopens before it gives up with a 502. */
const MAX_REOPENS = 8;

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

  constructor(private readonly options: RasterDatasetOptions) {
    super();
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
    const reopened = new Set<string>();
    for (;;) {
      try {
        return await this.sampleOnce(points, interpolation, context);
      } catch (error) {
        // A file replaced while we held its header: drop what we know of it and read it again, once per file
        // (a request over several replaced tiles meets them one by one). A file that changes again is a 502.
        if (!(error instanceof ObjectChangedError) || reopened.has(error.url) || reopened.size >= MAX_REOPENS)
          throw error;
        reopened.add(error.url);
        this.options.opener.forget(error.url);
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
    // The first request of an execution environment opens the dataset (a header read for one file): traced.
    const mosaic = this.opened ?? (await context.trace.span('open-dataset', () => this.openMosaic(context)));
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
    const values = await sampleMosaic(mosaic, xs, ys, interpolation, context);
    const elevations: Elevation[] = new Array(points.length);
    for (let i = 0; i < values.length; i++) elevations[i] = Number.isFinite(values[i]) ? values[i] : null;
    return { elevations, datasets: new Array<string>(points.length).fill(this.name) };
  }

  describe(): Promise<DatasetInfo> {
    this.info ??= this.openMosaic(fullContext())
      .then((mosaic) =>
        describeMosaic(this.name, mosaic, this.options.tiling?.tileSize ?? null, this.options.verticalDatum),
      )
      .catch((error: unknown) => {
        this.info = null;
        throw error;
      });
    return this.info;
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
    const { location, tiling, opener, name } = this.options;
    if (tiling) {
      const crs: Crs = crsFromEpsg(tiling.filenameEpsg);
      const index = isRemote(location)
        ? new TemplateTileIndex(
            location,
            tiling.template ?? defaultTemplate(tiling.filenameEpsg),
            tiling.tileSize,
          )
        : tiling.template
          ? new TemplateTileIndex(location, tiling.template, tiling.tileSize)
          : new LocalTileIndex(location, tiling.tileSize);
      return new TiledMosaic(crs, tiling.tileSize, index, opener);
    }
    const file = await singleFile(location);
    const raster: Raster | null = await opener.open(file, ctx);
    // One missing file is not "no data here" but a dataset that cannot answer at all.
    if (!raster) throw new DatasetUnavailableError(name, 'its file was not found in the data store.');
    return new SingleRasterMosaic(raster.crs, raster);
  }
}

/** OpenTopoData lets `path` name a folder holding exactly one raster; remote paths must name the file. */
async function singleFile(location: string): Promise<string> {
  if (isRemote(location)) return location;
  const info = await stat(location).catch(() => null);
  if (!info?.isDirectory()) return location;
  const rasters = (await readdir(location)).filter((f) => /\.(tif|tiff|hgt|hgt\.zip)$/i.test(f));
  if (rasters.length !== 1) {
    throw new DatasetConfigError(
      `${location} holds ${rasters.length} rasters; a single-file dataset needs exactly one (set filename_tile_size for tiles).`,
    );
  }
  return path.join(location, rasters[0]);
}
