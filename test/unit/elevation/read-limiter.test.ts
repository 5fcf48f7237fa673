import { ReadLimiter } from '../../../layers/elevation';
import { ConcurrencyLimit } from '../../../layers/elevation/data/read-limiter';

describe('ReadLimiter', () => {
  it('never runs more than its maximum at once and serves waiters in order', async () => {
    const limiter = new ReadLimiter(2);
    let running = 0;
    let peak = 0;
    const order: number[] = [];
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const release = await limiter.acquire();
        running++;
        peak = Math.max(peak, running);
        order.push(i);
        await new Promise((resolve) => setTimeout(resolve, 5));
        running--;
        release?.();
      }),
    );
    expect(peak).toBe(2);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect(limiter.inFlight).toBe(0);
  });

  it('lets a waiter leave when its deadline fires, without taking a slot', async () => {
    const limiter = new ReadLimiter(1);
    const release = await limiter.acquire();
    const controller = new AbortController();
    const waiting = limiter.acquire(controller.signal);
    controller.abort(new Error('deadline'));
    await expect(waiting).rejects.toThrow('deadline');
    release?.();
    expect(limiter.inFlight).toBe(0);
    (await limiter.acquire())?.();
  });
});

describe("ConcurrencyLimit (the local gateway's per-function concurrency)", () => {
  it('queues up to its bound and refuses the next at once, counting what waits', async () => {
    const limit = new ConcurrencyLimit(1, 2);
    const first = await limit.acquire();
    const second = limit.acquire();
    const third = limit.acquire();
    expect(limit.queued).toBe(2);
    expect(await limit.acquire()).toBeNull();
    expect(limit.queued).toBe(2);
    first?.();
    (await second)?.();
    (await third)?.();
    expect([limit.inFlight, limit.queued]).toEqual([0, 0]);
  });

  it('refuses at once a signal that has already fired, taking no slot', async () => {
    const limit = new ConcurrencyLimit(1);
    await expect(limit.acquire(AbortSignal.abort(new Error('gone')))).rejects.toThrow('gone');
    expect(limit.inFlight).toBe(0);
  });

  it('counts a release called twice once, so the bound holds', async () => {
    const limit = new ConcurrencyLimit(2);
    const a = await limit.acquire();
    const b = await limit.acquire();
    a?.();
    a?.();
    expect(limit.inFlight).toBe(1);
    const c = await limit.acquire();
    expect(limit.inFlight).toBe(2);
    let fourth = false;
    const d = limit.acquire().then((release) => {
      fourth = true;
      return release;
    });
    await new Promise((resolve) => setImmediate(resolve));
    expect(fourth).toBe(false); // two in flight: the fourth waits
    b?.();
    (await d)?.();
    c?.();
    expect(limit.inFlight).toBe(0);
  });

  it('leaves the other waiters queued in order when one leaves, and a late abort of a served waiter does nothing', async () => {
    const limit = new ConcurrencyLimit(1);
    const release = await limit.acquire();
    const leaving = new AbortController();
    const served = new AbortController();
    const order: string[] = [];
    const a = limit.acquire(served.signal).then((r) => (order.push('a'), r));
    const b = limit.acquire(leaving.signal);
    const c = limit.acquire().then((r) => (order.push('c'), r));
    leaving.abort(new Error('left'));
    await expect(b).rejects.toThrow('left');
    expect(limit.queued).toBe(2);
    release?.();
    const releaseA = await a;
    served.abort(new Error('too late')); // already served: neither a queue change nor a rejection
    expect(limit.queued).toBe(1);
    releaseA?.();
    (await c)?.();
    expect(order).toEqual(['a', 'c']);
    expect(limit.inFlight).toBe(0);
  });
});
