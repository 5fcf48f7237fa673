/**
 * Cached block access: one module-scope cache shared by every invocation of a warm Lambda, keyed by raster URL
 * (with the object version) and block index. A block is cached as fetched and decoded so far (raster/block-rows):
 * a point that needs rows further down resumes its decode. Misses open a `read-block` trace subsegment; hits and
 * misses are counted per request. A block whose decode fails is evicted, so the next request fetches it afresh.
 */
import { BlockCache } from '../data/block-cache';
import type { BlockRows } from '../raster/block-rows';
import type { PixelArray, Raster } from '../raster/raster';
import type { ReadContext } from '../types';

const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

let cache = new BlockCache<BlockRows>(DEFAULT_CACHE_BYTES);

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
export function configureBlockCache(maxBytes: number): BlockCache<BlockRows> {
  cache = new BlockCache<BlockRows>(maxBytes);
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
export function blockCache(): BlockCache<BlockRows> {
  return cache;
}

/**
 * Block `index` with (at least) its rows `rows` decoded, counted from the block's top; the view is indexed like
 * the whole block, and only the rows asked for may be read from it (see raster/block-rows).
 */
export async function getBlock(
  raster: Raster,
  index: number,
  rows: readonly number[],
  ctx: ReadContext,
): Promise<PixelArray> {
  const key = `${raster.cacheKey}#${index}`;
  const shared = cache;
  const { promise, hit } = shared.getOrLoad(key, raster.blockBytes, () =>
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
    // Charged from now on for what it holds, and again after each decode step.
    void promise.then(
      (block) => {
        shared.recharge(key, promise, block.bytesHeld);
        block.onResize = (bytes) => shared.recharge(key, promise, bytes);
      },
      () => undefined, // the cache evicts a rejected load itself
    );
  }
  const block = await promise;
  try {
    return await block.rows(rows, ctx);
  } catch (error) {
    shared.evict(key, promise);
    throw error;
  }
}
