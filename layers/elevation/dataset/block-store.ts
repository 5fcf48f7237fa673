/**
 * Cached block access: one module-scope cache shared by every invocation of a warm Lambda, keyed by raster URL
 * and block index. Misses open a `read-block` trace subsegment; hits and misses are counted per request.
 */
import { BlockCache } from '../data/block-cache';
import type { PixelArray, Raster } from '../raster/raster';
import type { ReadContext } from '../types';

const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

let cache = new BlockCache<PixelArray>(DEFAULT_CACHE_BYTES);

/**
 * Replaces the shared cache (settings at cold start; tests and benches for a cold cache).
 *
 * @example
 * ```ts
 * const cache = configureBlockCache(64 * 1024 * 1024);
 * assert.equal(cache.maxBytes, 64 * 1024 * 1024);
 * assert.equal(blockCache(), cache);
 * ```
 */
export function configureBlockCache(maxBytes: number): BlockCache<PixelArray> {
  cache = new BlockCache<PixelArray>(maxBytes);
  return cache;
}

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * configureBlockCache(16 * 1024 * 1024);
 * await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'bilinear');
 * assert.ok(blockCache().size > 0); // the decoded block stays for the next request
 * ```
 */
export function blockCache(): BlockCache<PixelArray> {
  return cache;
}

export function getBlock(raster: Raster, index: number, ctx: ReadContext): Promise<PixelArray> {
  const { promise, hit } = cache.getOrLoad(`${raster.cacheKey}#${index}`, raster.blockBytes, () =>
    ctx.trace.span('read-block', async (annotate) => {
      annotate('file', raster.url);
      annotate('block', index);
      annotate('cacheHit', false);
      const before = ctx.stats.rangeBytes;
      const block = await raster.readBlock(index, ctx);
      annotate('bytes', ctx.stats.rangeBytes - before);
      return block;
    }),
  );
  if (hit) {
    ctx.stats.blockCacheHits++;
  } else {
    ctx.stats.blockCacheMisses++;
    ctx.stats.blocksRead++;
  }
  return promise;
}
