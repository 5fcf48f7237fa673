/**
 * The process table (process-table.ts) as Prometheus metrics, read from /proc at scrape time:
 * `elevation_stack_process_cpu_seconds_total{process}` and `elevation_stack_process_resident_memory_bytes{process}`.
 */
import { readdirSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { Counter, Gauge, type Registry } from 'prom-client';
import { CpuDeltas, parseRssBytes, parseStat, watchedProcesses, type ProcStat } from './process-table';

/** USER_HZ: the unit of /proc's CPU times, 100 on every Linux architecture Node runs on. */
const CLOCK_TICKS_PER_SECOND = 100;

const read = (file: string): string => {
  try {
    return readFileSync(file, 'utf8');
  } catch {
    return ''; // the process exited between listing and reading, or not Linux
  }
};

function pidFiles(dir: string): { name: string; pid: number }[] {
  let names: string[] = [];
  try {
    names = readdirSync(dir).filter((f) => f.endsWith('.pid'));
  } catch {
    return [];
  }
  return names
    .map((f) => ({ name: f.slice(0, -'.pid'.length), pid: Number(read(path.join(dir, f)).trim()) }))
    .filter((f) => Number.isInteger(f.pid) && f.pid > 0);
}

function processTable(proc: string): ProcStat[] {
  let entries: string[] = [];
  try {
    entries = readdirSync(proc).filter((e) => /^\d+$/.test(e));
  } catch {
    return [];
  }
  return entries
    .map((e) => parseStat(read(path.join(proc, e, 'stat'))))
    .filter((s): s is ProcStat => s !== null);
}

export function registerProcessMetrics(registry: Registry, pidsDir: string, proc = '/proc'): void {
  const deltas = new CpuDeltas();
  const cpu = new Counter({
    name: 'elevation_stack_process_cpu_seconds_total',
    help: 'CPU time (user + system) of the processes under test, by process (from /proc; see process-table.ts)',
    labelNames: ['process'],
    registers: [],
  });
  new Gauge({
    name: 'elevation_stack_process_resident_memory_bytes',
    help: 'Resident memory of the processes under test, by process (VmRSS from /proc)',
    labelNames: ['process'],
    registers: [registry],
    // One /proc pass per scrape sets both; the counter is registered after this gauge, so it is read fresh.
    collect() {
      const table = processTable(proc);
      const byPid = new Map(table.map((p) => [p.pid, p]));
      const watched = watchedProcesses(pidFiles(pidsDir), table, (pid) =>
        read(path.join(proc, String(pid), 'cmdline')),
      );
      const rss = new Map<string, number>();
      for (const w of watched) {
        const bytes = parseRssBytes(read(path.join(proc, String(w.pid), 'status')));
        rss.set(w.name, (rss.get(w.name) ?? 0) + bytes);
      }
      this.reset();
      for (const [name, bytes] of rss) this.set({ process: name }, bytes);
      const ticks = watched.map((w) => ({ ...w, cpuTicks: byPid.get(w.pid)?.cpuTicks ?? 0 }));
      for (const [name, delta] of deltas.next(ticks))
        cpu.inc({ process: name }, delta / CLOCK_TICKS_PER_SECOND);
    },
  });
  registry.registerMetric(cpu);
}
