/**
 * setTimeout/setInterval for a VU, counted so that an iteration ends only when its timers have run
 * (k6's event loop waits for them too); leftovers are cleared when a call fails.
 */
type Callback = (...args: unknown[]) => void;

export class TrackedTimers {
  private readonly active = new Set<NodeJS.Timeout>();
  private wake?: () => void;
  private failure?: unknown;

  private settle(handle: NodeJS.Timeout): void {
    this.active.delete(handle);
    if (this.active.size === 0) this.wake?.();
  }

  private guarded(fn: Callback, args: unknown[]): void {
    try {
      fn(...args);
    } catch (err) {
      this.failure ??= err;
      this.wake?.();
    }
  }

  readonly api = {
    setTimeout: (fn: Callback, ms = 0, ...args: unknown[]): NodeJS.Timeout => {
      const handle: NodeJS.Timeout = setTimeout(() => {
        this.settle(handle);
        this.guarded(fn, args);
      }, ms);
      this.active.add(handle);
      return handle;
    },
    clearTimeout: (handle: NodeJS.Timeout): void => {
      clearTimeout(handle);
      this.settle(handle);
    },
    setInterval: (fn: Callback, ms = 0, ...args: unknown[]): NodeJS.Timeout => {
      const handle = setInterval(() => this.guarded(fn, args), ms);
      this.active.add(handle);
      return handle;
    },
    clearInterval: (handle: NodeJS.Timeout): void => {
      clearInterval(handle);
      this.settle(handle);
    },
  };

  /** Settles when no timer is pending; rejects with the first exception a timer callback threw. */
  async idle(): Promise<void> {
    while (this.active.size > 0 && this.failure === undefined)
      await new Promise<void>((resolve) => (this.wake = resolve));
    this.wake = undefined;
    const failure = this.failure;
    this.failure = undefined;
    if (failure !== undefined) throw failure;
  }

  clearAll(): void {
    for (const handle of this.active) clearTimeout(handle);
    this.active.clear();
    this.failure = undefined;
  }
}
