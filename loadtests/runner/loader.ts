/**
 * Module resolution as k6 v1 does it, then one bundle: relative and absolute specifiers name a file
 * exactly (no extension guessing, no index files), TypeScript types are stripped from `.ts` files only,
 * `k6` and `k6/*` are this runner's modules. What k6 would fetch or provide and this runner cannot
 * (remote imports, k6/browser, gRPC, websockets…) fails at load, naming the module (exit 107 as in k6).
 */
import { readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { pathToFileURL } from 'node:url';
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

/** Thrown for anything k6 would refuse while loading the script: exit code 107 (ScriptException). */
export class ScriptLoadError extends Error {
  override name = 'ScriptLoadError';
}

/** The built-in modules this runner provides (k6 v1 names). */
export const PROVIDED_MODULES = [
  'k6',
  'k6/http',
  'k6/metrics',
  'k6/execution',
  'k6/data',
  'k6/timers',
  'k6/encoding',
  'k6/crypto',
  'k6/html',
];

const MODULE_GLOBAL = '__k6RunnerModules';

function notOnDisk(specifier: string): string {
  // k6's own wording (js/modules resolution), so a search for the message finds k6's docs.
  return (
    `The moduleSpecifier "${specifier}" couldn't be found on local disk. Make sure that you've specified ` +
    `the right path to the file. If you're running k6 using the Docker image make sure you have mounted the ` +
    `local directory (-v /local/path/:/inside/docker/path) containing your script and modules so that ` +
    `they're accessible by k6 from inside of the container, see ` +
    `https://grafana.com/docs/k6/latest/using-k6/modules/#using-local-modules-with-docker.`
  );
}

const k6Resolution: Plugin = {
  name: 'k6-resolution',
  setup(b) {
    b.onResolve({ filter: /^k6(\/.*)?$/ }, (args) => {
      if (PROVIDED_MODULES.includes(args.path)) return { path: args.path, namespace: 'k6' };
      return {
        errors: [
          {
            text:
              `module "${args.path}" is not provided by this runner (it has ${PROVIDED_MODULES.join(', ')}); ` +
              'run this script with k6 itself',
          },
        ],
      };
    });
    b.onResolve({ filter: /^https?:\/\// }, (args) => ({
      errors: [
        {
          text:
            `remote module "${args.path}" cannot be fetched here (this runner does not download modules): ` +
            'vendor the file next to the script and import it by its relative path',
        },
      ],
    }));
    b.onResolve({ filter: /^(\.\.?\/|\/)/ }, (args) => {
      const file = path.resolve(args.resolveDir, args.path);
      let isFile = false;
      try {
        isFile = statSync(file).isFile();
      } catch {
        isFile = false;
      }
      if (!isFile) return { errors: [{ text: notOnDisk(pathToFileURL(file).href) }] };
      return { path: file };
    });
    // Bare specifiers other than k6's: k6 has no node_modules resolution.
    b.onResolve({ filter: /^[^./]/ }, (args) =>
      args.kind === 'entry-point' ? undefined : { errors: [{ text: notOnDisk(args.path) }] },
    );
    b.onLoad({ filter: /.*/, namespace: 'k6' }, (args) => ({
      contents: `module.exports = globalThis.${MODULE_GLOBAL}[${JSON.stringify(args.path)}];`,
      loader: 'js',
    }));
  },
};

export async function bundleScript(scriptPath: string): Promise<string> {
  let isFile = false;
  try {
    isFile = statSync(scriptPath).isFile();
  } catch {
    isFile = false;
  }
  if (!isFile) throw new ScriptLoadError(notOnDisk(scriptPath));
  try {
    const result = await build({
      entryPoints: [path.resolve(scriptPath)],
      bundle: true,
      write: false,
      format: 'cjs',
      platform: 'neutral',
      target: 'es2022',
      sourcemap: 'inline',
      logLevel: 'silent',
      // k6 strips types from .ts files only; a .js file is JavaScript.
      loader: { '.ts': 'ts', '.js': 'js', '.mjs': 'js', '.cjs': 'js', '.json': 'json' },
      plugins: [k6Resolution],
    });
    return result.outputFiles[0].text;
  } catch (err) {
    const errors = (err as { errors?: { text: string }[] }).errors;
    throw new ScriptLoadError(errors?.map((e) => e.text).join('\n') ?? (err as Error).message);
  }
}

/** Reads a local file as k6's open() does: relative to the script, text or (mode 'b') an ArrayBuffer. */
export function openFile(scriptDir: string, file: string, mode?: string): string | ArrayBuffer {
  const data = readFileSync(path.resolve(scriptDir, file));
  return mode === 'b'
    ? data.buffer.slice(data.byteOffset, data.byteOffset + data.byteLength)
    : data.toString();
}

export type Timers = Record<'setTimeout' | 'clearTimeout' | 'setInterval' | 'clearInterval', unknown>;

/**
 * Runs the bundle once (the init context) with `modules` as k6's built-ins; returns its exports. The
 * script's timers are parameters that shadow the globals, so the VU counts its own timers while
 * undici's stay untouched.
 */
export function evaluateScript(
  code: string,
  modules: K6Modules,
  timers: Timers,
  filename: string,
): ScriptExports {
  (globalThis as Record<string, unknown>)[MODULE_GLOBAL] = modules;
  const module = { exports: {} as ScriptExports };
  const wrapper = vm.runInThisContext(
    `(function (module, exports, setTimeout, clearTimeout, setInterval, clearInterval) {${code}\n})`,
    { filename },
  ) as (m: typeof module, e: ScriptExports, ...timers: unknown[]) => void;
  wrapper(
    module,
    module.exports,
    timers.setTimeout,
    timers.clearTimeout,
    timers.setInterval,
    timers.clearInterval,
  );
  return module.exports;
}
