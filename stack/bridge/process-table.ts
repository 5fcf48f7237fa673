/**
 * CPU and resident memory of the processes under test, read from /proc, for the dashboards' process panels: the
 * API (serverless-offline and its worker threads, which expose no metrics of their own), the data layer, the
 * stack's services and the load generator. Which processes: every `<name>.pid` file in a folder (stack:up writes
 * its services' there; report:smoke adds the API's and the load generator's), each with all its descendants.
 * A descendant running serverless-offline is `api`; every other one takes its PID file's name (under `npm start`
 * the API's PID file names the process that serves the data layer and the local gateway: `data-layer`).
 * Parsing is pure; reading /proc is the caller's.
 */

export interface ProcStat {
  pid: number;
  ppid: number;
  /** utime + stime of the whole thread group, in clock ticks. */
  cpuTicks: number;
}

/** `/proc/<pid>/stat`: the command (field 2) may hold spaces and parentheses, so fields count from its last `)`. */
export function parseStat(text: string): ProcStat | null {
  const close = text.lastIndexOf(')');
  if (close < 0) return null;
  const pid = Number(text.slice(0, text.indexOf('(')).trim());
  // After ") ": state(3) ppid(4) pgrp(5) session(6) tty(7) tpgid(8) flags(9) minflt(10) cminflt(11) majflt(12)
  // cmajflt(13) utime(14) stime(15)
  const rest = text
    .slice(close + 2)
    .trim()
    .split(/\s+/);
  const ppid = Number(rest[1]);
  const cpuTicks = Number(rest[11]) + Number(rest[12]);
  return Number.isInteger(pid) && Number.isInteger(ppid) && Number.isFinite(cpuTicks)
    ? { pid, ppid, cpuTicks }
    : null;
}

/** VmRSS of `/proc/<pid>/status` in bytes (0 for a zombie, which has none). */
export function parseRssBytes(status: string): number {
  const kb = /^VmRSS:\s+(\d+)\s+kB/m.exec(status);
  return kb ? Number(kb[1]) * 1024 : 0;
}

/** serverless-offline (osls offline, or serverless offline) in a NUL-separated command line. */
export function isServerlessOffline(cmdline: string): boolean {
  const args = cmdline.split('\0');
  return (
    args.some((a) => /serverless-offline/.test(a)) ||
    (args.some((a) => /(^|\/)(osls|sls|serverless)(\.js)?$/.test(a)) && args.includes('offline'))
  );
}

export interface WatchedProcess {
  pid: number;
  /** The `process` label. */
  name: string;
}

/**
 * Each PID file's process and its descendants, labelled. A process reachable from two PID files keeps the first
 * file's label (files in name order); `cmdlineOf` is asked only for descendants.
 */
export function watchedProcesses(
  pidFiles: readonly { name: string; pid: number }[],
  table: readonly ProcStat[],
  cmdlineOf: (pid: number) => string,
): WatchedProcess[] {
  const children = new Map<number, number[]>();
  for (const p of table) children.set(p.ppid, [...(children.get(p.ppid) ?? []), p.pid]);
  const alive = new Set(table.map((p) => p.pid));
  const seen = new Set<number>();
  const out: WatchedProcess[] = [];
  for (const file of [...pidFiles].sort((a, b) => a.name.localeCompare(b.name))) {
    if (!alive.has(file.pid)) continue;
    const stack: { pid: number; name: string }[] = [{ pid: file.pid, name: file.name }];
    while (stack.length > 0) {
      const { pid, name } = stack.pop() as { pid: number; name: string };
      if (seen.has(pid)) continue;
      seen.add(pid);
      const label = pid !== file.pid && isServerlessOffline(cmdlineOf(pid)) ? 'api' : name;
      out.push({ pid, name: label });
      for (const child of children.get(pid) ?? []) stack.push({ pid: child, name: label });
    }
  }
  return out;
}

/**
 * Turns per-process CPU tick totals into per-label increments: a counter per label must never go down, but a
 * label's processes come and go (a child exits, a service restarts), so only each live process's growth counts.
 */
export class CpuDeltas {
  private last = new Map<number, number>();

  next(processes: readonly { pid: number; name: string; cpuTicks: number }[]): Map<string, number> {
    const deltas = new Map<string, number>();
    const now = new Map<number, number>();
    for (const p of processes) {
      const before = this.last.get(p.pid);
      now.set(p.pid, p.cpuTicks);
      // A process first seen counts from zero: its whole CPU time so far happened while it was under test.
      const delta = before === undefined ? p.cpuTicks : p.cpuTicks - before;
      deltas.set(p.name, (deltas.get(p.name) ?? 0) + Math.max(0, delta));
    }
    this.last = now;
    return deltas;
  }
}
