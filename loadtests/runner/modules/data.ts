/** The `k6/data` module: SharedArray (one frozen copy per name; all VUs share this thread anyway). */
export function createDataModule() {
  const arrays = new Map<string, readonly unknown[]>();
  class SharedArray {
    constructor(name: string, build: () => unknown[]) {
      let data = arrays.get(name);
      if (!data) {
        data = Object.freeze(build());
        arrays.set(name, data);
      }
      return data as unknown as SharedArray;
    }
  }
  return { SharedArray };
}
