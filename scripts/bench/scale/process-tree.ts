/**
 * CPU time and memory of a process tree from /proc (Linux): the pids whose parent chain reaches a root, their
 * user+system CPU (worker threads included: /proc/<pid>/stat sums a process's threads, finished ones too) and
 * their summed resident memory. A child that exited between two readings loses its CPU from the sum, so the
 * trees measured here (npm start, the data layer) must keep their processes for the whole cell.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux unless configured otherwise). */
const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;

interface ProcStat {
  pid: number;
  ppid: number;
  cpuTicks: number;
  rssPages: number;
}

function readStat(pid: number): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(`/proc/${pid}/stat`, 'utf8');
  } catch {
    return null; // exited meanwhile
  }
  // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid,
    ppid: Number(fields[1]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    rssPages: Number(fields[21]),
  };
}

export function treeStats(rootPid: number): { cpuMs: number; rssBytes: number; pids: number } {
  const all = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(Number(name)))
    .filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const root = all.find((s) => s.pid === rootPid);
  if (!root) return { cpuMs: 0, rssBytes: 0, pids: 0 };
  const tree: ProcStat[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const next = pending.pop() as ProcStat;
    tree.push(next);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return {
    cpuMs: (tree.reduce((sum, s) => sum + s.cpuTicks, 0) * 1000) / TICKS_PER_S,
    rssBytes: tree.reduce((sum, s) => sum + s.rssPages, 0) * PAGE_BYTES,
    pids: tree.length,
  };
}
