/**
 * A line to stderr from a VU's thread, written before the call returns. A worker thread's
 * process.stderr is a stream the main thread drains later, so lines still queued when the VU thread
 * is terminated (the test ends) or the process exits were lost: about one run in three dropped
 * console output. fs.writeSync on fd 2 writes at once; a full non-blocking pipe (EAGAIN) is retried.
 */
import { writeSync } from 'node:fs';

const pause = new Int32Array(new SharedArrayBuffer(4));

export function writeStderr(text: string): void {
  let rest = Buffer.from(text);
  for (let attempt = 0; rest.length > 0; attempt++) {
    try {
      rest = rest.subarray(writeSync(2, rest));
    } catch (err) {
      if ((err as NodeJS.ErrnoException).code !== 'EAGAIN' || attempt > 1000) {
        process.stderr.write(rest);
        return;
      }
      Atomics.wait(pause, 0, 0, 1);
    }
  }
}
