/**
 * How the mutation runs give hybrid mutants their tests (test/mutation/coverage-environment.js and
 * filtering-runner.js): what a file's imports, describe bodies and hooks reach counts for its tests, what other
 * files reached before it does not, and a mutant reached only outside tests stays static.
 */
/* eslint-disable @typescript-eslint/no-require-imports */
interface Coverage {
  static: Record<string, number>;
  perTest: Record<string, Record<string, number>>;
}
interface FileRecord {
  coverage: Coverage;
  tests: string[];
  ids: string[];
}
interface Environment {
  global: { __stryker__?: { mutantCoverage: Coverage } };
  handleTestEvent(event: object): Promise<void>;
}
const CoverageEnvironment = require('../mutation/coverage-environment') as {
  new (config: object, context: object): Environment;
  fileRecords(): FileRecord[];
  recordFileCoverage(on: boolean): void;
};
const { addHybridCoverage } = require('../mutation/filtering-runner') as {
  addHybridCoverage(): number;
};

const ROOT = { name: 'ROOT_DESCRIBE_BLOCK', parent: undefined };
const block = { name: 'a block', parent: ROOT };

function environment(coverage: Coverage): Environment {
  const env = new CoverageEnvironment(
    { globalConfig: {}, projectConfig: { testEnvironmentOptions: {} } },
    { console, docblockPragmas: {}, testPath: 'some.test.ts' },
  );
  env.global.__stryker__ = { mutantCoverage: coverage };
  return env;
}

/** One test file's run: its imports reach mutant 1, its beforeAll 2 (twice); mutant 3 was reached before it. */
async function runFile(env: Environment, coverage: Coverage): Promise<void> {
  await env.handleTestEvent({ name: 'setup' });
  coverage.static['1'] = (coverage.static['1'] ?? 0) + 1;
  await env.handleTestEvent({ name: 'start_describe_definition' });
  await env.handleTestEvent({ name: 'add_test' });
  await env.handleTestEvent({ name: 'run_start' });
  coverage.static['2'] = (coverage.static['2'] ?? 0) + 2;
  await env.handleTestEvent({ name: 'test_start', test: { name: 'reads a tile', parent: block } });
  await env.handleTestEvent({ name: 'test_start', test: { name: 'top-level', parent: ROOT } });
  await env.handleTestEvent({ name: 'run_finish' });
}

afterEach(() => CoverageEnvironment.recordFileCoverage(false));

it('records what a file reaches, and the names of its tests, during the dry run only', async () => {
  const coverage: Coverage = { static: { '2': 5, '3': 1 }, perTest: {} };
  CoverageEnvironment.recordFileCoverage(true);
  await runFile(environment(coverage), coverage);
  expect(CoverageEnvironment.fileRecords()).toEqual([
    { coverage, tests: ['a block reads a tile', 'top-level'], ids: ['1', '2'] },
  ]);

  CoverageEnvironment.recordFileCoverage(false);
  await runFile(environment(coverage), coverage);
  expect(CoverageEnvironment.fileRecords()).toEqual([]);
});

it('gives a hybrid mutant the tests of the files whose hooks reach it, and leaves a static-only one', async () => {
  const coverage: Coverage = {
    static: { '4': 1 },
    perTest: { 'elsewhere decodes': { '2': 1 }, 'a block reads a tile': { '7': 1 } },
  };
  CoverageEnvironment.recordFileCoverage(true);
  const env = environment(coverage);
  await env.handleTestEvent({ name: 'setup' });
  coverage.static['2'] = 1; // reached in a hook here and inside a test elsewhere: hybrid
  coverage.static['4'] = 2; // reached in a hook only: static
  await env.handleTestEvent({ name: 'test_start', test: { name: 'reads a tile', parent: block } });
  await env.handleTestEvent({ name: 'test_start', test: { name: 'top-level', parent: ROOT } });
  await env.handleTestEvent({ name: 'run_finish' });

  expect(addHybridCoverage()).toBe(2);
  expect(coverage.perTest).toEqual({
    'elsewhere decodes': { '2': 1 },
    'a block reads a tile': { '7': 1, '2': 1 },
    'top-level': { '2': 1 },
  });
});
