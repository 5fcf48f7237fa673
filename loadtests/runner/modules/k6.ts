/** The `k6` module: check, group, sleep, fail, randomSeed. */
import type { Runtime } from '../runtime.ts';

type Checker = (value: unknown) => unknown;

export function createK6Module(runtime: Runtime) {
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
      let ok: boolean;
      try {
        ok = Boolean(typeof checker === 'function' ? checker(value) : checker);
      } catch {
        ok = false;
      }
      const keyed = runtime.tagsFor(`check\u0001${name}\u0001${extra}`, () => ({ ...tags, check: name }));
      runtime.record(checks, ok ? 1 : 0, keyed.tags, keyed.key);
      if (!ok) all = false;
    }
    return all;
  }

  /** Group tag `::outer::inner`, like k6; async bodies keep their group until they settle. */
  function group<T>(name: string, fn: () => T): T {
    const vu = runtime.vu;
    if (!vu) return fn();
    const previous = vu.group;
    vu.group = `${previous}::${name}`;
    let result: T;
    try {
      result = fn();
    } catch (err) {
      vu.group = previous;
      throw err;
    }
    if (result instanceof Promise) {
      return result.finally(() => {
        vu.group = previous;
      }) as T;
    }
    vu.group = previous;
    return result;
  }

  /** Resolves after `seconds`: `await sleep(1)` pauses this VU only (in k6 `await` on it is harmless). */
  function sleep(seconds: number): Promise<void> {
    return new Promise((resolve) => setTimeout(resolve, seconds * 1000));
  }

  function fail(message = ''): never {
    throw new Error(message);
  }

  return { check, group, sleep, fail, randomSeed: (): void => undefined };
}
