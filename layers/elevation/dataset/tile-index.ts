/**
 * Where each tile of a tiled dataset lives. Where the folder can be listed (a local folder, our data layer) the
 * listing says which tiles exist, so a missing tile costs no request; it is listed again after `relistMs` so a
 * tile added later is found without a cold start. Where nothing can be listed (plain HTTPS, S3 without
 * ListBucket) names are computed from templates, tried in order, and a missing object simply answers "no data".
 */
import path from 'node:path';
import { listFolder } from '../data/folder-listing';
import { DatasetConfigError } from '../errors';
import { SIDECAR } from './sidecar';
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

/** A listed tile: its key, its file, its listed sidecar and (once asked) the check of it. */
type Tiles = Map<string, { key: TileKey; file: string; sidecar: string | null; checked?: Promise<void> }>;

/** Refuses a tile's sidecar that GDAL would apply (sidecar.ts); given the raster and the sidecar's location. */
export type SidecarCheck = (raster: string, sidecar: string) => Promise<void>;

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
    private readonly checkSidecar: SidecarCheck = async () => undefined,
  ) {
    this.listing = Promise.resolve(tilesOf(folder, files, tileSize));
    this.listedAt = now();
  }

  /**
   * A tile with a listed sidecar is located once its sidecar is found to change no height (checked once per
   * listing: a sidecar edited since is read again after relistMs). A check the store fails is tried again by the
   * next request; a sidecar refused stays refused until the next listing.
   */
  async locate(key: TileKey): Promise<readonly string[]> {
    const tile = (await this.list()).get(tileKeyId(key));
    if (!tile) return [];
    if (tile.sidecar !== null) {
      tile.checked ??= this.checkSidecar(tile.file, tile.sidecar).catch((error: unknown) => {
        if (!(error instanceof DatasetConfigError)) tile.checked = undefined;
        throw error;
      });
      await tile.checked;
    }
    return [tile.file];
  }

  async keys(): Promise<TileKey[]> {
    return [...(await this.list()).values()].map((tile) => tile.key);
  }

  /**
   * Checks the sidecars of up to `max` listed tiles now (describe(): npm start, /health?deep=1), so one GDAL would
   * apply is reported before a request needs its tile; the others are checked when their tiles are first located.
   */
  async checkSidecars(max: number): Promise<void> {
    const withSidecar = [...(await this.list()).values()]
      .filter((tile) => tile.sidecar !== null)
      .slice(0, max);
    await Promise.all(withSidecar.map((tile) => this.locate(tile.key)));
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

/** The listed sidecar (`<raster>.aux.xml`, in any case) of each raster that has one. */
export function listedSidecars(
  folder: string,
  listed: readonly string[],
  rasters: readonly string[],
): Map<string, string> {
  const byName = new Map(listed.map((f) => [f.toLowerCase(), f]));
  const sidecars = new Map<string, string>();
  for (const raster of rasters) {
    const sidecar = byName.get(`${raster}${SIDECAR}`.toLowerCase());
    if (sidecar !== undefined) sidecars.set(joinLocation(folder, raster), joinLocation(folder, sidecar));
  }
  return sidecars;
}

/**
 * Two rasters named for one corner are refused, as OpenTopoData refuses them ("SRTM filenames must be unique"):
 * picking one would be a guess, and a wrong one answers wrong heights as success (Copernicus's full distribution
 * holds `AUXFILES/…_EDM.tif`, an editing mask, beside `DEM/…_DEM.tif`, both named for the same corner).
 */
function tilesOf(folder: string, files: readonly string[], tileSize: number): Tiles {
  const sidecars = listedSidecars(folder, files, files.filter(isRasterFile));
  const tiles: Tiles = new Map();
  const unnamed: string[] = [];
  for (const entry of [...files].sort()) {
    if (!isRasterFile(entry)) continue;
    const corner = tryParseTileCorner(entry.split('/').pop() ?? entry);
    if (!corner) {
      unnamed.push(entry);
      continue;
    }
    const file = joinLocation(folder, entry);
    const key = tileKeyOfCorner(corner, tileSize);
    // Half-degree tiles (N48x5E009x5) read as 1° tiles: OpenTopoData never finds them and answers null.
    if (!key) {
      throw new DatasetConfigError(
        `${file} is named for the corner ${corner.y}, ${corner.x} (in the filename CRS), not a whole number of tiles of filename_tile_size ${tileSize} from 0: set filename_tile_size to the tiles' size, a fraction as text ('0.5').`,
      );
    }
    const other = tiles.get(tileKeyId(key));
    if (other) {
      throw new DatasetConfigError(
        `${other.file} and ${file} are both named for the tile at ${corner.y}, ${corner.x} (lower-left corner in the filename CRS): tile names must be unique. Keep one of them in the dataset's folder.`,
      );
    }
    tiles.set(tileKeyId(key), { key, file, sidecar: sidecars.get(file) ?? null });
  }
  // A tile is found by the corner in its name: one without would never be read, its area answered null as success.
  // OpenTopoData refuses such a folder too ("Unknown dataset type").
  if (unnamed.length > 0 && tiles.size > 0) {
    const shown =
      unnamed.slice(0, 3).join(', ') + (unnamed.length > 3 ? ` and ${unnamed.length - 3} more` : '');
    throw new DatasetConfigError(
      `${folder} holds tiles named by their corner and rasters that are not (${shown}): those would never be read. Name each by its lower-left corner (e.g. N48E009.tif) or move it out of the folder.`,
    );
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

/**
 * Joins a folder or URL prefix and a relative ('/'-separated) file name. The name is a file's name, never part of
 * a URL: under an HTTP(S) prefix each of its segments is percent-encoded, or `dem%41.tif` would be read as
 * `demA.tif` (another file's heights, answered as 200) and `dem#2.tif` as `dem`. S3 keys stay as written: the
 * SDK encodes them.
 */
export function joinLocation(prefix: string, name: string): string {
  if (/^https?:\/\//i.test(prefix)) return joinUrl(prefix, name.split('/').map(encodeURIComponent).join('/'));
  if (/^s3:\/\//i.test(prefix)) return joinUrl(prefix, name);
  return path.join(prefix, name);
}

function joinUrl(prefix: string, name: string): string {
  return prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
}
