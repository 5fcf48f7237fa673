/**
 * Module resolution as k6 v1: specifiers exactly as written, types stripped from .ts files only, and
 * what the runner cannot provide refused at load with k6's message and exit code 107 (ScriptException).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import path from 'node:path';
import { runScript } from './harness';

const SCRIPT_EXCEPTION = 107;
const LOADTESTS = path.resolve(__dirname, '..', '..', '..', 'loadtests');

function tsFiles(dir: string): string[] {
  return readdirSync(dir).flatMap((name) => {
    const file = path.join(dir, name);
    if (statSync(file).isDirectory()) return name === 'node_modules' ? [] : tsFiles(file);
    return name.endsWith('.ts') ? [file] : [];
  });
}

describe('module resolution', () => {
  it('finds no extensionless relative import anywhere in loadtests/ (k6 would not load it)', () => {
    const offenders = tsFiles(LOADTESTS).flatMap((file) =>
      readFileSync(file, 'utf8')
        .split('\n')
        .filter((line) => /from '\.\.?\/[^']*'/.test(line) && !/\.ts'/.test(line))
        .map((line) => `${path.relative(LOADTESTS, file)}: ${line.trim()}`),
    );
    expect(offenders).toEqual([]);
  });

  it('loads a relative import that names its .ts file', async () => {
    const r = await runScript(
      `import { answer } from './lib.ts';\nexport const options = { iterations: 1 };\nexport default function () { if (answer() !== 42) throw new Error('wrong'); }`,
      [],
      {},
      { files: { 'lib.ts': 'export const answer = (): number => 42;\n' } },
    );
    expect(r.code).toBe(0);
    expect(r.summary.metrics.iterations.values.count).toBe(1);
  }, 30_000);

  it('refuses an extensionless relative import with k6 message and exit code', async () => {
    const r = await runScript(
      `import { answer } from './lib';\nexport default function () { answer(); }`,
      [],
      {},
      { files: { 'lib.ts': 'export const answer = (): number => 42;\n' } },
    );
    expect(r.code).toBe(SCRIPT_EXCEPTION);
    expect(r.stderr).toMatch(/The moduleSpecifier "file:\/\/[^"]*\/lib" couldn't be found on local disk/);
  }, 30_000);

  it('refuses a missing file and a remote module it cannot fetch', async () => {
    const missing = await runScript(`import './nope.ts';\nexport default function () {}`);
    expect(missing.code).toBe(SCRIPT_EXCEPTION);
    expect(missing.stderr).toMatch(/nope\.ts" couldn't be found on local disk/);
    const remote = await runScript(
      `import { randomItem } from 'https://jslib.k6.io/k6-utils/1.4.0/index.js';\nexport default function () { randomItem([1]); }`,
    );
    expect(remote.code).toBe(SCRIPT_EXCEPTION);
    expect(remote.stderr).toMatch(
      /remote module "https:\/\/jslib\.k6\.io\/k6-utils\/1\.4\.0\/index\.js" cannot be fetched/,
    );
  }, 30_000);

  it.each([['k6/browser'], ['k6/net/grpc'], ['k6/ws'], ['k6/experimental/websockets']])(
    'fails at load naming %s, a k6 module this runner does not have (never a silent empty run)',
    async (name) => {
      const r = await runScript(`import * as m from '${name}';\nexport default function () { void m; }`);
      expect(r.code).toBe(SCRIPT_EXCEPTION);
      expect(r.stderr).toContain(`module "${name}" is not provided by this runner`);
      expect(r.summary.metrics).toBeUndefined();
    },
    30_000,
  );

  it('strips types only from .ts files: TypeScript in a .js file is a syntax error', async () => {
    const r = await runScript(
      `const n: number = 1;\nexport default function () { void n; }`,
      [],
      {},
      { fileName: 'script.js' },
    );
    expect(r.code).toBe(SCRIPT_EXCEPTION);
  }, 30_000);
});
