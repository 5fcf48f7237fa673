/**
 * npm start checks the functions' settings before it starts anything: a bad one made every function fail at its
 * first request, so npm start waited out its 120 s start-up for a /health that never came (concurrency probe).
 */
import { spawnSync } from 'node:child_process';
import path from 'node:path';

const START = path.resolve(__dirname, '../../scripts/start.ts');

it.each([
  ['REQUEST_BLOCK_BUDGET_MB', '1', "REQUEST_BLOCK_BUDGET_MB must be an integer between 4 and 4096, got '1'."],
  ['MAX_CONCURRENT_READS', 'lots', "MAX_CONCURRENT_READS must be an integer between 1 and 256, got 'lots'."],
])(
  'refuses %s=%s at once, naming it',
  (name, value, message) => {
    const run = spawnSync(process.execPath, ['--import', 'tsx', START], {
      encoding: 'utf8',
      env: { ...process.env, [name]: value, PORT: '0', DATA_PORT: '0' },
      timeout: 60_000,
    });
    expect(run.status).toBe(1);
    expect(run.stderr).toContain(`npm start failed: ${message}`);
    expect(run.stdout).not.toContain('data layer listening');
  },
  60_000,
);
