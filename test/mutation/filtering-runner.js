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
 */
const fs = require('node:fs');
const path = require('node:path');
const TestRunner = require('jest-runner').default;

/** Written in the sandbox (the working directory of StrykerJS's test processes), read by every process. */
const MAP_FILE = path.resolve('.stryker-test-names.json');

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
      return super.runTests(tests, watcher, options);
    }
    // The first run without a pattern is the dry run, over every test file: it is the one recorded.
    if (testNamesByFile()) return super.runTests(tests, watcher, options);
    const recorded = {};
    const off = this.on('test-file-success', ([test, result]) => {
      recorded[test.path] = result.testResults.map((r) => r.fullName);
    });
    try {
      return await super.runTests(tests, watcher, options);
    } finally {
      off();
      if (Object.keys(recorded).length === tests.length) {
        fs.writeFileSync(MAP_FILE, JSON.stringify(recorded));
        known = recorded;
      }
    }
  }
}

module.exports = FilteringRunner;
