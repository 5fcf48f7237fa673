// Unit + integration tests (no network beyond loopback servers the tests start themselves).
// e2e and real-data suites have their own configs (jest.e2e.config.js, jest.realdata.config.js).
// geotiff's ESM-only dependencies (quick-lru, …) must be transformed, hence the ignore-pattern exception.
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
  // `npm test` runs with --coverage: these gates fail it when coverage falls (measured 2026-12-01 on this
  // suite: functions/ 98.25 % lines / 91.0-92.1 % branches, layers/ 97.3 % / 90.6-90.8 %; a few branches depend
  // on timing, and functions/ has few enough that two of them move it by 1 %, hence the room below). layers/
  // branches stay below issue 15's 92 % until the tests reach it; raise the numbers as coverage rises.
  collectCoverageFrom: ['<rootDir>/layers/**/*.ts', '<rootDir>/functions/**/*.ts'],
  coverageReporters: ['text-summary', 'json-summary'],
  coverageThreshold: {
    './functions/': { lines: 97, branches: 90 },
    './layers/': { lines: 97, branches: 90 },
  },
};
