/**
 * The test environment of the mutation runs (jest.mutation.config.js): jest's node environment, recording for
 * each test file which mutants its imports, `describe` bodies and `beforeAll`/`afterAll` hooks reach.
 *
 * Why: StrykerJS (with `ignoreStatic`) tests a mutant reached both outside any test ("static": module load, a
 * `beforeAll` that decodes a fixture) and inside some test ("hybrid") only against the tests that reached it
 * inside a test. A file whose `beforeAll` reads a tile through the mutated decoder checks that tile in its tests,
 * yet those tests were never run against the mutant: it survived untested. StrykerJS activates a mutant from
 * module load (its `__STRYKER_ACTIVE_MUTANT__` variable), so a `beforeAll` does see it; only the test selection
 * was missing. This environment notes, per file, the static coverage the file causes (its imports, so the
 * module-level constants and tables of what it loads; its `describe` bodies; its `beforeAll`/`afterAll` hooks)
 * and the names of the tests it ran; test/mutation/filtering-runner.js adds, at the end of the dry run, each
 * hybrid mutant of a file to the coverage of that file's tests: the mutant then runs the files that load it, as
 * StrykerJS runs a static mutant without `ignoreStatic`. Mutants reached only outside tests stay static and
 * ignored, as `ignoreStatic` says.
 *
 * StrykerJS wraps this class in its own environment (its `handleTestEvent` calls this one first), which points
 * `this.global.__stryker__` at the coverage it collects.
 */
const { TestEnvironment } = require('jest-environment-node');

/** Where the records are kept: the test process's own global, shared by every file's environment and the runner. */
const RECORDS = Symbol.for('elevation.mutation.fileStaticCoverage');

/** The records of this process: one per test file of the dry run (empty and not recorded outside it). */
function fileRecords() {
  globalThis[RECORDS] ??= { on: false, files: [] };
  return globalThis[RECORDS].files;
}

/** Turns recording on (the dry run, in test/mutation/filtering-runner.js) or off (and forgets the records). */
function recordFileCoverage(on) {
  fileRecords();
  globalThis[RECORDS].on = on;
  if (!on) globalThis[RECORDS].files = [];
}

function recording() {
  return globalThis[RECORDS]?.on === true;
}

/** StrykerJS's name for a test, as its mixin-jest-environment.cjs computes it (the key of `perTest`). */
function blockName(block) {
  return block.parent ? `${blockName(block.parent)} ${block.name}`.trimStart() : '';
}
function fullName(test) {
  return `${blockName(test.parent)} ${test.name}`.trimStart();
}

class CoverageEnvironment extends TestEnvironment {
  #before;
  #tests = [];

  /** The static hit counts so far (StrykerJS's `mutantCoverage.static`, id to count), or undefined outside it. */
  #staticCounts() {
    return this.global.__stryker__?.mutantCoverage?.static;
  }

  async handleTestEvent(event) {
    if (!recording()) return;
    if (event.name === 'test_start') this.#tests.push(fullName(event.test));
    else if (event.name === 'setup') this.#before = { ...(this.#staticCounts() ?? {}) };
    else if (event.name === 'run_finish') this.#record();
  }

  #record() {
    const coverage = this.global.__stryker__?.mutantCoverage;
    const counts = coverage?.static;
    if (!counts || this.#tests.length === 0) return;
    const before = this.#before ?? {};
    const ids = Object.keys(counts).filter((id) => counts[id] > (before[id] ?? 0));
    if (ids.length) fileRecords().push({ coverage, tests: [...new Set(this.#tests)], ids });
  }
}

module.exports = CoverageEnvironment;
module.exports.fileRecords = fileRecords;
module.exports.recordFileCoverage = recordFileCoverage;
