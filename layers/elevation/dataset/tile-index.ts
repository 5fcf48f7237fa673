/**
 * Where each tile of a tiled dataset lives. A local folder is listed once (recursively, like OpenTopoData) so
 * missing tiles are known without touching the disk again; a remote prefix (http/s3) is never listed: names are
 * computed from the template and a missing object simply answers "no data".
 */
import { readdir } from 'node:fs/promises';
import path from 'node:path';
import { DatasetConfigError } from '../errors';
import { formatTileName, tileKeyId, tileKeyOfCorner, tryParseTileCorner, type TileKey } from './tile-names';

const RASTER_FILE = /\.(tif|tiff|hgt|hgt\.zip)$/i;

export interface TileIndex {
  /** URL or path of the tile, or null when it is known not to exist. */
  locate(key: TileKey): Promise<string | null>;
  /** Every tile key when the index was listed; null for remote (unlistable) indexes. */
  keys(): Promise<TileKey[] | null>;
}

export class LocalTileIndex implements TileIndex {
  private listing: Promise<Map<string, { key: TileKey; file: string }>> | null = null;

  constructor(
    private readonly folder: string,
    private readonly tileSize: number,
  ) {}

  async locate(key: TileKey): Promise<string | null> {
    return (await this.list()).get(tileKeyId(key))?.file ?? null;
  }

  async keys(): Promise<TileKey[]> {
    return [...(await this.list()).values()].map((tile) => tile.key);
  }

  private list(): Promise<Map<string, { key: TileKey; file: string }>> {
    this.listing ??= this.scan().catch((error: unknown) => {
      this.listing = null;
      throw error;
    });
    return this.listing;
  }

  private async scan(): Promise<Map<string, { key: TileKey; file: string }>> {
    let entries: string[];
    try {
      entries = await readdir(this.folder, { recursive: true });
    } catch (error) {
      throw new DatasetConfigError(`Cannot list tile folder ${this.folder}: ${(error as Error).message}`, {
        cause: error,
      });
    }
    const tiles = new Map<string, { key: TileKey; file: string }>();
    for (const entry of entries.sort()) {
      if (!RASTER_FILE.test(entry)) continue;
      const corner = tryParseTileCorner(path.basename(entry));
      if (!corner) continue;
      const key = tileKeyOfCorner(corner, this.tileSize);
      if (!tiles.has(tileKeyId(key))) tiles.set(tileKeyId(key), { key, file: path.join(this.folder, entry) });
    }
    return tiles;
  }
}

export class TemplateTileIndex implements TileIndex {
  constructor(
    private readonly prefix: string,
    private readonly template: string,
    private readonly tileSize: number,
  ) {}

  locate(key: TileKey): Promise<string> {
    return Promise.resolve(joinLocation(this.prefix, formatTileName(this.template, key, this.tileSize)));
  }

  keys(): Promise<null> {
    return Promise.resolve(null);
  }
}

/** Joins a folder or URL prefix and a relative name. */
export function joinLocation(prefix: string, name: string): string {
  if (/^(https?|s3):\/\//i.test(prefix)) return prefix.endsWith('/') ? prefix + name : `${prefix}/${name}`;
  return path.join(prefix, name);
}
