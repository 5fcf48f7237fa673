/**
 * A mosaic is what the sampler reads from: one raster, or a grid of tiles treated as one seamless surface.
 * `candidates` is synchronous and cheap (tile arithmetic); opening is async and cached.
 *
 * Which tile owns a point near a tile edge is decided by the rasters themselves, not by a plain floor: the
 * first candidate whose raster extent contains the point wins. That one rule covers SRTM (edges shared by both
 * tiles), Copernicus (pixel centres on whole degrees, south row and east column dropped, so lat 34.0 lives in
 * N33) and EU-DEM (pixel-is-area tiles that do not overlap).
 */
import {
  DatasetConfigError,
  DatasetUnavailableError,
  ObjectChangedError,
  SourceNotFoundError,
} from '../errors';
import type { Crs } from '../geo/crs';
import type { Raster } from '../raster/raster';
import type { ReadIo } from '../data/byte-source';
import type { RasterOpener } from './raster-opener';
import { ListedTileIndex, type TileIndex } from './tile-index';
import { parseTileKeyId, tileKeyId, type TileKey } from './tile-names';
import { gridBox, sharedFraction, toWgs84Box, type Box } from './wgs84-box';

export interface Mosaic {
  /** The CRS of the coordinates given to `candidates` (the filename CRS for tiles, the raster's for one file). */
  readonly crs: Crs;
  /** Tile ids that may contain (x, y), most likely first. */
  candidates(x: number, y: number): readonly string[];
  open(id: string, io?: ReadIo): Promise<Raster | null>;
  /**
   * Where rasters overlap and their painting order decides a pixel (a VRT's sources): absent, a pixel inside the
   * raster that owns a point is that raster's (tiles whose shared edges hold the same heights).
   */
  layering?(id: string): Layering;
}

export interface Layering {
  /**
   * Rectangles of the raster's own pixels [col0, row0, col1, row1) (half-open, four numbers each) that another
   * raster of the mosaic also paints: their pixels are read through the candidates, last painted first.
   */
  readonly shared: readonly number[];
  /** Whether its nodata pixels show the raster under it (a ComplexSource with `<NODATA>`). */
  readonly transparent: boolean;
}

const SINGLE = ['single'] as const;

export class SingleRasterMosaic implements Mosaic {
  readonly crs: Crs;

  constructor(
    private readonly raster: Raster,
    private readonly location: string,
    private readonly opener: RasterOpener,
  ) {
    this.crs = raster.crs;
  }

  candidates(): readonly string[] {
    return SINGLE;
  }

  /**
   * The file as the opener has it now (checked again after MISSING_TTL_S). One replaced since may hold another
   * grid or CRS, and one deleted since leaves a dataset that cannot answer: the dataset opens its mosaic again.
   */
  async open(_id?: string, io?: ReadIo): Promise<Raster> {
    const raster = await this.opener.open(this.location, io);
    if (raster !== this.raster) {
      throw new ObjectChangedError(
        this.location,
        `${this.location} was ${raster ? 'replaced' : 'deleted'} since the dataset opened it`,
      );
    }
    return raster;
  }
}

/**
 * Points closer than this fraction of a tile to its edge also try the neighbouring tile. It must exceed half a
 * pixel (Copernicus tiles own up to half a pixel beyond their whole-degree edge), which 5% does for tiles of 10
 * or more pixels across; real tiles have 1,200-3,600. The sampler opens a neighbour only for points their
 * first candidate does not hold (window-sampler.ts), so a wider band costs nothing.
 */
const EDGE_FRACTION = 0.05;

export class TiledMosaic implements Mosaic {
  constructor(
    readonly crs: Crs,
    private readonly tileSize: number,
    private readonly index: TileIndex,
    private readonly opener: RasterOpener,
    private readonly datasetName: string,
  ) {}

  /** Rasters whose placement was checked (checkPlacement). */
  private readonly placed = new WeakSet<Raster>();

  candidates(x: number, y: number): readonly string[] {
    const fx = x / this.tileSize;
    const fy = y / this.tileSize;
    const ix = Math.floor(fx);
    const iy = Math.floor(fy);
    const dxs = [0, ...(fx - ix < EDGE_FRACTION ? [-1] : fx - ix > 1 - EDGE_FRACTION ? [1] : [])];
    const dys = [0, ...(fy - iy < EDGE_FRACTION ? [-1] : fy - iy > 1 - EDGE_FRACTION ? [1] : [])];
    const ids: string[] = [];
    for (const dy of dys) for (const dx of dxs) ids.push(tileKeyId({ ix: ix + dx, iy: iy + dy }));
    return ids;
  }

  /** Every tile when the index was listed (local folders, our data layer); null for computed names. */
  listKeys(): Promise<TileKey[] | null> {
    return this.index.keys();
  }

  /** Refuses a listed tile's sidecar GDAL would apply, for up to MAX_SIDECARS_DESCRIBED of them (describe()). */
  async checkSidecars(): Promise<void> {
    if (this.index instanceof ListedTileIndex) await this.index.checkSidecars(MAX_SIDECARS_DESCRIBED);
  }

  /**
   * The first of the tile's possible locations that exists (computed names try several extensions). A listed
   * file the store lacks is a 502, not "no data here": a fault probe's two 404s for a listed tile answered null
   * (and a chain's next dataset) as success until the missing-file cache expired. The folder is listed again at
   * the next request: a tile really deleted is then no longer located, one served again is read.
   */
  async open(id: string, io?: ReadIo): Promise<Raster | null> {
    const key = parseTileKeyId(id);
    for (const location of await this.index.locate(key)) {
      const raster = await this.opener.open(location, io);
      if (raster) {
        this.checkPlacement(key, location, raster);
        return raster;
      }
      if (this.index.listed) {
        // Neither the listing nor "missing" is kept: the next request lists and opens the file again, so a file
        // the store answers again (a fault, not a deletion) is read at once rather than after MISSING_TTL_S.
        this.index.stale();
        this.opener.forget(location);
        throw missingFile(this.datasetName, 'folder listing', location);
      }
    }
    return null;
  }

  /**
   * A tile must cover the box its name gives it. One that does not (a file misnamed, or filename_epsg naming the
   * wrong CRS: degree-named tiles read as EPSG:3035 metres) answered null, "no data here", as success for the
   * points it holds, or every point of the dataset. Now a 500 naming the file and both boxes (npm start and
   * /health?deep=1 open the first listed tile, so they report it too). Checked once per raster opened.
   */
  private checkPlacement(key: TileKey, location: string, raster: Raster): void {
    if (this.placed.has(raster)) return;
    const size = this.tileSize;
    const named: Box = [key.ix * size, key.iy * size, (key.ix + 1) * size, (key.iy + 1) * size];
    const namedWgs84 = safeWgs84Box(this.crs, named);
    const heldWgs84 = safeWgs84Box(raster.crs, gridBox(raster.grid));
    if (sharedFraction(namedWgs84, heldWgs84) < MIN_SHARED_FRACTION) {
      const name = location.slice(location.lastIndexOf('/') + 1);
      const degrees = (box: Box) =>
        `[${box.map((v) => (Number.isFinite(v) ? v.toFixed(4) : '?')).join(', ')}]`;
      throw new DatasetConfigError(
        `Dataset '${this.datasetName}': ${name} holds ${degrees(heldWgs84)} (WGS84 lon/lat), but its name places ` +
          `it at ${degrees(namedWgs84)} (read in EPSG:${this.crs.epsg}, filename_tile_size ${size}): its name, ` +
          `filename_epsg or filename_tile_size is wrong.`,
      );
    }
    this.placed.add(raster);
  }
}

/** Sidecars describe() checks at once; a folder of many tiles each with statistics is checked tile by tile. */
const MAX_SIDECARS_DESCRIBED = 64;

/** A tile and the box its name gives share at least this much of the smaller (real tiles: ~100 %). */
const MIN_SHARED_FRACTION = 0.5;

/** toWgs84Box, NaN where the box lies outside the CRS's domain (which shares nothing with any box). */
function safeWgs84Box(crs: Crs, box: Box): Box {
  try {
    return toWgs84Box(crs, box);
  } catch {
    return [NaN, NaN, NaN, NaN];
  }
}

/**
 * A file the dataset's VRT or folder listing names but the store lacks: the dataset is broken, not "no data here".
 * The client is told the file's name only (a URL or S3 key names the store's host or bucket); the log gets the
 * location (the cause).
 */
export function missingFile(dataset: string, namedBy: string, location: string): DatasetUnavailableError {
  const name = location.slice(location.lastIndexOf('/') + 1);
  return new DatasetUnavailableError(
    dataset,
    `its ${namedBy} names ${name}, which is not in the data store.`,
    {
      cause: new SourceNotFoundError(location),
    },
  );
}
