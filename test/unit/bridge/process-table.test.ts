import { spawn } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Registry } from 'prom-client';
import {
  CpuDeltas,
  isServerlessOffline,
  parseRssBytes,
  parseStat,
  watchedProcesses,
} from '../../../stack/bridge/process-table';
import { registerProcessMetrics } from '../../../stack/bridge/process-metrics';
import { describeIfAvailable } from '../../support/requirements';

// A command with a space and a parenthesis, as /proc/<pid>/stat shows it; utime 1200, stime 300 ticks.
const STAT = '4242 (node (worker) x) S 4200 4200 4200 0 -1 4194560 5000 0 0 0 1200 300 0 0 20 0 11 0 100 0 0';

describe('process table', () => {
  it('reads pid, parent and CPU ticks from a stat line whose command holds spaces and parentheses', () => {
    expect(parseStat(STAT)).toEqual({ pid: 4242, ppid: 4200, cpuTicks: 1500 });
    expect(parseStat('garbage')).toBeNull();
  });

  it('reads VmRSS in bytes, 0 when absent (a zombie)', () => {
    expect(parseRssBytes('Name:\tnode\nVmRSS:\t  123456 kB\nThreads:\t11\n')).toBe(123456 * 1024);
    expect(parseRssBytes('Name:\tnode\nState:\tZ (zombie)\n')).toBe(0);
  });

  it('recognises serverless-offline as osls/sls offline or the plugin path', () => {
    expect(
      isServerlessOffline(['node', '/repo/node_modules/.bin/osls', 'offline', '--httpPort', '1'].join('\0')),
    ).toBe(true);
    expect(
      isServerlessOffline(['node', '/repo/node_modules/osls/bin/serverless.js', 'offline'].join('\0')),
    ).toBe(true);
    expect(isServerlessOffline(['node', '--import', 'tsx', 'scripts/start.ts'].join('\0'))).toBe(false);
    expect(isServerlessOffline(['node', 'osls', 'package'].join('\0'))).toBe(false);
  });

  it("labels each PID file's tree by the file's name, serverless-offline below it as api, and nothing else", () => {
    const table = [
      { pid: 10, ppid: 1, cpuTicks: 0 }, // api.pid: npm start (data layer + gateway)
      { pid: 11, ppid: 10, cpuTicks: 0 }, // serverless-offline
      { pid: 12, ppid: 11, cpuTicks: 0 }, // a child of serverless-offline
      { pid: 20, ppid: 1, cpuTicks: 0 }, // jaeger.pid
      { pid: 30, ppid: 1, cpuTicks: 0 }, // another agent's serverless-offline: no PID file names it
    ];
    const cmdline = (pid: number) => (pid === 11 || pid === 30 ? 'node\0osls\0offline' : 'node');
    const watched = watchedProcesses(
      [
        { name: 'jaeger', pid: 20 },
        { name: 'api', pid: 10 },
        { name: 'gone', pid: 99 },
      ],
      table,
      cmdline,
    );
    expect(watched.sort((a, b) => a.pid - b.pid)).toEqual([
      { pid: 10, name: 'api' },
      { pid: 11, name: 'api' },
      { pid: 12, name: 'api' },
      { pid: 20, name: 'jaeger' },
    ]);
    const renamed = watchedProcesses([{ name: 'data-layer', pid: 10 }], table, cmdline);
    expect(Object.fromEntries(renamed.map((w) => [w.pid, w.name]))).toEqual({
      10: 'data-layer',
      11: 'api',
      12: 'api',
    });
  });

  it('turns CPU totals into per-label increments that never go down when a process exits', () => {
    const deltas = new CpuDeltas();
    expect(deltas.next([{ pid: 1, name: 'api', cpuTicks: 50 }])).toEqual(new Map([['api', 50]]));
    const next = deltas.next([
      { pid: 1, name: 'api', cpuTicks: 80 },
      { pid: 2, name: 'api', cpuTicks: 5 },
    ]);
    expect(next).toEqual(new Map([['api', 35]]));
    // pid 2 exited; a reused pid 1 with fewer ticks counts nothing rather than a negative amount.
    expect(deltas.next([{ pid: 1, name: 'api', cpuTicks: 10 }])).toEqual(new Map([['api', 0]]));
  });
});

describeIfAvailable(
  'process metrics from /proc',
  [{ what: 'Linux /proc', available: fs.existsSync('/proc/self/stat') }],
  () => {
    it('reports CPU seconds and resident memory of a PID file’s process and its children', async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'pids-'));
      const busy = spawn(
        process.execPath,
        ['-e', 'const end = Date.now() + 400; while (Date.now() < end);'],
        {
          stdio: 'ignore',
        },
      );
      try {
        fs.writeFileSync(path.join(dir, 'self.pid'), String(process.pid));
        const registry = new Registry();
        registerProcessMetrics(registry, dir);
        await new Promise((r) => setTimeout(r, 300));
        const text = await registry.metrics();
        const value = (name: string) =>
          Number(new RegExp(`^${name}\\{process="self"\\} (\\S+)$`, 'm').exec(text)?.[1] ?? NaN);
        expect(value('elevation_stack_process_cpu_seconds_total')).toBeGreaterThan(0);
        // This jest worker alone holds tens of MiB.
        expect(value('elevation_stack_process_resident_memory_bytes')).toBeGreaterThan(20 * 1024 * 1024);
        expect(text).not.toMatch(/process="(?!self")/);
      } finally {
        busy.kill();
        fs.rmSync(dir, { recursive: true, force: true });
      }
    });
  },
);
