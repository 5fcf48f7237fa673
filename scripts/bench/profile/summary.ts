/**
 * Self time of a V8 CPU profile (`node --cpu-prof`'s .cpuprofile), summed by module and by function: where a
 * process's (or a worker thread's) CPU went. How the README's cold-point figures were found (e.g. 7.4 ms of GC per
 * cold point on the handler's worker thread). Under contention a sample lands on whatever ran when the thread
 * resumed, so syscalls such as `writev` on loopback look dearer than their CPU: /proc's figures are the ground truth.
 */

/** The parts of the Chrome DevTools profile format used here. */
export interface CpuProfile {
  nodes: { id: number; callFrame: { functionName: string; url: string; lineNumber: number } }[];
  samples: number[];
  timeDeltas: number[];
  startTime: number;
  endTime: number;
}

export interface ProfileLine {
  name: string;
  ms: number;
  /** Share of the profile's sampled time, 0-1. */
  share: number;
}

export interface ProfileSummary {
  /** Sampled time, idle included (ms). */
  totalMs: number;
  /** Sampled time the thread was not idle (ms). */
  busyMs: number;
  byModule: ProfileLine[];
  byFunction: ProfileLine[];
}

/** V8's pseudo-frames: kept as they are, they are the answer to "where did it go" (GC, idle, native). */
const PSEUDO = /^\((idle|garbage collector|program|root)\)$/;

/** `node_modules/@scope/pkg/…` -> `@scope/pkg`; the repo's own files relative to `root`; node: built-ins as is. */
export function moduleOf(url: string, functionName: string, root = ''): string {
  if (url === '') return PSEUDO.test(functionName) ? functionName : `(native) ${functionName}`;
  const dependency = /node_modules\/((?:@[^/]+\/)?[^/]+)/.exec(url);
  if (dependency) return dependency[1];
  const plain = url.replace(/^file:\/\//, '');
  return root !== '' && plain.startsWith(root) ? plain.slice(root.length).replace(/^\//, '') : plain;
}

export function summarizeProfile(profile: CpuProfile, root = '', top = 30): ProfileSummary {
  const nodes = new Map(profile.nodes.map((n) => [n.id, n]));
  const selfUs = new Map<number, number>();
  let totalUs = 0;
  profile.samples.forEach((id, i) => {
    const us = profile.timeDeltas[i] ?? 0;
    totalUs += us;
    selfUs.set(id, (selfUs.get(id) ?? 0) + us);
  });
  const byModule = new Map<string, number>();
  const byFunction = new Map<string, number>();
  let idleUs = 0;
  for (const [id, us] of selfUs) {
    const frame = nodes.get(id)?.callFrame;
    if (!frame) continue;
    if (frame.functionName === '(idle)') idleUs += us;
    const module = moduleOf(frame.url, frame.functionName, root);
    const fn =
      frame.url === '' ? module : `${frame.functionName || '(anonymous)'} ${module}:${frame.lineNumber + 1}`;
    byModule.set(module, (byModule.get(module) ?? 0) + us);
    byFunction.set(fn, (byFunction.get(fn) ?? 0) + us);
  }
  const lines = (m: Map<string, number>): ProfileLine[] =>
    [...m]
      .sort((a, b) => b[1] - a[1])
      .slice(0, top)
      .map(([name, us]) => ({ name, ms: us / 1000, share: totalUs > 0 ? us / totalUs : 0 }));
  return {
    totalMs: totalUs / 1000,
    busyMs: (totalUs - idleUs) / 1000,
    byModule: lines(byModule),
    byFunction: lines(byFunction),
  };
}

export function formatSummary(
  title: string,
  summary: ProfileSummary,
  perUnit?: { count: number; unit: string },
): string {
  const per = (ms: number): string =>
    perUnit ? ` ${(ms / perUnit.count).toFixed(3).padStart(8)} ms/${perUnit.unit}` : '';
  const table = (lines: ProfileLine[]): string[] =>
    lines.map(
      (l) =>
        `${l.ms.toFixed(0).padStart(8)} ms ${(l.share * 100).toFixed(1).padStart(5)} %${per(l.ms)}  ${l.name}`,
    );
  return [
    `${title}: ${summary.totalMs.toFixed(0)} ms sampled, ${summary.busyMs.toFixed(0)} ms busy${per(summary.busyMs)}`,
    '  by module:',
    ...table(summary.byModule).map((l) => `  ${l}`),
    '  by function:',
    ...table(summary.byFunction).map((l) => `  ${l}`),
  ].join('\n');
}
