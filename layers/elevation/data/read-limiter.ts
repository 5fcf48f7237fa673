/**
 * A counting semaphore for one request's range reads: 512 points in 512 cold blocks must not open 512 sockets
 * and hold 512 compressed bodies at once. Waiters queue in order; a waiter whose signal fires leaves the queue.
 */
export class ReadLimiter {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(readonly maxConcurrent: number) {}

  /** Resolves with a release function once a slot is free; rejects with the signal's reason if it fires first. */
  acquire(signal?: AbortSignal): Promise<() => void> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.maxConcurrent) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    return new Promise((resolve, reject) => {
      const grant = (): void => {
        signal?.removeEventListener('abort', onAbort);
        this.active++;
        resolve(this.releaser());
      };
      const onAbort = (): void => {
        const at = this.waiting.indexOf(grant);
        if (at >= 0) this.waiting.splice(at, 1);
        reject(signal?.reason as Error);
      };
      signal?.addEventListener('abort', onAbort, { once: true });
      this.waiting.push(grant);
    });
  }

  get inFlight(): number {
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
