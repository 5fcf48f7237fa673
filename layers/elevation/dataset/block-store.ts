/**
 * Cached block access: one module-scope cache shared by every invocation of a warm Lambda, keyed by raster URL
 * (with the object version) and block index. A block is cached as fetched and decoded so far (raster/block-rows):
 * a point that needs rows further down resumes its decode. Misses open a `read-block` trace subsegment; hits and
 * misses are counted per request. A block whose decode fails is evicted, so the next request fetches it afresh.
 *
 * A load runs under the deadline (signal) of the request that started it. A request that joined another request's
 * load does not inherit its failure: when that load fails (the other request's deadline passed, or its read timed
 * out during a fault that has since cleared), the joiner fetches the block once more under its own deadline. Why:
 * one clean-clone CI run answered 504 to the first request after a data-layer fault cleared (test/e2e/
 * reliability.test.ts, not reproduced since); joining a read still hanging from the fault is the path we found to
 * it. Joiners within one request share its deadline, so they do not retry: a request's failure is not delayed by a
 * second load of the same block.
 */
import { BlockCache } from '../data/block-cache';
import { ObjectChangedError, refusedForGood, SourceNotFoundError } from '../errors';
import type { BlockRows } from '../raster/block-rows';
import type { PixelArray, Raster } from '../raster/raster';
import type { ReadContext } from '../types';

const DEFAULT_CACHE_BYTES = 512 * 1024 * 1024;

let cache = new BlockCache<BlockRows>(DEFAULT_CACHE_BYTES);
/**
 * The deadline each load in flight runs under (its starter's), to tell another request's load from one's own. A
 * load that succeeds is dropped from it, so a cached block holds no request's signal.
 */
const loadSignals = new WeakMap<Promise<BlockRows>, AbortSignal | undefined>();

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
  return getBlockOnce(raster, index, rows, ctx, true);
}

async function getBlockOnce(
  raster: Raster,
  index: number,
  rows: readonly number[],
  ctx: ReadContext,
  mayReload: boolean,
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
    loadSignals.set(promise, ctx.signal);
    ctx.stats.blockCacheMisses++;
    ctx.stats.blocksRead++;
    // Charged from now on for what it holds, and again after each decode step.
    void promise.then(
      (block) => {
        loadSignals.delete(promise);
        shared.recharge(key, promise, block.bytesHeld);
        block.onResize = (bytes) => shared.recharge(key, promise, bytes);
      },
      () => undefined, // the cache evicts a rejected load itself
    );
  }
  let block: BlockRows;
  try {
    block = await promise;
  } catch (error) {
    // The cache has evicted the failed load already (its own handler ran first), so this starts a fresh one.
    if (mayReload && startedElsewhere(promise, ctx) && mayHealOnReload(error))
      return getBlockOnce(raster, index, rows, ctx, false);
    throw error;
  }
  try {
    return await block.rows(rows, ctx);
  } catch (error) {
    shared.evict(key, promise);
    throw error;
  }
}

/**
 * Whether a load was started by another request (another deadline; a load this request started carries its own),
 * and this request's deadline is still open.
 */
function startedElsewhere(promise: Promise<BlockRows>, ctx: ReadContext): boolean {
  return loadSignals.has(promise) && loadSignals.get(promise) !== ctx.signal && !ctx.signal?.aborted;
}

/** Failures a second read of the same object version answers the same way are not retried. */
function mayHealOnReload(error: unknown): boolean {
  return !(
    error instanceof SourceNotFoundError ||
    refusedForGood(error) ||
    error instanceof ObjectChangedError
  );
}
