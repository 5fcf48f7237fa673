import { BlockCache } from '../../../layers/elevation/data/block-cache';

/** A promise the test settles by hand, to observe in-flight behaviour. */
function deferred<T>() {
  let resolve!: (value: T) => void;
  let reject!: (error: unknown) => void;
  const promise = new Promise<T>((res, rej) => {
    resolve = res;
    reject = rej;
  });
  return { promise, resolve, reject };
}

const BLOCK = 40; // bytes charged per test entry

describe('BlockCache', () => {
  it('stays within its byte bound by evicting least recently used entries', async () => {
    const cache = new BlockCache<string>(100);
    for (const key of ['a', 'b', 'c']) cache.getOrLoad(key, BLOCK, () => Promise.resolve(key));
    expect(cache.bytes).toBe(80);
    expect(cache.size).toBe(2);
    expect(cache.peek('a')).toBeUndefined();
    await expect(cache.peek('c')).resolves.toBe('c');
    expect(cache.counters.evictions).toBe(1);
  });

  it('keeps recently used entries: a hit moves the entry to the back of the LRU order', () => {
    const cache = new BlockCache<string>(100);
    cache.getOrLoad('a', BLOCK, () => Promise.resolve('a'));
    cache.getOrLoad('b', BLOCK, () => Promise.resolve('b'));
    expect(cache.getOrLoad('a', BLOCK, () => Promise.resolve('reloaded')).hit).toBe(true);
    cache.getOrLoad('c', BLOCK, () => Promise.resolve('c'));
    expect(cache.peek('a')).toBeDefined();
    expect(cache.peek('b')).toBeUndefined();
  });

  it('counts hits and misses', () => {
    const cache = new BlockCache<number>(1000);
    cache.getOrLoad('a', 1, () => Promise.resolve(1));
    cache.getOrLoad('a', 1, () => Promise.resolve(1));
    cache.getOrLoad('a', 1, () => Promise.resolve(1));
    cache.getOrLoad('b', 1, () => Promise.resolve(2));
    expect(cache.counters).toEqual({ hits: 2, misses: 2, evictions: 0 });
  });

  it('shares one in-flight load between concurrent callers', async () => {
    const cache = new BlockCache<string>(1000);
    const pending = deferred<string>();
    const load = jest.fn(() => pending.promise);
    const first = cache.getOrLoad('block', BLOCK, load);
    const second = cache.getOrLoad('block', BLOCK, load);
    expect(load).toHaveBeenCalledTimes(1);
    expect(second.hit).toBe(true);
    expect(second.promise).toBe(first.promise);
    pending.resolve('pixels');
    await expect(second.promise).resolves.toBe('pixels');
  });

  it('charges in-flight entries, so a burst of misses cannot exceed the bound', () => {
    const cache = new BlockCache<string>(100);
    for (const key of ['a', 'b', 'c', 'd']) cache.getOrLoad(key, BLOCK, () => deferred<string>().promise);
    expect(cache.bytes).toBeLessThanOrEqual(100);
  });

  it('evicts a rejected load so the next call retries instead of replaying the failure', async () => {
    const cache = new BlockCache<string>(1000);
    const failing = cache.getOrLoad('block', BLOCK, () => Promise.reject(new Error('503')));
    await expect(failing.promise).rejects.toThrow('503');
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
    const retry = cache.getOrLoad('block', BLOCK, () => Promise.resolve('pixels'));
    expect(retry.hit).toBe(false);
    await expect(retry.promise).resolves.toBe('pixels');
  });

  it('does not let a late rejection evict a newer entry under the same key', async () => {
    const cache = new BlockCache<string>(BLOCK);
    const slow = deferred<string>();
    const old = cache.getOrLoad('a', BLOCK, () => slow.promise);
    cache.getOrLoad('b', BLOCK, () => Promise.resolve('b')); // evicts 'a' (over budget)
    cache.getOrLoad('a', BLOCK, () => Promise.resolve('fresh')); // re-added, evicts 'b'
    slow.reject(new Error('late failure'));
    await expect(old.promise).rejects.toThrow('late failure');
    await expect(cache.peek('a')).resolves.toBe('fresh');
    expect(cache.bytes).toBe(BLOCK);
  });

  it('keeps a single entry larger than the whole budget (never evicts the entry just added)', async () => {
    const cache = new BlockCache<string>(10);
    const { promise } = cache.getOrLoad('huge', 50, () => Promise.resolve('huge'));
    await expect(promise).resolves.toBe('huge');
    expect(cache.size).toBe(1);
  });

  it('clear() empties it and resets the byte count', () => {
    const cache = new BlockCache<string>(1000);
    cache.getOrLoad('a', BLOCK, () => Promise.resolve('a'));
    cache.clear();
    expect(cache.size).toBe(0);
    expect(cache.bytes).toBe(0);
  });

  it('evicts only the entry holding the promise given, and nothing for a key it does not hold', async () => {
    const cache = new BlockCache<string>(10 * BLOCK);
    const first = cache.getOrLoad('a', BLOCK, () => Promise.resolve('unusable'));
    cache.evict('a', first.promise);
    expect(cache.peek('a')).toBeUndefined();
    const second = cache.getOrLoad('a', BLOCK, () => Promise.resolve('good'));
    cache.evict('a', first.promise); // a stale eviction: the value it found unusable is gone already
    await expect(cache.peek('a')).resolves.toBe('good');
    expect(() => cache.evict('never-added', second.promise)).not.toThrow();
    expect([cache.size, cache.bytes]).toEqual([1, BLOCK]);
  });
});
