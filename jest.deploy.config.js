// Deploy tier: the packaged zips under AWS's Lambda Runtime Interface Emulator, S3 through moto, cfn-lint.
// Needs `npm run package` and `bash scripts/deploy/install.sh` first; skipped visibly without them (CI=true fails).
const base = require('./jest.base.config');
module.exports = {
  ...base,
  testMatch: ['<rootDir>/test/deploy/**/*.test.ts'],
  testTimeout: 60000,
  maxWorkers: 1,
};
