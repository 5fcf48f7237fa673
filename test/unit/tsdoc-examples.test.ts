/**
 * Every value the elevation library exports from `layers/elevation/index.ts` (functions, classes, constants) has a
 * TSDoc `@example`, and every example is true: it type-checks against the library and runs, its `assert`s
 * passing. Examples use the library's exports by name and `assert` (node:assert/strict), from the repository
 * root (fixture paths such as test/fixtures/config.yaml).
 */
import assert from 'node:assert/strict';
import path from 'node:path';
import ts from 'typescript';
import * as library from '../../layers/elevation';

const INDEX = path.resolve('layers/elevation/index.ts');

interface Example {
  name: string;
  code: string;
}

function publicExamples(): { examples: Example[]; missing: string[] } {
  const program = ts.createProgram([INDEX], { strict: true, target: ts.ScriptTarget.ES2022 });
  const checker = program.getTypeChecker();
  const moduleSymbol = checker.getSymbolAtLocation(program.getSourceFile(INDEX) as ts.SourceFile);
  const examples: Example[] = [];
  const missing: string[] = [];
  for (const exported of checker.getExportsOfModule(moduleSymbol as ts.Symbol)) {
    const symbol = exported.flags & ts.SymbolFlags.Alias ? checker.getAliasedSymbol(exported) : exported;
    if (!(symbol.flags & ts.SymbolFlags.Value)) continue; // interfaces and types: documented, not run
    const declaration = symbol.declarations?.[0];
    const node =
      declaration && ts.isVariableDeclaration(declaration) ? declaration.parent.parent : declaration;
    const tags = node ? ts.getJSDocTags(node).filter((t) => t.tagName.text === 'example') : [];
    const blocks = tags.flatMap((t) =>
      [...String(ts.getTextOfJSDocComment(t.comment) ?? '').matchAll(/```ts\n([\s\S]*?)```/g)].map(
        (m) => m[1],
      ),
    );
    if (blocks.length === 0) missing.push(exported.name);
    for (const code of blocks) examples.push({ name: exported.name, code });
  }
  return { examples, missing };
}

const { examples, missing } = publicExamples();
const names = Object.keys(library);
const wrap = (code: string) =>
  `import { ${names.join(', ')} } from ${JSON.stringify(INDEX.replace(/\.ts$/, ''))};\n` +
  `import type { DataAnswer, LatLon } from ${JSON.stringify(INDEX.replace(/\.ts$/, ''))};\n` +
  `import assert from 'node:assert/strict';\nexport async function run(): Promise<void> {\n${code}\n}\n`;

test('every exported value has a runnable @example', () => {
  expect(missing).toEqual([]);
  expect(examples.length).toBeGreaterThanOrEqual(names.length - 1); // loadDatasetRegistry's options are a type
});

test('every example type-checks against the library', () => {
  const files = new Map(
    examples.map((e, i) => [path.resolve(`.build/examples/${i}-${e.name}.ts`), wrap(e.code)]),
  );
  const options: ts.CompilerOptions = {
    strict: true,
    target: ts.ScriptTarget.ES2022,
    module: ts.ModuleKind.CommonJS,
    esModuleInterop: true,
    noEmit: true,
    types: ['node'],
  };
  const host = ts.createCompilerHost(options);
  const readFile = host.readFile.bind(host);
  const getSourceFile = host.getSourceFile.bind(host);
  host.fileExists = (f) => files.has(f) || ts.sys.fileExists(f);
  host.readFile = (f) => files.get(f) ?? readFile(f);
  host.getSourceFile = (f, v) => {
    const text = files.get(f);
    return text === undefined ? getSourceFile(f, v) : ts.createSourceFile(f, text, v);
  };
  const program = ts.createProgram([...files.keys()], options, host);
  const problems = ts
    .getPreEmitDiagnostics(program)
    .filter((d) => d.file && files.has(d.file.fileName))
    .map(
      (d) =>
        `${path.basename(d.file?.fileName ?? '')}: ${ts.flattenDiagnosticMessageText(d.messageText, ' ')}`,
    );
  expect(problems).toEqual([]);
}, 60_000);

test.each(examples.map((e) => [e.name, e.code]))(
  'the @example of %s runs and its asserts hold',
  async (_name, code) => {
    const js = ts.transpile(code, { target: ts.ScriptTarget.ES2022, module: ts.ModuleKind.ESNext });
    const AsyncFunction = Object.getPrototypeOf(async () => undefined).constructor as new (
      ...args: string[]
    ) => (...values: unknown[]) => Promise<void>;
    const run = new AsyncFunction(...names, 'assert', js);
    await expect(
      run(...names.map((n) => (library as Record<string, unknown>)[n]), assert),
    ).resolves.toBeUndefined();
  },
);
