/**
 * loadtests/k6.sh hands real k6 the same arguments as the runner: a fake `k6` on the PATH (a shell
 * script that prints its arguments; k6 itself is never installed here) shows what k6 would receive.
 */
import { spawnSync } from 'node:child_process';
import { chmodSync, mkdtempSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';

const ROOT = path.resolve(__dirname, '..', '..', '..');

function runK6Sh(args: string[], env: Record<string, string> = {}) {
  const bin = mkdtempSync(path.join(os.tmpdir(), 'fake-k6-'));
  const fake = path.join(bin, 'k6');
  writeFileSync(fake, '#!/bin/sh\nfor a in "$@"; do printf "%s\\n" "$a"; done\n');
  chmodSync(fake, 0o755);
  const result = spawnSync('bash', ['loadtests/k6.sh', 'loadtests/baseline.ts', ...args], {
    cwd: ROOT,
    env: {
      ...process.env,
      PATH: `${bin}:${process.env.PATH}`,
      K6_RUNNER: '',
      K6_PROMETHEUS_RW_SERVER_URL: '',
      ...env,
    },
    encoding: 'utf8',
  });
  return { code: result.status, args: result.stdout.trim().split('\n'), stderr: result.stderr };
}

describe('loadtests/k6.sh with a real k6 on the PATH', () => {
  it('passes --tag testid and TESTID to k6, with no extra arguments (set -u, empty arrays)', () => {
    const r = runK6Sh([], { TESTID: 'run-42' });
    expect(r.code).toBe(0);
    expect(r.args).toEqual(['run', '--tag', 'testid=run-42', '-e', 'TESTID=run-42', 'loadtests/baseline.ts']);
  });

  it('adds the Prometheus output and keeps the caller arguments before the script', () => {
    const r = runK6Sh(['-e', 'RATE=50'], {
      K6_PROMETHEUS_RW_SERVER_URL: 'http://127.0.0.1:9090/api/v1/write',
    });
    expect(r.code).toBe(0);
    expect(r.args[0]).toBe('run');
    expect(r.args.slice(1, 3)).toEqual(['-o', 'experimental-prometheus-rw']);
    expect(r.args).toContain('RATE=50');
    expect(r.args.find((a) => a.startsWith('testid='))).toMatch(/^testid=baseline-\d+-\d+$/);
    expect(r.args[r.args.length - 1]).toBe('loadtests/baseline.ts');
  });
});
