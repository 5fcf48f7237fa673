/**
 * Jest's own test runner, made to skip test files that hold none of the tests StrykerJS asks for.
 *
 * For each mutant StrykerJS runs jest with `--findRelatedTests <mutated file>` and a `testNamePattern` naming the
 * tests that cover the mutant. Jest then still loads every related test file (here nearly every integration
 * suite, each importing the handlers, the AWS SDK and Powertools) only to find that none of its tests match:
 * that loading was most of a mutant's time. This runner records, on a run without a name pattern (the dry run),
 * which tests each file holds, and on a run with one, hands jest only the files holding a matching test.
 * Files it has no record of always run; jest still applies the pattern inside the files it runs, so the set of
 * tests executed is exactly the one jest would have executed.
 *
 * Two more things, both about which tests a mutant meets:
 * - At the end of the dry run it gives each hybrid mutant (reached outside tests and inside some) the tests of
 *   every file whose imports, `describe` bodies or `beforeAll`/`afterAll` hooks reached it (recorded by
 *   test/mutation/coverage-environment.js, which explains why); purely static mutants are left as they are.
 * - On a mutant's run it stops after the first test file with a failing test: the mutant is killed, and jest
 *   (whose `bail` StrykerJS turns off) would otherwise run every remaining file.
 */
const fs = require('node:fs');
const path = require('node:path');
const TestRunner = require('jest-runner').default;
const { fileRecords, recordFileCoverage } = require('./coverage-environment');

/** Written in the sandbox (the working directory of StrykerJS's test processes), read by every process. */
const MAP_FILE = path.resolve('.stryker-test-names.json');
const HYBRID_FILE = path.resolve('.stryker-hybrid-coverage.json');

let known;
function testNamesByFile() {
  if (known === undefined) {
    try {
      known = JSON.parse(fs.readFileSync(MAP_FILE, 'utf8'));
    } catch {
      known = null;
    }
  }
  return known;
}

class FilteringRunner extends TestRunner {
  constructor(globalConfig, context) {
    super(globalConfig, context);
    this.pattern = globalConfig.testNamePattern;
  }

  async runTests(tests, watcher, options) {
    if (this.pattern) {
      const names = testNamesByFile();
      if (names) {
        const matches = new RegExp(this.pattern, 'i'); // as jest-circus applies testNamePattern
        tests = tests.filter(
          (test) => !(test.path in names) || names[test.path].some((n) => matches.test(n)),
        );
      }
      return this.runUntilFailure(tests, watcher, options);
    }
    // The first run without a pattern is the dry run, over every test file: it is the one recorded.
    if (testNamesByFile()) return super.runTests(tests, watcher, options);
    const recorded = {};
    const off = this.on('test-file-success', ([test, result]) => {
      recorded[test.path] = result.testResults.map((r) => r.fullName);
    });
    recordFileCoverage(true);
    try {
      const result = await super.runTests(tests, watcher, options);
      addHybridCoverage(HYBRID_FILE);
      return result;
    } finally {
      recordFileCoverage(false);
      off();
      if (Object.keys(recorded).length === tests.length) {
        fs.writeFileSync(MAP_FILE, JSON.stringify(recorded));
        known = recorded;
      }
    }
  }

  /** Runs the files one by one and stops after the first one with a failing test (or that failed to run). */
  async runUntilFailure(tests, watcher, options) {
    let failed = false;
    const offSuccess = this.on('test-file-success', ([, result]) => {
      if (result.numFailingTests > 0 || result.testExecError) failed = true;
    });
    const offFailure = this.on('test-file-failure', () => {
      failed = true;
    });
    try {
      for (const test of tests) {
        if (failed || watcher.isInterrupted()) break;
        await super.runTests([test], watcher, options);
      }
    } finally {
      offSuccess();
      offFailure();
    }
  }
}

/**
 * Adds, for each file of the dry run, its hybrid mutants (reached outside tests by the file's imports, definitions
 * or hooks, and inside a test somewhere) to the coverage of each of its tests, so StrykerJS runs them. Returns how
 * many (mutant, test) pairs it added, and writes them by mutant to `traceFile` if given.
 */
function addHybridCoverage(traceFile) {
  const records = fileRecords();
  if (records.length === 0) return 0;
  const { perTest } = records[0].coverage;
  const reachedInTests = new Set();
  for (const hits of Object.values(perTest)) for (const id of Object.keys(hits)) reachedInTests.add(id);
  let added = 0;
  const byMutant = {};
  for (const { tests, ids } of records) {
    const hybrid = ids.filter((id) => reachedInTests.has(id));
    for (const name of tests) {
      const hits = (perTest[name] ??= {});
      for (const id of hybrid) {
        if (hits[id] === undefined) {
          added++;
          byMutant[id] = (byMutant[id] ?? 0) + 1;
        }
        hits[id] = (hits[id] ?? 0) + 1;
      }
    }
  }
  // A trace in the sandbox (kept with --cleanTempDir false): which mutants got how many tests.
  if (traceFile) fs.writeFileSync(traceFile, JSON.stringify({ added, tests: byMutant }));
  return added;
}

module.exports = FilteringRunner;
module.exports.addHybridCoverage = addHybridCoverage;
