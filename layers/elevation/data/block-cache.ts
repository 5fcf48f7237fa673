/**
 * A byte-bounded LRU of *promises* of decoded blocks, shared by every invocation of a warm Lambda (module scope).
 * Concurrent requests for the same block share one fetch+decode; a rejected promise is evicted at once so a
 * transient failure never poisons the cache.
 *
 * Memory: each entry is charged the decoded size of a whole block (blockWidth x blockHeight x bytes per sample)
 * while in flight, known before the fetch; once loaded, what it holds (`recharge`): a partially decoded block
 * holds its decoded rows plus its compressed bytes and decoder state (see raster/block-rows), a whole one its
 * decoded size. A 1024x1024 Float32 block is 4 MiB decoded (~2.3 MB compressed), a 512x512 Int16 block 0.5 MiB;
 * the default 512 MiB therefore holds 128 to 1,024 whole blocks.
 */
export interface CacheCounters {
  hits: number;
  misses: number;
  evictions: number;
}

interface Entry<T> {
  promise: Promise<T>;
  bytes: number;
}

export class BlockCache<T> {
  private readonly entries = new Map<string, Entry<T>>();
  private bytesUsed = 0;
  readonly counters: CacheCounters = { hits: 0, misses: 0, evictions: 0 };

  constructor(readonly maxBytes: number) {}

  get size(): number {
    return this.entries.size;
  }

  get bytes(): number {
    return this.bytesUsed;
  }

  /** The cached promise, refreshed as most recently used; `undefined` on a miss (not counted). */
  peek(key: string): Promise<T> | undefined {
    const entry = this.entries.get(key);
    if (!entry) return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry.promise;
  }

  /** Returns the cached promise or starts `load`; `hit` tells which, for per-request accounting. */
  getOrLoad(key: string, bytes: number, load: () => Promise<T>): { promise: Promise<T>; hit: boolean } {
    const cached = this.peek(key);
    if (cached) {
      this.counters.hits++;
      return { promise: cached, hit: true };
    }
    this.counters.misses++;
    const promise = load();
    const entry: Entry<T> = { promise, bytes };
    this.entries.set(key, entry);
    this.bytesUsed += bytes;
    promise.catch(() => {
      if (this.entries.get(key) === entry) this.remove(key, entry);
    });
    this.evictOverflow(key);
    return { promise, hit: false };
  }

  /**
   * Charges the entry holding `promise` `bytes` from now on (a block that decoded more rows), evicting others
   * to stay within bounds; a no-op once that entry has been evicted or replaced.
   */
  recharge(key: string, promise: Promise<T>, bytes: number): void {
    const entry = this.entries.get(key);
    if (!entry || entry.promise !== promise) return;
    this.bytesUsed += bytes - entry.bytes;
    entry.bytes = bytes;
    this.evictOverflow(key);
  }

  /** Drops the entry holding `promise` (its value turned out unusable); a no-op if it was replaced already. */
  evict(key: string, promise: Promise<T>): void {
    const entry = this.entries.get(key);
    if (entry && entry.promise === promise) this.remove(key, entry);
  }

  clear(): void {
    this.entries.clear();
    this.bytesUsed = 0;
  }

  private remove(key: string, entry: Entry<T>): void {
    this.entries.delete(key);
    this.bytesUsed -= entry.bytes;
  }

  /** Evicts least recently used entries until within budget, never the entry just added. */
  private evictOverflow(keep: string): void {
    for (const [key, entry] of this.entries) {
      if (this.bytesUsed <= this.maxBytes) return;
      if (key === keep) continue;
      this.remove(key, entry);
      this.counters.evictions++;
    }
  }
}
