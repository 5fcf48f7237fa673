// The tests StrykerJS runs against mutants of layers/elevation (`npm run test:mutation`, stryker.config.mjs):
// the unit and integration suites that exercise the library. Left out: suites of other modules (bridge,
// dashboards, deploy, gateway, load-test runner) and the two that parse the source with tsc/eslint (the
// instrumented sandbox copy is not the source they check).
const unit = require('./jest.config');
module.exports = {
  ...unit,
  collectCoverageFrom: undefined,
  coverageThreshold: undefined,
  // Skips test files holding none of the tests that cover a mutant (see the file): 0.4 -> X mutants/s.
  runner: '<rootDir>/test/mutation/filtering-runner.js',
  testMatch: [
    '<rootDir>/test/unit/elevation/**/*.test.ts',
    '<rootDir>/test/unit/track/**/*.test.ts',
    '<rootDir>/test/unit/google/**/*.test.ts',
    '<rootDir>/test/unit/profile/**/*.test.ts',
    '<rootDir>/test/integration/**/*.test.ts',
  ],
};
