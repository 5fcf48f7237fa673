/**
 * Local stand-in for Lambda's concurrency per function: at most `maxConcurrent` invocations of a function run at
 * once (serverless-offline starts a worker thread of 70-100 MB with its own cold caches per concurrent request,
 * so 200 simultaneous requests used to mean 200 workers and 6 GB). Requests beyond that wait in a bounded FIFO
 * queue, as reserved concurrency would throttle, but queueing instead of answering 429 at once.
 */
export class FunctionSlots {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued: number,
  ) {}

  /** A release function once a slot is free; null at once when the queue is full (the caller answers 429). */
  acquire(): Promise<(() => void) | null> {
    if (this.active < this.maxConcurrent) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueued) return Promise.resolve(null);
    return new Promise((resolve) =>
      this.waiting.push(() => {
        this.active++;
        resolve(this.releaser());
      }),
    );
  }

  /** Removes a waiter that gave up (its client went away or its time ran out). */
  get queued(): number {
    return this.waiting.length;
  }

  get running(): number {
    return this.active;
  }

  private releaser(): () => void {
    let released = false;
    return () => {
      if (released) return;
      released = true;
      this.active--;
      this.waiting.shift()?.();
    };
  }
}
