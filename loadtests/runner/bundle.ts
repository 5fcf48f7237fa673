/**
 * Bundles a k6 script (TypeScript or JavaScript) with esbuild, resolving `k6` and `k6/*` to this
 * runner's implementations, then evaluates it once: the init context.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import vm from 'node:vm';
import { build, type Plugin } from 'esbuild';

export type K6Modules = Record<string, unknown>;

export interface ScriptExports {
  options?: Record<string, unknown>;
  default?: (data: unknown) => unknown;
  setup?: () => unknown;
  teardown?: (data: unknown) => unknown;
  handleSummary?: (data: unknown) => unknown;
  [exec: string]: unknown;
}

const MODULE_GLOBAL = '__k6RunnerModules';

const k6Modules: Plugin = {
  name: 'k6-modules',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => ({ path: args.path, namespace: 'k6' }));
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [{ text: `remote module ${args.path} is not supported here: vendor it into loadtests/lib` }],
    }));
    b.onLoad({ filter: /.*/, namespace: 'k6' }, (args) => ({
      contents: `const m = globalThis.${MODULE_GLOBAL}[${JSON.stringify(args.path)}];
if (!m) throw new Error(${JSON.stringify(`module ${args.path} is not provided by this runner`)});
module.exports = m;`,
      loader: 'js',
    }));
  },
};

export async function bundleScript(scriptPath: string): Promise<string> {
  const result = await build({
    entryPoints: [scriptPath],
    bundle: true,
    write: false,
    format: 'cjs',
    platform: 'neutral',
    target: 'es2022',
    sourcemap: 'inline',
    logLevel: 'silent',
    plugins: [k6Modules],
  });
  return result.outputFiles[0].text;
}

/** Globals k6 defines for every script: __ENV, __VU, __ITER and open(). */
export function installGlobals(
  env: Record<string, string>,
  vuInfo: () => { vu: number; iter: number },
  scriptDir: string,
) {
  const g = globalThis as Record<string, unknown>;
  g.__ENV = env;
  Object.defineProperty(g, '__VU', { configurable: true, get: () => vuInfo().vu });
  Object.defineProperty(g, '__ITER', { configurable: true, get: () => vuInfo().iter });
  g.open = (file: string, mode?: string) => {
    const data = readFileSync(path.resolve(scriptDir, file));
    return mode === 'b'
      ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
      : data.toString();
  };
}

export function evaluateScript(code: string, modules: K6Modules, filename: string): ScriptExports {
  (globalThis as Record<string, unknown>)[MODULE_GLOBAL] = modules;
  const module = { exports: {} as ScriptExports };
  const wrapper = vm.runInThisContext(`(function (module, exports) {${code}\n})`, { filename }) as (
    m: typeof module,
    e: ScriptExports,
  ) => void;
  wrapper(module, module.exports);
  return module.exports;
}
