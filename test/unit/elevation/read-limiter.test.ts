import { ReadLimiter } from '../../../layers/elevation';

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
