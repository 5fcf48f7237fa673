/**
 * A request's deadline (functions/deadline.ts): the answer is the deadline's error once it has passed, and it
 * waits (at most the settle time) for work that listens to the signal, so that work's last steps (closing its
 * spans, counting its cut reads) belong to its request. Timers are faked: no assertion depends on the machine.
 */
import { requestDeadline } from '../../../functions/deadline';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

const deadlineError = () => new Error('Request deadline of 100 ms passed');

/** Work that ends (with `outcome`) `stepsMs` after the signal fires, as reads listening to it do. */
function listening(signal: AbortSignal, stepsMs: number, outcome: 'resolve' | 'reject', done: string[]) {
  return new Promise<string>((resolve, reject) => {
    signal.addEventListener('abort', () =>
      setTimeout(() => {
        done.push('work ended');
        if (outcome === 'resolve') resolve('late answer');
        else reject(new Error('read aborted'));
      }, stepsMs),
    );
  });
}

it('answers the work before the deadline, and the clock stops', async () => {
  const deadline = requestDeadline(100, 50, deadlineError);
  await expect(deadline.race(Promise.resolve(42))).resolves.toBe(42);
  deadline.clear();
  expect(jest.getTimerCount()).toBe(0);
  expect(deadline.signal.aborted).toBe(false);
});

it("passes the work's own error before the deadline", async () => {
  const deadline = requestDeadline(100, 50, deadlineError);
  await expect(deadline.race(Promise.reject(new Error('bad input')))).rejects.toThrow('bad input');
  deadline.clear();
});

it.each(['resolve', 'reject'] as const)(
  'at the deadline, waits for work that listens to the signal (it ends with %s) and answers the deadline',
  async (outcome) => {
    const done: string[] = [];
    const deadline = requestDeadline(100, 50, deadlineError);
    const answer = deadline.race(listening(deadline.signal, 10, outcome, done));
    const settled = answer.then(
      () => 'resolved',
      (error: Error) => (done.push('answered'), error.message),
    );
    await jest.advanceTimersByTimeAsync(100);
    expect(deadline.signal.aborted).toBe(true);
    expect(done).toEqual([]); // not answered before the work ended
    await jest.advanceTimersByTimeAsync(10);
    await expect(settled).resolves.toBe('Request deadline of 100 ms passed');
    expect(done).toEqual(['work ended', 'answered']);
    deadline.clear();
  },
);

it('does not wait beyond the settle time for work that ignores the signal', async () => {
  const deadline = requestDeadline(100, 50, deadlineError);
  const settled = deadline.race(new Promise(() => undefined)).catch((error: Error) => error.message);
  let answered = false;
  void settled.then(() => (answered = true));
  await jest.advanceTimersByTimeAsync(149);
  expect(answered).toBe(false);
  await jest.advanceTimersByTimeAsync(1);
  await expect(settled).resolves.toBe('Request deadline of 100 ms passed');
  deadline.clear();
});

it('with no settle time, answers at the deadline', async () => {
  const deadline = requestDeadline(100, 0, deadlineError);
  const settled = deadline.race(new Promise(() => undefined)).catch((error: Error) => error.message);
  await jest.advanceTimersByTimeAsync(100);
  await expect(settled).resolves.toBe('Request deadline of 100 ms passed');
  deadline.clear();
});
