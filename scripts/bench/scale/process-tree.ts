/**
 * CPU time and memory of a process tree from /proc (Linux): the pids whose parent chain reaches a root, their
 * user+system CPU (worker threads included: /proc/<pid>/stat sums a process's threads, finished ones too) and
 * their summed resident memory. A child that exited between two readings loses its CPU from the sum, so the
 * trees measured here (npm start, the data layer) must keep their processes for the whole cell.
 */
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';

/** Clock ticks per second of /proc/<pid>/stat's utime and stime (100 on Linux unless configured otherwise). */
export const TICKS_PER_S = Number(execFileSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).trim()) || 100;
const PAGE_BYTES = Number(execFileSync('getconf', ['PAGESIZE'], { encoding: 'utf8' }).trim()) || 4096;

export interface ProcStat {
  /** The file's first field: the process id, or the thread id for a task's stat. */
  pid: number;
  ppid: number;
  cpuTicks: number;
  rssPages: number;
}

/**
 * One /proc stat file: `/proc/<pid>/stat` for a process (its threads summed), `/proc/<pid>/task/<tid>/stat` for
 * one thread (bench:request-cost). Null when it has exited meanwhile.
 */
export function readStat(file: string): ProcStat | null {
  let text: string;
  try {
    text = fs.readFileSync(file, 'utf8');
  } catch {
    return null; // exited meanwhile
  }
  // The command name (field 2) may hold spaces and parentheses: split after its last ')'.
  const fields = text.slice(text.lastIndexOf(')') + 2).split(' ');
  return {
    pid: Number(text.slice(0, text.indexOf(' '))),
    ppid: Number(fields[1]),
    cpuTicks: Number(fields[11]) + Number(fields[12]),
    rssPages: Number(fields[21]),
  };
}

/** The stats of rootPid and of every process whose parent chain reaches it, root first; empty if it is gone. */
export function treeProcesses(rootPid: number): ProcStat[] {
  const all = fs
    .readdirSync('/proc')
    .filter((name) => /^\d+$/.test(name))
    .map((name) => readStat(`/proc/${name}/stat`))
    .filter((s): s is ProcStat => s !== null);
  const children = new Map<number, ProcStat[]>();
  for (const s of all) children.set(s.ppid, [...(children.get(s.ppid) ?? []), s]);
  const root = all.find((s) => s.pid === rootPid);
  if (!root) return [];
  const tree: ProcStat[] = [];
  const pending = [root];
  while (pending.length > 0) {
    const next = pending.pop() as ProcStat;
    tree.push(next);
    pending.push(...(children.get(next.pid) ?? []));
  }
  return tree;
}

export function treeStats(rootPid: number): { cpuMs: number; rssBytes: number; pids: number } {
  const tree = treeProcesses(rootPid);
  return {
    cpuMs: (tree.reduce((sum, s) => sum + s.cpuTicks, 0) * 1000) / TICKS_PER_S,
    rssBytes: tree.reduce((sum, s) => sum + s.rssPages, 0) * PAGE_BYTES,
    pids: tree.length,
  };
}
