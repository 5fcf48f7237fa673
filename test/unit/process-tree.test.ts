/**
 * bench:scale's and bench:request-cost's /proc readings (scripts/bench/scale/process-tree.ts): a tree is the
 * root and everything whose parent chain reaches it, and its CPU and memory are that tree's, nobody else's.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { readStat, TICKS_PER_S, treeProcesses, treeStats } from '../../scripts/bench/scale/process-tree';

describe('process-tree (/proc, Linux: the benches run there)', () => {
  let parent: ChildProcess;
  let grandchildPid: number;

  beforeAll(async () => {
    // A shell whose own child is a sleep: two generations below this test's process.
    parent = spawn('sh', ['-c', 'sleep 30 & echo $!; wait'], { stdio: ['ignore', 'pipe', 'ignore'] });
    grandchildPid = await new Promise<number>((resolve) =>
      parent.stdout?.once('data', (chunk: Buffer) => resolve(Number(String(chunk).trim()))),
    );
  });

  afterAll(() => {
    try {
      process.kill(grandchildPid);
    } catch {
      // already gone
    }
    parent.kill();
  });

  it('reads a process stat whose command name holds spaces and parentheses', () => {
    const self = readStat('/proc/self/stat');
    expect(self?.pid).toBe(process.pid);
    expect(self?.ppid).toBe(process.ppid);
    expect(self?.rssPages).toBeGreaterThan(0);
    expect(readStat('/proc/0/stat')).toBeNull();
  });

  it('finds children and grandchildren, root first, and not the root’s parent', () => {
    const pids = treeProcesses(parent.pid as number).map((s) => s.pid);
    expect(pids[0]).toBe(parent.pid);
    expect(pids).toContain(grandchildPid);
    expect(pids).not.toContain(process.pid);
    expect(treeProcesses(process.pid).map((s) => s.pid)).toEqual(
      expect.arrayContaining([process.pid, parent.pid, grandchildPid]),
    );
  });

  it('sums the tree’s CPU and memory, and reports nothing for a pid that is gone', () => {
    const burn = Date.now() + 300;
    while (Date.now() < burn); // ~300 ms of CPU on this process
    const self = readStat('/proc/self/stat') as NonNullable<ReturnType<typeof readStat>>;
    const whole = treeStats(process.pid);
    expect(whole.pids).toBeGreaterThanOrEqual(3);
    expect(whole.cpuMs).toBeGreaterThanOrEqual((self.cpuTicks * 1000) / TICKS_PER_S);
    expect(whole.cpuMs).toBeGreaterThan(250);
    expect(whole.rssBytes).toBeGreaterThan(treeStats(parent.pid as number).rssBytes);
    expect(treeStats(2 ** 22 + 1)).toEqual({ cpuMs: 0, rssBytes: 0, pids: 0 });
  });
});
