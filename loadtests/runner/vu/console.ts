/** console.* in a VU prints as k6 does: to stderr, with level, time offset and `source=console`. */
import type { Runtime } from '../runtime.ts';
import { writeStderr } from './stderr.ts';

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

export function installConsole(runtime: Runtime, tty: boolean, verbose = false): void {
  const print =
    (level: string) =>
    (...args: unknown[]) => {
      const msg = text(args);
      if (tty) {
        const secs = String(Math.floor(runtime.elapsedMs() / 1000)).padStart(4, '0');
        writeStderr(`${level.slice(0, 4).toUpperCase()}[${secs}] ${msg.padEnd(40)} source=console\n`);
      } else
        writeStderr(
          `time="${new Date().toISOString()}" level=${level} msg=${JSON.stringify(msg)} source=console\n`,
        );
    };
  // k6 hides debug output unless run with --verbose.
  const quiet = () => undefined;
  const debug = verbose ? print('debug') : quiet;
  const error = print('error');
  Object.assign(console, {
    log: print('info'),
    info: print('info'),
    warn: print('warning'),
    error,
    // k6 logs a failed assertion at error level ("Assertion failed: …"); a passing one prints nothing.
    assert: (condition: unknown, ...args: unknown[]) => {
      if (!condition) error(...(args.length ? ['Assertion failed:', ...args] : ['Assertion failed']));
    },
    debug,
    trace: quiet,
  });
}
