/**
 * Loads a k6 script as k6 does before a test: bundle (module resolution), one init context for the
 * options, then the scenarios and thresholds derived from them (invalid config → exit 104).
 */
import path from 'node:path';
import { bundleScript, type ScriptExports } from './loader.ts';
import { runInitContext } from './init-context.ts';
import { checkOptions, type RunnerSettings } from './options.ts';
import { applyOverrides } from './overrides.ts';
import { Runtime } from './runtime.ts';
import { scenariosFrom, type RawOptions, type Scenario } from './scenarios.ts';
import {
  parseThresholds,
  validateThresholds,
  type ThresholdGroup,
  type ThresholdInput,
} from './thresholds.ts';

export interface LoadOptions {
  scriptPath: string;
  env: Record<string, string>;
  tags: Record<string, string>;
  allowRemote: boolean;
  /** Options from K6_* variables and flags, above the script's (overrides.ts). */
  overrides: Record<string, unknown>;
}

export interface LoadedTest {
  code: string;
  exports: ScriptExports;
  options: RawOptions & Record<string, unknown>;
  scenarios: Scenario[];
  thresholds: ThresholdGroup[];
  sharedArrays: Record<string, unknown[]>;
  /** The other k6 options this runner honours (options.ts). */
  settings: RunnerSettings;
  /** Options k6 does not know or this runner does not implement, one warning each. */
  warnings: string[];
}

export class ConfigError extends Error {
  override name = 'ConfigError';
}

export async function loadTest(o: LoadOptions): Promise<LoadedTest> {
  const code = await bundleScript(o.scriptPath);
  const runtime = new Runtime(
    o.env,
    o.tags,
    o.allowRemote,
    path.dirname(path.resolve(o.scriptPath)),
    Date.now(),
    {},
  );
  const sleeper = new Int32Array(new SharedArrayBuffer(4));
  const noHttp = () => {
    throw new Error('Making http requests in the init context is not supported (k6 refuses it too)');
  };
  const { exports, builtArrays } = runInitContext(
    runtime,
    {
      io: { sync: noHttp, async: noHttp },
      block: (ms) => void Atomics.wait(sleeper, 0, 0, ms),
      timers: { setTimeout, clearTimeout, setInterval, clearInterval },
      sharedArrays: {},
    },
    code,
    o.scriptPath,
  );
  const applied = applyOverrides((exports.options ?? {}) as Record<string, unknown>, o.overrides);
  const options = applied.options as LoadedTest['options'];
  let scenarios: Scenario[];
  let thresholds: ThresholdGroup[];
  let checked: ReturnType<typeof checkOptions>;
  try {
    checked = checkOptions(options);
    scenarios = scenariosFrom(options);
    thresholds = parseThresholds(options.thresholds as Record<string, ThresholdInput[]> | undefined);
    // Custom metrics the init context defined count as known metrics.
    validateThresholds(thresholds, runtime.registry);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  for (const s of scenarios) {
    if (typeof exports[s.exec] !== 'function')
      throw new ConfigError(`scenario "${s.name}": the script exports no function "${s.exec}"`);
  }
  return {
    code,
    exports,
    options,
    scenarios,
    thresholds,
    sharedArrays: builtArrays,
    settings: checked.settings,
    warnings: [...applied.warnings, ...checked.warnings],
  };
}
