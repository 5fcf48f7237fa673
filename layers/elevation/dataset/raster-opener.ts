/**
 * Opens rasters by location and caches the *promise* of each opened header (a few KB: IFD, tile offsets), so
 * concurrent requests share one header read. Missing files are cached as `null` (an ocean tile of Copernicus
 * stays missing; asking S3 again on every request would cost a round trip each time); other failures are evicted.
 * Bounded by count: 4,096 headers of a few KB to ~100 KB each stay well under 100 MB.
 */
import { openByteSource, type RetryPolicy } from '../data/byte-source';
import { SourceNotFoundError } from '../errors';
import { openCogRaster } from '../raster/cog-raster';
import { isHgtLocation, openHgtRaster } from '../raster/hgt-raster';
import type { Raster } from '../raster/raster';
import type { ReadStats } from '../types';

const MAX_OPEN_RASTERS = 4096;

export interface RasterOpenerOptions extends RetryPolicy {
  headerPrefetchBytes: number;
}

export class RasterOpener {
  private readonly rasters = new Map<string, Promise<Raster | null>>();

  constructor(private readonly options: RasterOpenerOptions) {}

  open(location: string, stats?: ReadStats): Promise<Raster | null> {
    const cached = this.rasters.get(location);
    if (cached) return cached;
    const source = openByteSource(location, this.options);
    const opening = isHgtLocation(location)
      ? openHgtRaster(source, stats)
      : openCogRaster(source, this.options.headerPrefetchBytes, stats);
    const promise = opening.catch((error: unknown) => {
      if (error instanceof SourceNotFoundError) return null;
      this.rasters.delete(location);
      throw error;
    });
    if (this.rasters.size >= MAX_OPEN_RASTERS)
      this.rasters.delete(this.rasters.keys().next().value as string);
    this.rasters.set(location, promise);
    return promise;
  }
}
