/** Loads a k6 script into a fresh Runtime: modules, globals, the init context, options and scenarios. */
import path from 'node:path';
import { bundleScript, evaluateScript, installGlobals, type ScriptExports } from './bundle.ts';
import { delay, type ExecutorContext, type Segment } from './executors/common.ts';
import { runArrivalRate } from './executors/arrival-rate.ts';
import { runLoopingVUs } from './executors/looping-vus.ts';
import { createDataModule } from './modules/data.ts';
import { createExecutionModule } from './modules/execution.ts';
import { createHttpModule } from './modules/http.ts';
import { createK6Module } from './modules/k6.ts';
import { createMetricsModule } from './modules/metrics.ts';
import { Runtime, type ScenarioRun } from './runtime.ts';
import { scenariosFrom, type RawOptions, type Scenario } from './scenarios.ts';

export interface LoadOptions {
  scriptPath: string;
  code?: string;
  env: Record<string, string>;
  tags: Record<string, string>;
  allowRemote: boolean;
  overrides: { vus?: number; duration?: string; iterations?: number };
}

export interface LoadedScript {
  runtime: Runtime;
  script: ScriptExports;
  code: string;
  options: RawOptions & Record<string, unknown>;
  scenarios: Scenario[];
  runs: ScenarioRun[];
  closeHttp: () => Promise<void>;
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

function applyOverrides(options: RawOptions, o: LoadOptions['overrides']): RawOptions {
  if (o.vus === undefined && o.duration === undefined && o.iterations === undefined) return options;
  // As in k6, shortcut flags replace the script's scenarios.
  return { vus: o.vus ?? options.vus, duration: o.duration, iterations: o.iterations };
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

export async function loadScript(o: LoadOptions): Promise<LoadedScript> {
  const scriptDir = path.dirname(path.resolve(o.scriptPath));
  const runtime = new Runtime(o.env, o.tags, o.allowRemote, scriptDir);
  const http = createHttpModule(runtime);
  const runs: ScenarioRun[] = [];
  const sum = (f: (r: ScenarioRun) => number) => () => runs.reduce((n, r) => n + f(r), 0);
  const loaded = { options: {} } as LoadedScript;
  const execution = createExecutionModule(runtime, {
    get options() {
      return loaded.options;
    },
    vusActive: sum((r) => r.activeVUs),
    vusInitialized: sum((r) => r.allocatedVUs),
    iterationsCompleted: sum((r) => r.iterationsCompleted),
    iterationsInterrupted: sum((r) => r.iterationsInterrupted),
  });
  const vuInfo = () => ({ vu: runtime.vu?.idInTest ?? 0, iter: runtime.vu?.iterationInScenario ?? 0 });
  installGlobals(o.env, vuInfo, scriptDir);
  const code = o.code ?? (await bundleScript(o.scriptPath));
  const script = evaluateScript(
    code,
    {
      k6: createK6Module(runtime),
      'k6/http': http,
      'k6/metrics': createMetricsModule(runtime),
      'k6/execution': execution,
      'k6/data': createDataModule(),
      'k6/timers': { setTimeout, clearTimeout, setInterval, clearInterval },
    },
    o.scriptPath,
  );
  const options = applyOverrides(
    (script.options ?? {}) as RawOptions,
    o.overrides,
  ) as LoadedScript['options'];
  let scenarios: Scenario[];
  try {
    scenarios = scenariosFrom(options);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  for (const s of scenarios) {
    if (typeof script[s.exec] !== 'function')
      throw new ConfigError(`scenario "${s.name}": the script exports no function "${s.exec}"`);
  }
  runs.push(...scenarios.map(newScenarioRun));
  return Object.assign(loaded, { runtime, script, code, options, scenarios, runs, closeHttp: http.close });
}

/** Runs every scenario (this thread's segment of it) to its end, honouring startTime. */
export async function runScenarios(
  loaded: LoadedScript,
  setupData: unknown,
  segment: Segment,
  takeSharedIteration: (scenarioIndex: number, limit: number) => number,
): Promise<void> {
  const { runtime, script } = loaded;
  await Promise.all(
    loaded.runs.map(async (run, i) => {
      if (run.scenario.startTimeMs > 0)
        await Promise.race([delay(run.scenario.startTimeMs), runtime.whenAborted]);
      if (runtime.aborted) return;
      const ctx: ExecutorContext = {
        runtime,
        run,
        fn: script[run.scenario.exec] as (data: unknown) => unknown,
        data: setupData,
        segment,
        takeSharedIteration: (limit) => takeSharedIteration(i, limit),
      };
      await (run.scenario.executor.endsWith('arrival-rate') ? runArrivalRate(ctx) : runLoopingVUs(ctx));
    }),
  );
}
