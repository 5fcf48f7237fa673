/** The `k6` module: check, group, sleep, fail, randomSeed. */
import type { Runtime } from '../runtime.ts';

type Checker = (value: unknown) => unknown;

/** Blocks this thread for `ms` (a VU's thread: woken early when the VU is interrupted). */
export type Block = (ms: number) => void;

export function createK6Module(runtime: Runtime, block: Block) {
  const checks = runtime.builtins.checks;

  function check(
    value: unknown,
    sets: Record<string, Checker | boolean>,
    tags?: Record<string, string>,
  ): boolean {
    let extra = '';
    for (const k in tags) extra += `${k}\u0004${tags[k]}\u0005`;
    let all = true;
    for (const [name, checker] of Object.entries(sets)) {
      // As in k6, an exception in a check function propagates (the iteration fails).
      const ok = Boolean(typeof checker === 'function' ? checker(value) : checker);
      const keyed = runtime.tagsFor(`check\u0001${name}\u0001${extra}`, () => ({ ...tags, check: name }));
      runtime.record(checks, ok ? 1 : 0, keyed.tags, keyed.key);
      if (!ok) all = false;
    }
    return all;
  }

  /** Group tag `::outer::inner`, like k6, plus a group_duration sample; async bodies keep their group until they settle. */
  function group<T>(name: string, fn: () => T): T {
    if (name.includes('::')) throw new Error(`group and check names may not contain '::' ("${name}")`);
    const previous = runtime.group;
    runtime.group = `${previous}::${name}`;
    const start = performance.now();
    const end = () => {
      const keyed = runtime.tagsFor('');
      runtime.record(runtime.builtins.group_duration, performance.now() - start, keyed.tags, keyed.key);
      runtime.group = previous;
    };
    let result: T;
    try {
      result = fn();
    } catch (err) {
      end();
      throw err;
    }
    if (result instanceof Promise) return result.finally(end) as T;
    end();
    return result;
  }

  /** Blocks this VU for `seconds`, as k6 does (so `await sleep(1)` and `sleep(1)` behave alike). */
  function sleep(seconds: number): void {
    if (seconds > 0) block(seconds * 1000);
  }

  function fail(message = ''): never {
    throw new Error(message);
  }

  /**
   * k6's randomSeed(): Math.random of this VU gives a reproducible sequence from here on (a 32-bit
   * SplitMix generator; the numbers differ from k6's Go generator, the reproducibility does not).
   */
  function randomSeed(seed: number): void {
    let state = Number(BigInt.asIntN(32, BigInt(Math.trunc(Number(seed)))));
    Math.random = () => {
      state = (state + 0x9e3779b9) | 0;
      let z = state;
      z = Math.imul(z ^ (z >>> 16), 0x85ebca6b);
      z = Math.imul(z ^ (z >>> 13), 0xc2b2ae35);
      return ((z ^ (z >>> 16)) >>> 0) / 4294967296;
    };
  }

  return { check, group, sleep, fail, randomSeed };
}
