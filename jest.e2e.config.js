// End-to-end: real serverless-offline, real data-layer server, real Prometheus/Jaeger where needed.
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/e2e/**/*.test.ts'],
  testTimeout: 120000,
  maxWorkers: 1,
};
