// Unit + integration tests (no network beyond loopback servers the tests start themselves).
// e2e and real-data suites have their own configs (jest.e2e.config.js, jest.realdata.config.js).
// geotiff's ESM-only dependencies (quick-lru, …) must be transformed, hence the ignore-pattern exception.
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
  // `npm test` runs with --coverage: these gates fail it when coverage falls (measured 2026-12-01 on this
  // suite: functions/ 98.25 % lines / 92.13 % branches, layers/ 97.28 % / 90.76 %; a few branches depend on
  // timing, so totals move by ~0.1 % between runs, hence half a point of room). layers/ branches stay below
  // issue 15's 92 % until the tests reach it; raise the numbers as coverage rises, never lower them.
  collectCoverageFrom: ['<rootDir>/layers/**/*.ts', '<rootDir>/functions/**/*.ts'],
  coverageReporters: ['text-summary', 'json-summary'],
  coverageThreshold: {
    './functions/': { lines: 97, branches: 91.5 },
    './layers/': { lines: 97, branches: 90 },
  },
};
