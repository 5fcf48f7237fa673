/**
 * One request's reads all listen to its deadline signal: a request over many blocks must not make Node warn of a
 * listener leak (MaxListenersExceededWarning: once per such request, hundreds of log lines a minute under load;
 * found by a concurrency probe). The signal lives as long as its request, so no listener outlives it. The request
 * runs in a child process (test/integration/support/many-blocks-request.ts): Node warns on the real process.
 */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';

it('a request with 60 reads queued at once draws no listener-leak warning', () => {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'request-signal-'));
  try {
    const run = spawnSync(
      process.execPath,
      ['--import', 'tsx', path.join(__dirname, 'support/many-blocks-request.ts'), dir],
      { encoding: 'utf8', env: { ...process.env, POWERTOOLS_METRICS_DISABLED: 'true', LOG_LEVEL: 'ERROR' } },
    );
    const answer = JSON.parse(run.stdout.trim().split('\n').pop() ?? '{}') as {
      status: number;
      heights: number[];
    };
    expect(answer).toEqual({ status: 200, heights: Array.from({ length: 64 }, (_, i) => i) });
    expect(run.stderr).not.toMatch(/MaxListenersExceededWarning/);
  } finally {
    fs.rmSync(dir, { recursive: true, force: true });
  }
}, 60_000);
