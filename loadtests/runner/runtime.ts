/**
 * Shared state of one test run inside one thread: the metrics registry, the current VU (from
 * AsyncLocalStorage, since all VUs are async loops on one event loop) and the abort switch.
 */
import { AsyncLocalStorage } from 'node:async_hooks';
import { defineBuiltins, type BuiltinMetrics } from './metrics/builtin.ts';
import { Registry, tagKey, type Metric, type Tags } from './metrics/registry.ts';
import { TagCache, type KeyedTags } from './metrics/tag-cache.ts';
import type { Scenario } from './scenarios.ts';

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

export interface VuState {
  readonly idInTest: number;
  readonly idInInstance: number;
  iterationInInstance: number;
  iterationInScenario: number;
  /** Index of the current iteration among all of the scenario's iterations (all VUs). */
  scenarioIteration: number;
  readonly run: ScenarioRun;
  group: string;
  tags: Tags;
  /** Identifies `tags` in tag-cache signatures (VUs of one scenario share it). */
  readonly tagsId: string;
}

export type AbortHandler = (reason: string, exitCode: number) => void;

export class Runtime {
  readonly registry = new Registry();
  readonly builtins: BuiltinMetrics = defineBuiltins(this.registry);
  readonly vuContext = new AsyncLocalStorage<VuState>();
  readonly startedAt = performance.now();
  aborted = false;
  /** Tags of setup()/teardown() samples, which run outside any VU. */
  outsideGroup = '';
  private abortHandler: AbortHandler = () => undefined;
  private resolveAborted: () => void = () => undefined;
  /** Settles when the test is aborted, so executors stop waiting out their durations. */
  readonly whenAborted = new Promise<void>((resolve) => {
    this.resolveAborted = resolve;
  });
  private nextVuId = 1;
  private readonly tagCache = new TagCache();

  constructor(
    readonly env: Record<string, string>,
    readonly globalTags: Tags,
    readonly allowRemote: boolean,
    readonly scriptDir: string,
  ) {}

  get vu(): VuState | undefined {
    return this.vuContext.getStore();
  }

  newVu(run: ScenarioRun, idInInstance: number): VuState {
    const tags = { ...this.globalTags, ...run.scenario.tags, scenario: run.scenario.name };
    return {
      idInTest: this.nextVuId++,
      idInInstance,
      iterationInInstance: -1,
      iterationInScenario: -1,
      scenarioIteration: -1,
      run,
      group: '',
      tags,
      tagsId: run.scenario.name,
    };
  }

  /** Signature of the base tags (scenario tags + group) for tag-cache lookups. */
  baseSignature(): string {
    const vu = this.vu;
    return vu ? `${vu.tagsId}\u0001${vu.group}` : `\u0002${this.outsideGroup}`;
  }

  /** baseTags() plus `extra()` (built on a cache miss only), memoised by `signature`, which must determine it. */
  tagsFor(signature: string, extra?: () => Tags): KeyedTags {
    return this.tagCache.get(`${this.baseSignature()}\u0003${signature}`, () => ({
      ...this.baseTags(),
      ...extra?.(),
    }));
  }

  /** Tags every sample gets here: global tags, scenario tags, `scenario` and `group`. */
  baseTags(): Tags {
    const vu = this.vu;
    if (!vu) return { ...this.globalTags, group: this.outsideGroup };
    return { ...vu.tags, group: vu.group };
  }

  record(metric: Metric, value: number, tags: Tags, key = tagKey(tags)): void {
    if (this.vu?.run.hardStopped) return;
    this.registry.add(metric, value, tags, key);
  }

  onAbort(handler: AbortHandler): void {
    this.abortHandler = handler;
  }

  abort(reason: string, exitCode: number): void {
    if (this.aborted) return;
    this.aborted = true;
    this.abortHandler(reason, exitCode);
    this.resolveAborted();
  }

  elapsedMs(): number {
    return performance.now() - this.startedAt;
  }
}
