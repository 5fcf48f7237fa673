// Unit + integration tests (no network beyond loopback servers the tests start themselves).
// e2e and real-data suites have their own configs (jest.e2e.config.js, jest.realdata.config.js).
// geotiff's ESM-only dependencies (quick-lru, …) must be transformed, hence the ignore-pattern exception.
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/unit/**/*.test.ts', '<rootDir>/test/integration/**/*.test.ts'],
};
