/**
 * A request that joined another request's block load does not inherit that load's failure (block-store.ts): it
 * fetches the block once more under its own deadline. Real BlockCache and getBlock; the raster is a stand-in whose
 * reads fail or succeed on command.
 */
import { configureBlockCache } from '../../../layers/elevation';
import { getBlock } from '../../../layers/elevation/dataset/block-store';
import {
  DataSourceTimeoutError,
  DeadlineExceededError,
  SourceNotFoundError,
} from '../../../layers/elevation/errors';
import { completeBlock, type BlockRows } from '../../../layers/elevation/raster/block-rows';
import type { Raster } from '../../../layers/elevation/raster/raster';
import { newReadStats, type ReadContext } from '../../../layers/elevation/types';
import { recordingTrace } from '../../support/recording-trace';

/** A raster whose n-th block read (0-based) settles as `outcomes[n]` says, each after `delayMs`. */
function scriptedRaster(outcomes: (Error | 'ok')[], delayMs = 20): { raster: Raster; reads: () => number } {
  let reads = 0;
  const raster = {
    url: 'http://data/tile.tif',
    cacheKey: `http://data/tile.tif@${Math.random()}`,
    blockBytes: 16,
    readBlock: (_index: number, ctx: ReadContext): Promise<BlockRows> => {
      const outcome = outcomes[reads++] ?? new Error('unexpected read');
      return new Promise((resolve, reject) => {
        const timer = setTimeout(() => {
          if (outcome === 'ok') resolve(completeBlock(new Float32Array([1, 2, 3, 4]), 2));
          else reject(outcome);
        }, delayMs);
        // A read stops at its starter's deadline, as the range readers do.
        ctx.signal?.addEventListener('abort', () => {
          clearTimeout(timer);
          reject(ctx.signal?.reason as Error);
        });
      });
    },
  } as unknown as Raster;
  return { raster, reads: () => reads };
}

function request(signal: AbortSignal = new AbortController().signal): ReadContext {
  return { stats: newReadStats(), trace: recordingTrace([]), signal };
}

beforeEach(() => configureBlockCache(1024 * 1024));

describe('getBlock: a joiner of another request’s load', () => {
  it('reloads under its own deadline when that load times out, and gets the block', async () => {
    const { raster, reads } = scriptedRaster([new DataSourceTimeoutError('no answer in 300 ms'), 'ok']);
    const first = request();
    const joiner = request();
    const started = getBlock(raster, 0, [0], first);
    const joined = getBlock(raster, 0, [0, 1], joiner);
    await expect(started).rejects.toThrow(DataSourceTimeoutError);
    await expect(joined).resolves.toEqual(new Float32Array([1, 2, 3, 4]));
    expect(reads()).toBe(2);
    expect([joiner.stats.blockCacheHits, joiner.stats.blockCacheMisses]).toEqual([1, 1]);
  });

  it("reloads when the load was cut by its starter's deadline", async () => {
    const { raster, reads } = scriptedRaster(['ok', 'ok'], 50);
    const deadline = new AbortController();
    const started = getBlock(raster, 0, [0], request(deadline.signal));
    const joined = getBlock(raster, 0, [0], request());
    deadline.abort(new DeadlineExceededError('Request deadline of 10 ms passed'));
    await expect(started).rejects.toThrow(DeadlineExceededError);
    await expect(joined).resolves.toEqual(new Float32Array([1, 2, 3, 4]));
    expect(reads()).toBe(2);
  });

  it('reloads once only: a second failure is its answer', async () => {
    const { raster, reads } = scriptedRaster([
      new DataSourceTimeoutError('first'),
      new DataSourceTimeoutError('second'),
      'ok',
    ]);
    const started = getBlock(raster, 0, [0], request());
    const joined = getBlock(raster, 0, [0], request());
    await expect(started).rejects.toThrow('first');
    await expect(joined).rejects.toThrow('second');
    expect(reads()).toBe(2);
  });

  it("does not reload again when its reload joined a third request's load that failed too", async () => {
    const { raster, reads } = scriptedRaster([
      new DataSourceTimeoutError('first'),
      new DataSourceTimeoutError('second'),
      'ok',
    ]);
    const started = getBlock(raster, 0, [0], request());
    const reloads = getBlock(raster, 0, [0], request()); // its reload starts the second load
    const joinsTheReload = getBlock(raster, 0, [0], request()); // reloads too, and joins that second load
    await expect(started).rejects.toThrow('first');
    await expect(reloads).rejects.toThrow('second');
    await expect(joinsTheReload).rejects.toThrow('second');
    expect(reads()).toBe(2);
  });

  it('reloads for a caller without a deadline of its own (the library used directly)', async () => {
    const { raster, reads } = scriptedRaster([new DataSourceTimeoutError('no answer'), 'ok']);
    const started = getBlock(raster, 0, [0], request());
    const joined = getBlock(raster, 0, [0], { stats: newReadStats(), trace: recordingTrace([]) });
    await expect(started).rejects.toThrow('no answer');
    await expect(joined).resolves.toEqual(new Float32Array([1, 2, 3, 4]));
    expect(reads()).toBe(2);
  });

  it('does not reload what a second read answers the same way (a missing object)', async () => {
    const { raster, reads } = scriptedRaster([new SourceNotFoundError('http://data/tile.tif'), 'ok']);
    const started = getBlock(raster, 0, [0], request());
    const joined = getBlock(raster, 0, [0], request());
    await expect(started).rejects.toThrow(SourceNotFoundError);
    await expect(joined).rejects.toThrow(SourceNotFoundError);
    expect(reads()).toBe(1);
  });

  it('does not reload for points of the same request (one deadline): its failure is not delayed', async () => {
    const { raster, reads } = scriptedRaster([new DataSourceTimeoutError('no answer'), 'ok']);
    const one = request();
    const results = await Promise.allSettled([getBlock(raster, 0, [0], one), getBlock(raster, 0, [1], one)]);
    expect(results.map((r) => r.status)).toEqual(['rejected', 'rejected']);
    expect(reads()).toBe(1);
  });

  it('does not reload once its own deadline has passed', async () => {
    const { raster, reads } = scriptedRaster([new DataSourceTimeoutError('no answer'), 'ok']);
    const own = new AbortController();
    const started = getBlock(raster, 0, [0], request());
    const joined = getBlock(raster, 0, [0], { ...request(), signal: own.signal });
    own.abort(new DeadlineExceededError('passed'));
    await expect(started).rejects.toThrow('no answer');
    await expect(joined).rejects.toThrow('no answer');
    expect(reads()).toBe(1);
  });
});
