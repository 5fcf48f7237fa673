/** console.* in a VU prints as k6 does: to stderr, with level, time offset and `source=console`. */
import type { Runtime } from '../runtime.ts';

function text(args: unknown[]): string {
  return args
    .map((a) => {
      if (typeof a === 'string') return a;
      if (a instanceof Error) return `${a.name}: ${a.message}`;
      try {
        return typeof a === 'object' && a !== null ? JSON.stringify(a) : String(a);
      } catch {
        return String(a);
      }
    })
    .join(' ');
}

export function installConsole(runtime: Runtime, tty: boolean): void {
  const print =
    (level: string) =>
    (...args: unknown[]) => {
      const msg = text(args);
      if (tty) {
        const secs = String(Math.floor(runtime.elapsedMs() / 1000)).padStart(4, '0');
        process.stderr.write(
          `${level.slice(0, 4).toUpperCase()}[${secs}] ${msg.padEnd(40)} source=console\n`,
        );
      } else
        process.stderr.write(
          `time="${new Date().toISOString()}" level=${level} msg=${JSON.stringify(msg)} source=console\n`,
        );
    };
  // k6 hides debug output unless run with --verbose.
  const quiet = () => undefined;
  Object.assign(console, {
    log: print('info'),
    info: print('info'),
    warn: print('warning'),
    error: print('error'),
    debug: quiet,
    trace: quiet,
  });
}
