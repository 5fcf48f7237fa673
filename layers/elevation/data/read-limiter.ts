/**
 * A counting semaphore with an optional bound on its queue. As `ReadLimiter` it caps one request's range reads
 * (512 points in 512 cold blocks must not open 512 sockets and hold 512 compressed bodies at once); the local
 * gateway uses it as Lambda's per-function concurrency (scripts/gateway). Waiters are served in order; a waiter
 * whose signal fires leaves the queue; with a full queue `acquire` answers null at once.
 *
 * @example
 * ```ts
 * const limit = new ConcurrencyLimit(1, 1);
 * const release = await limit.acquire();
 * const waiting = limit.acquire(); // queued
 * assert.equal(await limit.acquire(), null); // the queue holds one: refused at once
 * release?.();
 * (await waiting)?.();
 * assert.equal(limit.inFlight, 0);
 * ```
 */
export class ConcurrencyLimit {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(
    readonly maxConcurrent: number,
    readonly maxQueued = Infinity,
  ) {}

  /** A release function once a slot is free; null when the queue is full; rejects if the signal fires first. */
  acquire(signal?: AbortSignal): Promise<(() => void) | null> {
    if (signal?.aborted) return Promise.reject(signal.reason as Error);
    if (this.active < this.maxConcurrent) {
      this.active++;
      return Promise.resolve(this.releaser());
    }
    if (this.waiting.length >= this.maxQueued) return Promise.resolve(null);
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

  get queued(): number {
    return this.waiting.length;
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

/**
 * One request's cap on concurrent range reads (MAX_CONCURRENT_READS); its queue is unbounded.
 *
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const limiter = new ReadLimiter(2); // at most two range reads of this request at once
 * await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { limiter });
 * assert.equal(limiter.inFlight, 0);
 * ```
 */
export class ReadLimiter extends ConcurrencyLimit {}
