/**
 * Opens rasters by location and caches the *promise* of each opened header (a few KB: IFD, tile offsets), so
 * concurrent requests share one header read. A missing file is cached as `null` for `missingTtlMs` (an ocean tile
 * of Copernicus stays missing, and asking S3 again on every request would cost a round trip each time; but a
 * wrong DATA_ROOT or a deploy in progress must heal without a cold start). Other failures are evicted at once.
 * As for blocks (dataset/block-store.ts), a request that joined another request's open (another deadline) opens
 * once more under its own when that open fails, instead of answering with the other request's timeout.
 * Least recently used first out, bounded by count: 4,096 headers of a few KB to ~100 KB each stay under 100 MB.
 *
 * An opened file is checked again `missingTtlMs` after its header was read or last checked: the first request past
 * that time reads one byte of it, which fails where the object was replaced or deleted since (its version is pinned,
 * see byte-source.ts). Otherwise cached heights of a file that changed without a cache miss noticing it (a block
 * served from the cache, a single-file dataset) would be answered for the environment's life. A replaced file is
 * opened again at once; a deleted one is missing. A check the data layer fails to answer (an outage) leaves the
 * cached header in use (the bytes were verified when read) and is tried again after `missingTtlMs`.
 */
import { openByteSource, type ByteSource, type ReadIo, type RetryPolicy } from '../data/byte-source';
import { DeadlineExceededError, ObjectChangedError, refusedForGood, SourceNotFoundError } from '../errors';
import { openCogRaster } from '../raster/cog-raster';
import { isHgtLocation, openHgtRaster } from '../raster/hgt-raster';
import type { Raster } from '../raster/raster';

const MAX_OPEN_RASTERS = 4096;

export interface RasterOpenerOptions extends RetryPolicy {
  headerPrefetchBytes: number;
  /** Serve a block's rows before its whole inflate (and DEFLATE checksum); default false. */
  partialDecode?: boolean;
  /** How long a missing file stays known as missing. */
  missingTtlMs: number;
  /** Milliseconds clock (tests pass their own). */
  now?: () => number;
  /**
   * Checks every raster when its header is read (and read again, the file replaced): a throw refuses the file,
   * which is not cached (a geoid grid must cover the globe). Absent: every raster is taken.
   */
  accept?: (raster: Raster) => void;
}

interface Entry {
  promise: Promise<Raster | null>;
  /** When a `null` (missing) answer stops being trusted; Infinity while pending or for an opened raster. */
  expires: number;
  /**
   * While the header read is in flight: the deadline it runs under (its starter's). Null once it has answered, so
   * an opened raster's entry holds no request's signal and a hit on it is the cached promise itself.
   */
  pending: { signal: AbortSignal | undefined } | null;
  /** The file's source, pinned to the version its header was read from: read again to check the file. */
  source: ByteSource;
  /** When an opened raster's file is next checked; Infinity while pending or for a missing file. */
  checkAt: number;
}

export class RasterOpener {
  private readonly rasters = new Map<string, Entry>();
  /** Locations whose header was dropped as suspect (`forget(location, true)`), with how often. */
  private readonly generations = new Map<string, number>();
  private readonly now: () => number;

  constructor(private readonly options: RasterOpenerOptions) {
    this.now = options.now ?? Date.now;
  }

  /** Timeouts and retries of the rasters' reads, for other files a dataset reads (a VRT's XML). */
  get policy(): RetryPolicy {
    return { timeoutMs: this.options.timeoutMs, retries: this.options.retries };
  }

  open(location: string, io?: ReadIo): Promise<Raster | null> {
    return this.lookup(location, io, true);
  }

  private lookup(location: string, io: ReadIo | undefined, mayReopen: boolean): Promise<Raster | null> {
    const cached = this.rasters.get(location);
    if (cached && cached.expires > this.now()) {
      this.rasters.delete(location); // re-insert: most recently used last
      this.rasters.set(location, cached);
      if (cached.checkAt <= this.now()) return this.check(location, cached, io);
      if (!mayReopen || !cached.pending || cached.pending.signal === io?.signal) return cached.promise;
      // Another request's open: its failure (its deadline, a fault since cleared) is not this request's answer.
      // The failed entry is forgotten before this handler runs, so the second open starts afresh.
      return cached.promise.catch((error: unknown) => {
        if (io?.signal?.aborted || !mayHealOnReopen(error)) throw error;
        return this.lookup(location, io, false); // joins a newer open if one started meanwhile
      });
    }
    return this.start(location, io);
  }

  private start(location: string, io?: ReadIo): Promise<Raster | null> {
    const source = openByteSource(location, this.options);
    const opened = isHgtLocation(location)
      ? openHgtRaster(source, io)
      : openCogRaster(source, this.options.headerPrefetchBytes, io, {
          partialDecode: this.options.partialDecode ?? false,
          generation: this.generations.get(location),
        });
    const { accept } = this.options;
    const opening = accept
      ? opened.then((raster) => {
          accept(raster);
          return raster;
        })
      : opened;
    const entry: Entry = {
      promise: Promise.resolve(null),
      expires: Infinity,
      pending: { signal: io?.signal },
      source,
      checkAt: Infinity,
    };
    entry.promise = opening.then(
      (raster) => {
        entry.pending = null;
        entry.checkAt = this.now() + this.options.missingTtlMs;
        return raster;
      },
      (error: unknown) => {
        if (error instanceof SourceNotFoundError) {
          entry.pending = null;
          entry.expires = this.now() + this.options.missingTtlMs;
          return null;
        }
        this.forgetEntry(location, entry);
        throw error;
      },
    );
    this.rasters.delete(location);
    if (this.rasters.size >= MAX_OPEN_RASTERS)
      this.rasters.delete(this.rasters.keys().next().value as string);
    this.rasters.set(location, entry);
    return entry.promise;
  }

  /**
   * The request past an opened file's check time reads one byte of it (the others meanwhile use the cached
   * header, as before the check was due). Replaced or deleted since: its header is read again now (or it is
   * missing). The request's own deadline or a refusal (401/403, a misconfigured store) fails the request, and the next request checks;
   * any other failure keeps the cached header until the next check, `missingTtlMs` later.
   */
  private async check(location: string, entry: Entry, io: ReadIo | undefined): Promise<Raster | null> {
    entry.checkAt = this.now() + this.options.missingTtlMs;
    const raster = await entry.promise;
    let unchanged: boolean;
    try {
      unchanged = await unchangedSincePinned(entry.source, io);
    } catch (error) {
      entry.checkAt = this.now(); // not checked: the next request checks
      throw error;
    }
    if (unchanged) return raster;
    this.forgetEntry(location, entry);
    return this.lookup(location, io, false); // joins a newer open if one started meanwhile
  }

  /**
   * Drops the cached header of `location`, so the next open reads it again: it changed under us (its blocks are
   * keyed by version, so none of the old ones is served), or one of its blocks did not decode (`suspect`: the
   * blocks decoded with it are keyed apart from those of the header read next).
   */
  forget(location: string, suspect = false): void {
    this.rasters.delete(location);
    if (!suspect) return;
    const generation = (this.generations.get(location) ?? 0) + 1;
    this.generations.delete(location); // re-insert: most recent last, the oldest dropped past the bound
    this.generations.set(location, generation);
    if (this.generations.size > MAX_OPEN_RASTERS)
      this.generations.delete(this.generations.keys().next().value as string);
  }

  /** Only the entry that failed: a newer open of the same location (its successor) stays. */
  private forgetEntry(location: string, entry: Entry): void {
    if (this.rasters.get(location) === entry) this.rasters.delete(location);
  }
}

/**
 * A freshness check asks once and waits at most CHECK_TIMEOUT_MS: a failed one changes nothing (the header in use
 * stays until the next), so retries and the reads' RANGE_TIMEOUT_MS only held every request past a check time
 * (served wholly from cached blocks, it took 15 s, 3 x 5 s, while S3 hung on the check). S3's first byte comes in
 * well under 100 ms.
 */
export const CHECK_TIMEOUT_MS = 1000;
const CHECK_POLICY = { timeoutMs: CHECK_TIMEOUT_MS, retries: 0 };

/**
 * Whether a file is still the version `source` is pinned to (byte-source.ts), by reading one byte of it: false
 * when it was replaced or deleted since. The request's own deadline or a refusal (401/403, a misconfigured store) throws: not checked,
 * the caller checks again on its next request. Any other failure (an outage) counts as unchanged: the bytes read
 * before were verified, and the caller checks again after its interval. Shared by the opener's rasters and a
 * dataset's VRT file, so both follow one rule.
 */
export async function unchangedSincePinned(source: ByteSource, io: ReadIo | undefined): Promise<boolean> {
  try {
    await source.read(0, 1, { ...io, retry: CHECK_POLICY });
    return true;
  } catch (error) {
    if (error instanceof ObjectChangedError) return false;
    if (error instanceof DeadlineExceededError || refusedForGood(error)) throw error;
    return true;
  }
}

/**
 * A refusal (401/403, a misconfigured store) answers a second header read the same way, so it is not retried. (A missing file is no
 * failure here but a cached `null`, and a header read is what pins an object's version, so it cannot find it
 * changed.)
 */
function mayHealOnReopen(error: unknown): boolean {
  return !refusedForGood(error);
}
