// Real DEM files from ../shared/dem compared with GDAL; skips with a message when ../shared is absent.
const base = require('./jest.base.config');
module.exports = { ...base, testMatch: ['<rootDir>/test/realdata/**/*.test.ts'], testTimeout: 300000 };
