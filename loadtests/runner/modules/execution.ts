/** The `k6/execution` module: live information about the current VU, scenario and test. */
import type { Runtime } from '../runtime.ts';

export interface TestControl {
  options: Record<string, unknown>;
  vusActive: () => number;
  vusInitialized: () => number;
  iterationsCompleted: () => number;
  iterationsInterrupted: () => number;
}

export function createExecutionModule(runtime: Runtime, control: TestControl) {
  const current = () => runtime.vu;
  return {
    vu: {
      get idInTest() {
        return current()?.idInTest ?? 0;
      },
      get idInInstance() {
        return current()?.idInInstance ?? 0;
      },
      get iterationInInstance() {
        return current()?.iterationInInstance ?? 0;
      },
      get iterationInScenario() {
        return current()?.iterationInScenario ?? 0;
      },
      get tags() {
        return current()?.tags ?? {};
      },
    },
    scenario: {
      get name() {
        return current()?.run.scenario.name ?? '';
      },
      get executor() {
        return current()?.run.scenario.executor ?? '';
      },
      get startTime() {
        return current()?.run.startedAt ?? 0;
      },
      get progress() {
        return current()?.run.progress() ?? 0;
      },
      get iterationInInstance() {
        return current()?.scenarioIteration ?? 0;
      },
      get iterationInTest() {
        return current()?.scenarioIteration ?? 0;
      },
    },
    instance: {
      get vusActive() {
        return control.vusActive();
      },
      get vusInitialized() {
        return control.vusInitialized();
      },
      get iterationsCompleted() {
        return control.iterationsCompleted();
      },
      get iterationsInterrupted() {
        return control.iterationsInterrupted();
      },
      get currentTestRunDuration() {
        return runtime.elapsedMs();
      },
    },
    test: {
      abort(reason = 'test aborted by the script'): void {
        runtime.abort(reason, 108);
      },
      get options() {
        return control.options;
      },
    },
  };
}
