/**
 * npm start's LOCAL_CONCURRENCY: invocations of one function at once, i.e. its worker threads, each with its own
 * isolate and its share of BLOCK_CACHE_MB. The default follows the cores (2 to 4); a set value wins.
 */
import {
  cacheMbPerEnvironment,
  defaultConcurrency,
  drainSeconds,
  localConcurrency,
} from '../../scripts/start/local-api';

describe('LOCAL_CONCURRENCY', () => {
  it.each([
    [1, 2],
    [2, 2],
    [3, 3],
    [4, 4],
    [16, 4],
  ])('defaults to %i cores -> %i workers (one per core, at least 2, at most 4)', (cores, workers) => {
    expect(defaultConcurrency(cores)).toBe(workers);
    expect(localConcurrency({}, cores)).toBe(workers);
  });

  it('takes a set value over the default, and refuses what is not a whole number from 1', () => {
    expect(localConcurrency({ LOCAL_CONCURRENCY: '7' }, 2)).toBe(7);
    expect(localConcurrency({ LOCAL_CONCURRENCY: ' ' }, 2)).toBe(2);
    expect(() => localConcurrency({ LOCAL_CONCURRENCY: '0' }, 2)).toThrow(/LOCAL_CONCURRENCY .* got "0"/);
    expect(() => localConcurrency({ LOCAL_CONCURRENCY: '1.5' }, 2)).toThrow(/LOCAL_CONCURRENCY/);
  });

  it("splits a function's BLOCK_CACHE_MB over its workers, so memory does not grow with them", () => {
    expect(cacheMbPerEnvironment({ BLOCK_CACHE_MB: '128', LOCAL_CONCURRENCY: '2' }, 64)).toEqual({
      budgetMb: 128,
      perEnvironmentMb: 64,
    });
    expect(cacheMbPerEnvironment({ LOCAL_CONCURRENCY: '3' }, 128)).toEqual({
      budgetMb: 128,
      perEnvironmentMb: 42,
    });
    expect(cacheMbPerEnvironment({ BLOCK_CACHE_MB: '1', LOCAL_CONCURRENCY: '4' }, 128).perEnvironmentMb).toBe(
      1,
    );
  });

  it('takes SHUTDOWN_DRAIN_S in whole seconds from 0 to 600, 30 unset', () => {
    expect(drainSeconds({})).toBe(30);
    expect(drainSeconds({ SHUTDOWN_DRAIN_S: ' ' })).toBe(30);
    expect(drainSeconds({ SHUTDOWN_DRAIN_S: '0' })).toBe(0);
    expect(drainSeconds({ SHUTDOWN_DRAIN_S: '600' })).toBe(600);
    for (const bad of ['601', '-1', '1.5', '1e2', 'ten', '0x10']) {
      expect(() => drainSeconds({ SHUTDOWN_DRAIN_S: bad })).toThrow(
        `SHUTDOWN_DRAIN_S must be a whole number of seconds from 0 to 600, got "${bad}"`,
      );
    }
  });
});
