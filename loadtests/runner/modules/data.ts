/**
 * The `k6/data` module: SharedArray. k6 calls the builder once, in the first init context, and every
 * VU reads that one copy: here the engine's init builds each array and hands it to the VU threads
 * (`given`), so a builder never runs again in a VU.
 */
/** Freezes `value` and everything reachable from it, as k6's deepFreeze does to each element it hands out. */
function deepFreeze(value: unknown): void {
  if (value === null || typeof value !== 'object' || Object.isFrozen(value)) return;
  Object.freeze(value);
  for (const key of Object.keys(value)) deepFreeze((value as Record<string, unknown>)[key]);
}

export function createDataModule(given: Record<string, unknown[]>, built: Record<string, unknown[]>) {
  class SharedArray {
    constructor(name: string, build: () => unknown[]) {
      if (!name) throw new Error('SharedArray needs a name');
      if (typeof build !== 'function') throw new Error('SharedArray needs a function that returns an array');
      let data = given[name] ?? built[name];
      if (!data) {
        data = build();
        if (!Array.isArray(data)) throw new Error('the SharedArray builder must return an array');
        built[name] = data;
      }
      // Read-only to its elements' depths (js/modules/k6/data/share.go: Set throws, Get deep-freezes).
      deepFreeze(data);
      return data as unknown as SharedArray;
    }
  }
  return { SharedArray };
}
