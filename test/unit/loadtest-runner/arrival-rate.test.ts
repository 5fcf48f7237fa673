import { iterationStartTimes } from '../../../loadtests/runner/executors/arrival-rate';
import { scenariosFrom } from '../../../loadtests/runner/scenarios';
import { count, runScript, startServer, type LocalServer } from './harness';

/** k6 starts exactly rate × duration iterations; we allow ±2% for timer jitter on a shared machine. Enough VUs are
 * pre-allocated that none has to start mid-run (k6 drops an iteration while a VU starts, ~35 ms of CPU here). */
const RATE_TOLERANCE = 0.02;

describe('arrival-rate executors', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer();
  });
  afterAll(() => server.close());

  it('schedules constant-arrival-rate starts at exact intervals from t=0', () => {
    const [s] = scenariosFrom({
      scenarios: { a: { executor: 'constant-arrival-rate', rate: 100, duration: '1s', preAllocatedVUs: 1 } },
    });
    const starts = [...iterationStartTimes(s)];
    expect(starts).toHaveLength(100);
    expect(starts[0]).toBe(0);
    expect(starts[1]).toBeCloseTo(10);
    expect(starts[99]).toBeCloseTo(990);
  });

  it.each([
    [{ rate: NaN }, "the iteration rate isn't specified"],
    [{ rate: 2.5 }, 'the iteration rate must be a whole number, got 2.5'],
    [{ rate: 0 }, 'the iteration rate should be more than 0'],
    [{ rate: 5, timeUnit: '0s' }, 'the timeUnit should be more than 0'],
    [{ rate: 5, duration: '500ms' }, 'the duration should be at least 1s, but is 500ms'],
  ])('refuses a constant-arrival-rate k6 refuses: %j', (fields, message) => {
    const scenario = { executor: 'constant-arrival-rate', duration: '2s', preAllocatedVUs: 1, ...fields };
    expect(() => scenariosFrom({ scenarios: { a: scenario } })).toThrow(`scenario "a": ${message}`);
  });

  it('refuses a constant-vus scenario of 0 VUs or under 1s, as k6 does', () => {
    expect(() =>
      scenariosFrom({ scenarios: { a: { executor: 'constant-vus', vus: 0, duration: '2s' } } }),
    ).toThrow('scenario "a": the number of VUs should be more than 0');
    // (A 0s shortcut duration is refused before, by DeriveScenariosFromShortcuts: executors.test.ts.)
    expect(() => scenariosFrom({ vus: 1, duration: '500ms' })).toThrow(
      'the duration should be at least 1s, but is 500ms',
    );
  });

  it('schedules ramping-arrival-rate starts by the integral of the rate', () => {
    const [s] = scenariosFrom({
      scenarios: {
        a: {
          executor: 'ramping-arrival-rate',
          startRate: 0,
          preAllocatedVUs: 1,
          stages: [
            { duration: '10s', target: 100 }, // 0 → 100/s: 500 iterations
            { duration: '5s', target: 100 }, // 100/s: 500 more
          ],
        },
      },
    });
    const starts = [...iterationStartTimes(s)];
    expect(starts.length).toBeGreaterThanOrEqual(999);
    expect(starts.length).toBeLessThanOrEqual(1001);
    // Half of the ramp's iterations come in its last ~29% (quadratic growth of the integral).
    expect(starts[250]).toBeCloseTo(Math.sqrt(251 / 5) * 1000, -1);
    expect(starts.every((t, i) => i === 0 || t >= starts[i - 1])).toBe(true);
  });

  // k6's cal() (lib/executor/ramping_arrival_rate.go) starts iteration n when the rate's integral reaches n + 1
  // ("start from 1 not 0"), up to and including the end of a stage.
  it.each([
    ['constant 2/s for 2s', 2, [{ duration: '2s', target: 2 }], [500, 1000, 1500, 2000]],
    ['0 → 4/s over 2s', 0, [{ duration: '2s', target: 4 }], [1000, 1414.2, 1732.1, 2000]],
    ['a stage at 0/s', 0, [{ duration: '2s', target: 0 }], []],
  ])(
    'schedules ramping-arrival-rate (%s) as k6 does, with no iteration at t=0',
    (_, startRate, stages, want) => {
      const [s] = scenariosFrom({
        scenarios: {
          a: { executor: 'ramping-arrival-rate', startRate, timeUnit: '1s', preAllocatedVUs: 1, stages },
        },
      });
      const starts = [...iterationStartTimes(s)];
      expect(starts).toHaveLength(want.length);
      starts.forEach((t, i) => expect(t).toBeCloseTo(want[i], 1));
    },
  );

  it('runs a constant-arrival-rate of 50/s for 30 s within ±2% of the 1500 requested iterations', async () => {
    const result = await runScript(
      `import http from 'k6/http';
export const options = { scenarios: { steady: { executor: 'constant-arrival-rate', rate: 50, timeUnit: '1s',
  duration: '30s', preAllocatedVUs: 20, maxVUs: 50 } } };
export default async function () { await http.asyncRequest('GET', __ENV.BASE_URL + '/x', null, { tags: { name: 'x' } }); }`,
      [],
      { BASE_URL: server.url },
    );
    expect(result.code).toBe(0);
    const iterations = count(result.summary, 'iterations');
    expect(Math.abs(iterations - 1500) / 1500).toBeLessThanOrEqual(RATE_TOLERANCE);
    expect(count(result.summary, 'dropped_iterations')).toBe(0);
  }, 90_000);
});
