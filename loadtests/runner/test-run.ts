/** The engine's state of one test run: merged metrics, scenario progress, the abort switch. */
import { defineBuiltins, type BuiltinMetrics } from './metrics/builtin.ts';
import { Registry, type Tags } from './metrics/registry.ts';
import type { Scenario } from './scenarios.ts';
import type { VuHandle } from './vu/handle.ts';

export interface ScenarioRun {
  readonly scenario: Scenario;
  startedAt: number;
  iterationsStarted: number;
  iterationsCompleted: number;
  iterationsInterrupted: number;
  activeVUs: number;
  allocatedVUs: number;
  /** Past graceful stop: late samples from still-running iterations are discarded, as k6 does. */
  hardStopped: boolean;
  progress: () => number;
}

/** A VU as a scenario's executor sees it. */
export interface Vu {
  readonly handle: VuHandle;
  readonly idInInstance: number;
  iterationInInstance: number;
  iterationInScenario: number;
  /** global tags, scenario tags and `scenario`. */
  readonly tags: Tags;
}

export type AbortHandler = (reason: string, exitCode: number) => void;

export class TestRun {
  readonly registry = new Registry();
  readonly builtins: BuiltinMetrics = defineBuiltins(this.registry);
  readonly runs: ScenarioRun[] = [];
  aborted = false;
  private abortHandler: AbortHandler = () => undefined;
  private resolveAborted: () => void = () => undefined;
  /** Settles when the test is aborted, so executors stop waiting out their durations. */
  readonly whenAborted = new Promise<void>((resolve) => {
    this.resolveAborted = resolve;
  });

  /** exec.test.fail() was called: the test goes on and exits 110 (unless thresholds failed: 99). */
  failedReason: string | undefined;

  constructor(readonly globalTags: Tags) {}

  onAbort(handler: AbortHandler): void {
    this.abortHandler = handler;
  }

  abort(reason: string, exitCode: number): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortHandler(reason, exitCode);
    this.resolveAborted();
  }

  total(f: (r: ScenarioRun) => number): number {
    return this.runs.reduce((n, r) => n + f(r), 0);
  }
}

export function newScenarioRun(scenario: Scenario): ScenarioRun {
  return {
    scenario,
    startedAt: 0,
    iterationsStarted: 0,
    iterationsCompleted: 0,
    iterationsInterrupted: 0,
    activeVUs: 0,
    allocatedVUs: 0,
    hardStopped: false,
    progress: () => 0,
  };
}
