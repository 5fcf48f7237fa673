// The tests StrykerJS runs against mutants of layers/elevation (`npm run test:mutation`, stryker.config.mjs):
// the unit and integration suites that exercise the library. Left out: suites of other modules (bridge,
// dashboards, deploy, gateway, load-test runner) and the two that parse the source with tsc/eslint (the
// instrumented sandbox copy is not the source they check).
const unit = require('./jest.config');
module.exports = {
  ...unit,
  collectCoverageFrom: undefined,
  coverageThreshold: undefined,
  // Skips test files holding none of the tests that cover a mutant, stops at a mutant's first failing file,
  // and gives hybrid mutants the tests of files whose imports, describe bodies or hooks reach them (see the file).
  runner: '<rootDir>/test/mutation/filtering-runner.js',
  // Records what each file's imports, describe bodies and hooks reach, for the runner (see the file).
  // An absolute path: StrykerJS loads the environment itself, without jest's <rootDir>.
  testEnvironment: require('node:path').join(__dirname, 'test/mutation/coverage-environment.js'),
  testMatch: [
    '<rootDir>/test/unit/elevation/**/*.test.ts',
    '<rootDir>/test/unit/track/**/*.test.ts',
    '<rootDir>/test/unit/google/**/*.test.ts',
    '<rootDir>/test/unit/profile/**/*.test.ts',
    '<rootDir>/test/integration/**/*.test.ts',
  ],
};
