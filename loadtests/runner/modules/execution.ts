/** The `k6/execution` module: the current VU, scenario and test, and test.abort(). */
import type { Runtime, VuContext } from '../runtime.ts';
import { writeStderr } from '../vu/stderr.ts';

/** A tag value as k6 accepts it (string, number, boolean), as a string. */
function tagValue(name: string, value: unknown): string {
  if (typeof value === 'string' || typeof value === 'number' || typeof value === 'boolean')
    return String(value);
  throw new TypeError(
    `invalid value for the tag "${name}": only String, Boolean and Number types are accepted as a tag value`,
  );
}

export function createExecutionModule(runtime: Runtime) {
  const vu = (): VuContext | undefined => runtime.vu;
  const metadata: Record<string, string> = {};
  /**
   * exec.vu.metrics.tags: reads the VU's tags (global, scenario, its own); a tag set or deleted here is
   * on (or off) every sample the VU records from then on, across its iterations, as in k6.
   */
  const vuTags = new Proxy({} as Record<string, string>, {
    get: (_, name) => (typeof name === 'string' ? runtime.baseTags()[name] : undefined),
    set: (_, name, value) => {
      if (typeof name !== 'string') return false;
      runtime.setVuTag(name, tagValue(name, value));
      return true;
    },
    deleteProperty: (_, name) => {
      if (typeof name === 'string') runtime.setVuTag(name, undefined);
      return true;
    },
    has: (_, name) => typeof name === 'string' && name in runtime.baseTags(),
    ownKeys: () => Object.keys(runtime.baseTags()).filter((k) => k !== 'group'),
    getOwnPropertyDescriptor: (_, name) =>
      typeof name === 'string' && name !== 'group' && name in runtime.baseTags()
        ? { value: runtime.baseTags()[name], enumerable: true, configurable: true, writable: true }
        : undefined,
  });
  return {
    vu: {
      get idInTest() {
        return vu()?.idInTest ?? 0;
      },
      get idInInstance() {
        return vu()?.idInInstance ?? 0;
      },
      get iterationInInstance() {
        return vu()?.iterationInInstance ?? 0;
      },
      get iterationInScenario() {
        return vu()?.iterationInScenario ?? 0;
      },
      /** k6's deprecated alias of `metrics.tags`. */
      get tags() {
        return vuTags;
      },
      metrics: {
        get tags() {
          return vuTags;
        },
        /** Metadata goes to outputs that keep it (JSON, cloud); this runner's outputs have none, so it is kept only here. */
        metadata,
      },
    },
    scenario: {
      get name() {
        return vu()?.scenario.name ?? '';
      },
      get executor() {
        return vu()?.scenario.executor ?? '';
      },
      get startTime() {
        return vu()?.scenario.startTime ?? 0;
      },
      /** Progress when this iteration started (k6 reads it live). */
      get progress() {
        return vu()?.scenario.progress ?? 0;
      },
      get iterationInInstance() {
        return vu()?.iterationInTest ?? 0;
      },
      get iterationInTest() {
        return vu()?.iterationInTest ?? 0;
      },
    },
    instance: {
      get vusActive() {
        return vu()?.instance.vusActive ?? 0;
      },
      get vusInitialized() {
        return vu()?.instance.vusInitialized ?? 0;
      },
      get iterationsCompleted() {
        return vu()?.instance.iterationsCompleted ?? 0;
      },
      get iterationsInterrupted() {
        return vu()?.instance.iterationsInterrupted ?? 0;
      },
      get currentTestRunDuration() {
        return runtime.elapsedMs();
      },
    },
    test: {
      abort(reason = 'test aborted'): never {
        return runtime.abort(reason);
      },
      /** Marks the test as failed (exit 110) and goes on, as k6's exec.test.fail(). */
      fail(reason = ''): void {
        writeStderr(`ERRO[${Math.round(runtime.elapsedMs() / 1000)}] ${reason}\n`);
        runtime.onFail(reason);
      },
      get options() {
        return runtime.options;
      },
    },
  };
}
