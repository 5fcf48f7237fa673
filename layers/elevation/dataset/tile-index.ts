/**
 * Where each tile of a tiled dataset lives. Where the folder can be listed (a local folder, our data layer) the
 * listing says which tiles exist, so a missing tile costs no request; it is listed again after `relistMs` so a
 * tile added later is found without a cold start. Where nothing can be listed (plain HTTPS, S3 without
 * ListBucket) names are computed from templates, tried in order, and a missing object simply answers "no data".
 */
import path from 'node:path';
import { listFolder } from '../data/folder-listing';
import { DatasetConfigError } from '../errors';
import {
  formatTileName,
  isRasterFile,
  tileKeyId,
  tileKeyOfCorner,
  tryParseTileCorner,
  type TileKey,
} from './tile-names';

export interface TileIndex {
  /** URLs or paths that may hold the tile, most likely first; empty when it is known not to exist. */
  locate(key: TileKey): Promise<readonly string[]>;
  /** Every tile key when the index was listed; null for computed (unlistable) indexes. */
  keys(): Promise<TileKey[] | null>;
  /** Whether `locate` answers files a listing says exist (not names that may or may not). */
  readonly listed: boolean;
  /** A located file the store lacks: a listing is out of date (or the store faulty); list again when next asked. */
  stale(): void;
}

type Tiles = Map<string, { key: TileKey; file: string }>;

export class ListedTileIndex implements TileIndex {
  readonly listed = true;
  private listing: Promise<Tiles>;
  private listedAt: number;

  constructor(
    private readonly folder: string,
    private readonly tileSize: number,
    files: readonly string[],
    private readonly relistMs: number,
    private readonly now: () => number = Date.now,
  ) {
    this.listing = Promise.resolve(tilesOf(folder, files, tileSize));
    this.listedAt = now();
  }

  async locate(key: TileKey): Promise<readonly string[]> {
    const tile = (await this.list()).get(tileKeyId(key));
    return tile ? [tile.file] : [];
  }

  async keys(): Promise<TileKey[]> {
    return [...(await this.list()).values()].map((tile) => tile.key);
  }

  stale(): void {
    this.listedAt = -Infinity;
  }

  private list(): Promise<Tiles> {
    if (this.now() - this.listedAt <= this.relistMs) return this.listing;
    this.listedAt = this.now();
    const previous = this.listing;
    // A folder that can no longer be listed (or fails to) keeps its last good listing; tried again after relistMs.
    // A listing that holds two files for one tile is a configuration error: requests fail until it is mended.
    this.listing = listFolder(this.folder).then(
      (files) => (files === null ? previous : tilesOf(this.folder, files, this.tileSize)),
      () => previous,
    );
    return this.listing;
  }
}

/** GDAL's sidecar of a raster: `<raster>.aux.xml` (its Persistent Auxiliary Metadata). */
export const SIDECAR = '.aux.xml';

/**
 * A raster with GDAL's sidecar beside it: its nodata, scale/offset or even georeferencing, which GDAL (and so
 * OpenTopoData, through rasterio) applies over the file's own and this reader does not read. Answering without it
 * would answer other heights than GDAL as success (an <Offset> of 100 m; a <NoDataValue> answered as a height).
 */
export function sidecarError(raster: string): DatasetConfigError {
  return new DatasetConfigError(
    `${raster}${SIDECAR} holds GDAL metadata (nodata, scale/offset or georeferencing) that GDAL and OpenTopoData apply over the file's own, and this API does not read: write it into the file (gdal_translate the file to a new one) or remove the ${SIDECAR} file.`,
  );
}

/** Refuses a listing where a raster has a sidecar (in any case: refusing one GDAL might skip beats answering without one it reads). */
export function refuseListedSidecar(
  folder: string,
  listed: readonly string[],
  rasters: readonly string[],
): void {
  const names = new Set(listed.map((f) => f.toLowerCase()));
  const raster = rasters.find((r) => names.has(`${r}${SIDECAR}`.toLowerCase()));
  if (raster !== undefined) throw sidecarError(joinLocation(folder, raster));
}

/**
 * Two rasters named for one corner are refused, as OpenTopoData refuses them ("SRTM filenames must be unique"):
 * picking one would be a guess, and a wrong one answers wrong heights as success (Copernicus's full distribution
 * holds `AUXFILES/…_EDM.tif`, an editing mask, beside `DEM/…_DEM.tif`, both named for the same corner).
 */
function tilesOf(folder: string, files: readonly string[], tileSize: number): Tiles {
  refuseListedSidecar(folder, files, files.filter(isRasterFile));
  const tiles: Tiles = new Map();
  for (const entry of [...files].sort()) {
    if (!isRasterFile(entry)) continue;
    const corner = tryParseTileCorner(entry.split('/').pop() ?? entry);
    if (!corner) continue;
    const key = tileKeyOfCorner(corner, tileSize);
    const file = joinLocation(folder, entry);
    const other = tiles.get(tileKeyId(key));
    if (other) {
      throw new DatasetConfigError(
        `${other.file} and ${file} are both named for the tile at ${corner.y}, ${corner.x} (lower-left corner in the filename CRS): tile names must be unique. Keep one of them in the dataset's folder.`,
      );
    }
    tiles.set(tileKeyId(key), { key, file });
  }
  return tiles;
}

export class TemplateTileIndex implements TileIndex {
  readonly listed = false;
  private readonly templates: readonly string[];

  constructor(
    private readonly prefix: string,
    templates: string | readonly string[],
    private readonly tileSize: number,
  ) {
    this.templates = typeof templates === 'string' ? [templates] : templates;
  }

  locate(key: TileKey): Promise<readonly string[]> {
    return Promise.resolve(
      this.templates.map((t) => joinLocation(this.prefix, formatTileName(t, key, this.tileSize))),
    );
  }

  keys(): Promise<null> {
    return Promise.resolve(null);
  }

  /** Computed names: a missing file is a tile that does not exist (an ocean tile), nothing to list again. */
  stale(): void {}
}

/** Joins a folder or URL prefix and a relative ('/'-separated) name. */
export function joinLocation(prefix: string, name: string): string {
  if (/^(https?|s3):\/\//i.test(prefix)) return prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
  return path.join(prefix, name);
}
