import { spawnSync } from 'node:child_process';
import { DEFAULT_OFFLINE_NODE_FLAGS, nodeFlags } from '../../scripts/start/serverless-offline';

/** A worker thread (where serverless-offline runs a handler) that allocates, then prints its new space's size. */
const WORKER_NEW_SPACE = `
const { Worker } = require('node:worker_threads');
const code = "const a = []; for (let i = 0; i < 300000; i++) a.push({ i, s: 'x' + i }); " +
  "const n = require('node:v8').getHeapSpaceStatistics().find((s) => s.space_name === 'new_space'); " +
  "console.log(n.space_size);";
new Worker(code, { eval: true });
`;

function workerNewSpaceBytes(flags: string[]): number {
  const run = spawnSync(process.execPath, [...flags, '-e', WORKER_NEW_SPACE], { encoding: 'utf8' });
  expect(run.stderr).toBe('');
  expect(run.status).toBe(0);
  return Number(run.stdout.trim());
}

describe('OFFLINE_NODE_FLAGS: node flags for serverless-offline', () => {
  it('defaults to single-threaded GC and a 2 MiB semi-space when unset', () => {
    expect(nodeFlags(undefined)).toEqual(['--single-threaded-gc', '--max-semi-space-size=2']);
    expect(DEFAULT_OFFLINE_NODE_FLAGS).toBe(nodeFlags(undefined));
  });

  it("bounds a worker thread's young generation with the default flags (this Node accepts them)", () => {
    const bounded = workerNewSpaceBytes(DEFAULT_OFFLINE_NODE_FLAGS);
    expect(bounded).toBeGreaterThan(0);
    expect(bounded).toBeLessThanOrEqual(2 * 2 * 1024 * 1024);
    // Without them the same allocation grows it past that (so the bound above is the flag's doing).
    expect(workerNewSpaceBytes([])).toBeGreaterThan(bounded);
  });

  it('replaces the default: empty means none, several are split on whitespace', () => {
    expect(nodeFlags('')).toEqual([]);
    expect(nodeFlags('  --max-old-space-size=512   --max_semi_space_size=32 ')).toEqual([
      '--max-old-space-size=512',
      '--max_semi_space_size=32',
    ]);
  });

  it.each(['single-threaded-gc', '-e', '--require ./x', 'script.js', '--=1', '--Flag'])(
    'refuses %j with a message naming it',
    (value) => {
      // The first word that is not a flag is the one named (for '--require ./x' it is './x').
      const offending = value.split(' ').find((f) => !/^--[a-z0-9][a-z0-9_-]*(=\S+)?$/.test(f)) as string;
      expect(() => nodeFlags(value)).toThrow(
        `OFFLINE_NODE_FLAGS holds node flags like --single-threaded-gc, got "${offending}"`,
      );
    },
  );
});
