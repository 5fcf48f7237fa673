// Unit + integration tests (no network beyond loopback servers the tests start themselves).
// e2e and real-data suites have their own configs (jest.e2e.config.js, jest.realdata.config.js).
// geotiff's ESM-only dependencies (quick-lru, …) must be transformed, hence the ignore-pattern exception.
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
  // `npm test` runs with --coverage: these gates fail it when coverage falls (issue 15's level, 97 % lines and
  // 92 % branches; measured 2026-12-01 on this suite: functions/ 97.96 % lines / 93.8 % branches, layers/ 97.85 % /
  // 92.78 %; a few branches depend on timing and move the totals by ~0.1-1 %). test/unit/coverage-gate.test.ts
  // checks that a run below the gate fails. Raise the numbers as coverage rises.
  collectCoverageFrom: ['<rootDir>/layers/**/*.ts', '<rootDir>/functions/**/*.ts'],
  coverageReporters: ['text-summary', 'json-summary'],
  coverageThreshold: {
    './functions/': { lines: 97, branches: 92 },
    './layers/': { lines: 97, branches: 92 },
  },
};
