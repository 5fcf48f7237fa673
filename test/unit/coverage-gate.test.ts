/**
 * The coverage gate of `npm test` (jest.config.js, issue 15): it holds layers/ and functions/ at the agreed level,
 * and it really fails a run whose coverage falls. The second test runs jest with the project's own config over a
 * single test file, which covers far less than the gate asks, and expects the run to fail for that reason.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '../..');
// eslint-disable-next-line @typescript-eslint/no-require-imports
const config = require('../../jest.config') as {
  coverageThreshold: Record<string, { lines: number; branches: number }>;
  collectCoverageFrom: string[];
};

it('npm test measures coverage and gates layers/ and functions/ at >= 97 % lines and >= 92 % branches', () => {
  const scripts = (
    JSON.parse(fs.readFileSync(path.join(ROOT, 'package.json'), 'utf8')) as {
      scripts: Record<string, string>;
    }
  ).scripts;
  expect(scripts.test).toMatch(/\bjest --coverage\b/);
  for (const folder of ['./layers/', './functions/']) {
    expect(config.coverageThreshold[folder].lines).toBeGreaterThanOrEqual(97);
    expect(config.coverageThreshold[folder].branches).toBeGreaterThanOrEqual(92);
  }
  expect(config.collectCoverageFrom).toEqual(['<rootDir>/layers/**/*.ts', '<rootDir>/functions/**/*.ts']);
});

it('fails a run whose coverage is below the gate, naming the threshold', () => {
  const run = spawnSync(
    process.execPath,
    [
      require.resolve('jest/bin/jest'),
      '--coverage',
      '--coverageReporters=text-summary',
      '--coverageDirectory=.build/coverage-gate-test',
      'test/unit/elevation/polyline.test.ts',
    ],
    { cwd: ROOT, encoding: 'utf8', env: { ...process.env, CI: 'true' }, timeout: 120_000 },
  );
  const output = `${run.stdout}${run.stderr}`;
  expect(output).toMatch(/Tests:\s+\d+ passed, \d+ total/); // the tests themselves pass…
  expect(run.status).toBe(1); // …and the run fails on coverage alone
  expect(output).toMatch(/"\.\/layers\/" coverage threshold for branches \(92%\) not met/);
  expect(output).toMatch(/"\.\/functions\/" coverage threshold for lines \(97%\) not met/);
}, 150_000);
