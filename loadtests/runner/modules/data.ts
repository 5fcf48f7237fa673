/**
 * The `k6/data` module: SharedArray. k6 calls the builder once, in the first init context, and every
 * VU reads that one copy: here the engine's init builds each array and hands it to the VU threads
 * (`given`), so a builder never runs again in a VU.
 */
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
      return Object.freeze(data) as unknown as SharedArray;
    }
  }
  return { SharedArray };
}
