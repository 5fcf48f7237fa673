/**
 * A request's deadline: at `budgetMs` its signal fires (reads, retries and backoffs stop) and the request answers
 * with the deadline's error (504). Work that listens to the signal settles within a few ticks of it; the answer
 * waits for that, at most `settleMs`, so what the cut-short work does last is part of its request: its trace spans
 * close (not sent as 0 ms spans still in progress) and its cut reads are counted (DataSourceAnswers `deadline`)
 * before telemetry sends the request's documents. Work that ignores the signal is not waited for beyond `settleMs`.
 */
import { setMaxListeners } from 'node:events';

export interface Deadline {
  /** Fires at the deadline, with its error as the reason. */
  readonly signal: AbortSignal;
  /** The work's answer before the deadline; the deadline's error once it has passed, whatever the work answers. */
  race<T>(work: Promise<T>): Promise<T>;
  /** Stops the clock (the request answered). */
  clear(): void;
}

/**
 * @example
 * ```ts
 * const deadline = requestDeadline(10, 50, () => new Error('Request deadline of 10 ms passed'));
 * const work = new Promise((resolve) => deadline.signal.addEventListener('abort', () => setTimeout(resolve, 5)));
 * await assert.rejects(deadline.race(work), /deadline of 10 ms/);
 * deadline.clear();
 * ```
 */
export function requestDeadline(budgetMs: number, settleMs: number, error: () => Error): Deadline {
  const controller = new AbortController();
  // Every read of this request listens to its signal (one per read queued behind MAX_CONCURRENT_READS): Node's
  // leak warning at 11 fired on most requests over many blocks. The signal lives as long as its request.
  setMaxListeners(0, controller.signal);
  let timer: NodeJS.Timeout | undefined;
  let settle: NodeJS.Timeout | undefined;
  return {
    signal: controller.signal,
    race<T>(work: Promise<T>): Promise<T> {
      const answered = work.then(
        (value) => {
          if (controller.signal.aborted) throw controller.signal.reason;
          return value;
        },
        (cause: unknown) => {
          throw controller.signal.aborted ? controller.signal.reason : cause;
        },
      );
      const expired = new Promise<never>((_, reject) => {
        timer = setTimeout(() => {
          controller.abort(error());
          // Whichever comes first: the work settling (rejected above with the deadline's error) or the grace.
          if (settleMs <= 0) reject(controller.signal.reason);
          else settle = setTimeout(() => reject(controller.signal.reason), settleMs);
        }, budgetMs);
      });
      return Promise.race([answered, expired]);
    },
    clear(): void {
      clearTimeout(timer);
      clearTimeout(settle);
    },
  };
}
