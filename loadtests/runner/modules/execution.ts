/** The `k6/execution` module: the current VU, scenario and test, and test.abort(). */
import type { Runtime, VuContext } from '../runtime.ts';

export function createExecutionModule(runtime: Runtime) {
  const vu = (): VuContext | undefined => runtime.vu;
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
      get tags() {
        return vu()?.tags ?? {};
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
      get options() {
        return runtime.options;
      },
    },
  };
}
