/**
 * ramping-vus' gracefulRampDown on a controlled clock: the executor runs on jest's fake timers (setTimeout and
 * performance.now) with VUs whose iterations end only when interrupted, so the instant of each interrupt is exact
 * and no assertion depends on the machine's speed.
 */
import type { ExecutorContext } from '../../../loadtests/runner/executors/common';
import { runLoopingVUs } from '../../../loadtests/runner/executors/looping-vus';
import { scenariosFrom, type RawScenario } from '../../../loadtests/runner/scenarios';
import { TestRun, newScenarioRun, type Vu } from '../../../loadtests/runner/test-run';
import type { DoneMessage } from '../../../loadtests/runner/vu/protocol';
import type { VuHandle } from '../../../loadtests/runner/vu/handle';

beforeEach(() => jest.useFakeTimers());
afterEach(() => jest.useRealTimers());

/** A VU whose every iteration runs until interrupted; `interrupts` gets the (fake) time of each interrupt. */
function endlessVu(id: number, interrupts: number[]): Vu {
  let end: ((m: DoneMessage) => void) | undefined;
  const handle = {
    idInTest: id,
    call: () =>
      new Promise<DoneMessage>((resolve) => {
        end = resolve;
      }),
    interrupt: () => {
      interrupts.push(performance.now());
      end?.({ kind: 'done', interrupted: true, deltas: [] });
      end = undefined;
    },
  };
  return {
    handle: handle as unknown as VuHandle,
    idInInstance: id,
    iterationInInstance: 0,
    iterationInScenario: 0,
    tags: {},
  };
}

/** Runs one ramping-vus scenario of endless iterations to its end; the interrupt times, ms from its start. */
async function interruptTimes(scenario: RawScenario, vus: number): Promise<number[]> {
  const [s] = scenariosFrom({ scenarios: { r: scenario } });
  const interrupts: number[] = [];
  const t0 = performance.now();
  const ctx: ExecutorContext = {
    test: new TestRun({}),
    run: newScenarioRun(s),
    vus: Array.from({ length: vus }, (_, i) => endlessVu(i + 1, interrupts)),
    newVu: () => Promise.reject(new Error('ramping-vus starts no VU mid-run')),
    minIterationDurationMs: 0,
  };
  const done = runLoopingVUs(ctx);
  await jest.advanceTimersByTimeAsync(60_000);
  await done;
  return interrupts.map((t) => t - t0);
}

describe('ramping-vus gracefulRampDown', () => {
  it('interrupts a ramped-down VU gracefulRampDown after it is ramped down', async () => {
    // Down at 1 s; gracefulStop 10 s leaves the 3 s ramp-down (to 4 s) alone.
    const times = await interruptTimes(
      {
        executor: 'ramping-vus',
        startVUs: 1,
        gracefulRampDown: '3s',
        gracefulStop: '10s',
        stages: [
          { duration: '1s', target: 0 },
          { duration: '5s', target: 0 },
        ],
      },
      1,
    );
    expect(times).toHaveLength(1);
    expect(times[0]).toBeGreaterThanOrEqual(4000);
    expect(times[0]).toBeLessThan(4200);
  });

  // Down at 1 s, up at 2 s, down again at 3 s, all within one iteration: as in k6 (lib/executor/ramping_vus.go,
  // reserveVUsForGracefulRampDowns), coming back up within the window cancels the first ramp-down's hard stop, and
  // the VU gets its gracefulRampDown from the second one (3 s + 3 s = 6 s), not 1 s + 3 s = 4 s.
  it('gives a VU ramped down, up and down again its gracefulRampDown from the last ramp-down', async () => {
    const times = await interruptTimes(
      {
        executor: 'ramping-vus',
        startVUs: 1,
        gracefulRampDown: '3s',
        gracefulStop: '10s',
        stages: [
          { duration: '1s', target: 0 },
          { duration: '1s', target: 1 },
          { duration: '1s', target: 0 },
          { duration: '5s', target: 0 },
        ],
      },
      1,
    );
    expect(times).toHaveLength(1);
    expect(times[0]).toBeGreaterThanOrEqual(6000);
    expect(times[0]).toBeLessThan(6200);
  });
});
