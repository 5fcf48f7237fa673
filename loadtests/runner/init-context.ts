/**
 * k6's init context: the built-in modules and globals (__ENV, __VU, __ITER, open) of one runtime,
 * and the script's top level run once against them. The engine runs it once for options, thresholds'
 * custom metrics and SharedArrays; every VU thread runs it again, so each VU has its own module state.
 */
import { createCryptoModule } from './modules/crypto.ts';
import { createDataModule } from './modules/data.ts';
import { createEncodingModule } from './modules/encoding.ts';
import { createExecutionModule } from './modules/execution.ts';
import { createHtmlModule } from './modules/html.ts';
import { createHttpModule, type HttpIo } from './modules/http.ts';
import { createK6Module, type Block } from './modules/k6.ts';
import { createMetricsModule } from './modules/metrics.ts';
import { evaluateScript, openFile, type ScriptExports, type Timers } from './loader.ts';
import type { Runtime } from './runtime.ts';

export interface Host {
  io: HttpIo;
  block: Block;
  timers: Timers;
  /** SharedArrays built by the engine's init, by name. */
  sharedArrays: Record<string, unknown[]>;
}

export interface Initialised {
  exports: ScriptExports;
  /** SharedArrays this init built (the engine hands them to the VUs). */
  builtArrays: Record<string, unknown[]>;
}

export function runInitContext(runtime: Runtime, host: Host, code: string, filename: string): Initialised {
  const builtArrays: Record<string, unknown[]> = {};
  const g = globalThis as Record<string, unknown>;
  g.__ENV = runtime.env;
  Object.defineProperty(g, '__VU', { configurable: true, get: () => runtime.vu?.idInTest ?? 0 });
  Object.defineProperty(g, '__ITER', { configurable: true, get: () => runtime.vu?.iterationInScenario ?? 0 });
  g.open = (file: string, mode?: string) => openFile(runtime.scriptDir, file, mode);
  runtime.inInit = true;
  const exports = evaluateScript(
    code,
    {
      k6: createK6Module(runtime, host.block),
      'k6/http': createHttpModule(runtime, host.io),
      'k6/metrics': createMetricsModule(runtime),
      'k6/execution': createExecutionModule(runtime),
      'k6/data': createDataModule(host.sharedArrays, builtArrays),
      'k6/timers': host.timers,
      'k6/encoding': createEncodingModule(),
      'k6/crypto': createCryptoModule(),
      'k6/html': createHtmlModule(),
    },
    host.timers,
    filename,
  );
  runtime.inInit = false;
  return { exports, builtArrays };
}
