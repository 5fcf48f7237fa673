import { targetVUsAt } from '../../../loadtests/runner/executors/looping-vus';
import { scenariosFrom } from '../../../loadtests/runner/scenarios';
import { count, runScript, startServer, type LocalServer } from './harness';

describe('VU-based executors', () => {
  let server: LocalServer;
  beforeAll(async () => {
    server = await startServer(5);
  });
  afterAll(() => server.close());

  const body = `export default async function () {
  await http.asyncRequest('GET', __ENV.BASE_URL + '/', null, { tags: { name: 'root' } });
  check(null, { ['vu ' + __VU + ' iter ' + __ITER]: () => true });
}`;
  const header = `import http from 'k6/http';\nimport { check } from 'k6';\n`;

  it('per-vu-iterations runs each VU its iterations, with __VU and __ITER correct after an await', async () => {
    const r = await runScript(
      `${header}export const options = { scenarios: { p: { executor: 'per-vu-iterations', vus: 3, iterations: 4 } } };\n${body}`,
      [],
      { BASE_URL: server.url },
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'iterations')).toBe(12);
    const names = r.summary.root_group.checks.map((c) => c.name).sort();
    const expected = [1, 2, 3].flatMap((vu) => [0, 1, 2, 3].map((i) => `vu ${vu} iter ${i}`)).sort();
    expect(names).toEqual(expected);
  }, 30_000);

  it('shared-iterations runs exactly the shared count across VUs', async () => {
    const r = await runScript(
      `${header}export const options = { scenarios: { s: { executor: 'shared-iterations', vus: 5, iterations: 53 } } };\n${body}`,
      [],
      { BASE_URL: server.url },
    );
    expect(count(r.summary, 'iterations')).toBe(53);
    expect(count(r.summary, 'http_reqs')).toBe(53);
  }, 30_000);

  // k6 counts the iterations an iterations-based scenario did not start before its maxDuration in
  // dropped_iterations (shared_iterations.go, per_vu_iterations.go). Each iteration sleeps 0.6 s, so at most two
  // of a VU's start within 1 s, however fast the machine; started + dropped is the whole count.
  it.each([
    ['shared-iterations', 'vus: 1, iterations: 5', 5],
    ['per-vu-iterations', 'vus: 2, iterations: 3', 6],
  ])(
    '%s counts the iterations not started by maxDuration as dropped_iterations',
    async (executor, fields, total) => {
      const r = await runScript(
        `import { sleep } from 'k6';
export const options = { scenarios: { s: { executor: '${executor}', ${fields}, maxDuration: '1s' } } };
export default function () { sleep(0.6); }`,
      );
      expect(r.code).toBe(0);
      const started = count(r.summary, 'iterations');
      expect(started).toBeLessThanOrEqual(total === 5 ? 2 : 4);
      expect(count(r.summary, 'dropped_iterations')).toBe(total - started);
    },
    30_000,
  );

  // k6's ramping-vus (lib/executor/ramping_vus.go) lets a ramped-down VU finish its iteration for gracefulRampDown,
  // then interrupts it. VU 2 is ramped down at 1 s, 2 s into a 3 s iteration; VU 1's first iteration ends at 3 s,
  // its second is cut by the end (gracefulStop 0s). Margins of 2 s either way, whatever the machine's speed.
  it('ramping-vus interrupts a ramped-down VU iteration after gracefulRampDown', async () => {
    const r = await runScript(
      `import { sleep } from 'k6';
export const options = { scenarios: { r: { executor: 'ramping-vus', startVUs: 2, gracefulRampDown: '0s',
  gracefulStop: '0s', stages: [{ duration: '1s', target: 1 }, { duration: '4s', target: 1 }] } } };
export default function () { sleep(3); }`,
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'iterations')).toBe(1);
  }, 30_000);

  // As k6's SharedIterationsConfig/PerVUIterationsConfig.Validate (lib/executor/shared_iterations.go,
  // per_vu_iterations.go).
  it.each([
    [
      { executor: 'shared-iterations', vus: 3, iterations: 2 },
      "the number of iterations (2) shouldn't be less than the number of VUs (3)",
    ],
    [{ executor: 'shared-iterations', vus: 0, iterations: 2 }, 'the number of VUs should be more than 0'],
    [
      { executor: 'shared-iterations', vus: 1, iterations: 2, maxDuration: '500ms' },
      'the maxDuration should be at least 1s, but is 500ms',
    ],
    [{ executor: 'per-vu-iterations', vus: 0, iterations: 2 }, 'the number of VUs should be more than 0'],
    [
      { executor: 'per-vu-iterations', vus: 1, iterations: 0 },
      'the number of iterations should be more than 0',
    ],
    [
      { executor: 'per-vu-iterations', vus: 1, iterations: 1, maxDuration: '0s' },
      'the maxDuration should be at least 1s, but is 0s',
    ],
  ])('refuses an iterations scenario k6 refuses: %j', (scenario, message) => {
    expect(() => scenariosFrom({ scenarios: { a: scenario } })).toThrow(`scenario "a": ${message}`);
  });

  it('constant-vus keeps its VUs looping for the duration, then stops', async () => {
    const r = await runScript(`${header}export const options = { vus: 4, duration: '2s' };\n${body}`, [], {
      BASE_URL: server.url,
    });
    expect(r.code).toBe(0);
    // 4 VUs × ~5-10 ms per iteration × 2 s: hundreds, and none after the end.
    expect(count(r.summary, 'iterations')).toBeGreaterThan(100);
    expect(r.summary.metrics.vus.values.max).toBeLessThanOrEqual(4);
  }, 30_000);

  it('ramping-vus follows its stages (linear, floored going up and ceiled going down, as k6 steps)', () => {
    const [s] = scenariosFrom({
      scenarios: {
        r: {
          executor: 'ramping-vus',
          startVUs: 0,
          stages: [
            { duration: '10s', target: 10 },
            { duration: '5s', target: 10 },
            { duration: '5s', target: 0 },
          ],
        },
      },
    });
    expect([0, 999, 1000, 5500, 12_000, 17_500, 20_000].map((t) => targetVUsAt(s, t))).toEqual([
      0, 0, 1, 5, 10, 5, 0,
    ]);
    // Ramping down, a VU stops on the next VU's time, as k6's execution steps: 10 until 15.5 s, 1 until 20 s.
    expect([15_001, 15_499, 15_500, 19_499, 19_500, 19_999].map((t) => targetVUsAt(s, t))).toEqual([
      10, 10, 9, 2, 1, 1,
    ]);
  });

  it('ramping-vus runs iterations up and down the ramp', async () => {
    const r = await runScript(
      `${header}export const options = { scenarios: { r: { executor: 'ramping-vus', startVUs: 1,
  stages: [{ duration: '1s', target: 3 }, { duration: '1s', target: 0 }], gracefulRampDown: '1s' } } };\n${body}`,
      [],
      { BASE_URL: server.url },
    );
    expect(r.code).toBe(0);
    expect(count(r.summary, 'iterations')).toBeGreaterThan(20);
  }, 30_000);
});

// k6's DeriveScenariosFromShortcuts (lib/executor/execution_config_shortcuts.go, getSharedIterationsScenario): the
// `iterations` shortcut is a shared-iterations scenario whose maxDuration is the `duration` option when one is set.
describe('the iterations shortcut', () => {
  it('takes duration as its maxDuration', () => {
    const [s] = scenariosFrom({ vus: 2, iterations: 5, duration: '3s' });
    expect(s).toMatchObject({ executor: 'shared-iterations', vus: 2, iterations: 5, durationMs: 3000 });
    expect(scenariosFrom({ iterations: 5 })[0].durationMs).toBe(600_000);
  });

  it('refuses a duration under 1s as a maxDuration under 1s', () => {
    expect(() => scenariosFrom({ iterations: 5, duration: '500ms' })).toThrow(
      'scenario "default": the maxDuration should be at least 1s, but is 500ms',
    );
  });
});

// The rest of DeriveScenariosFromShortcuts: two execution setups in one tier are refused (Options.Apply lets a higher
// tier replace a lower one's, so only one tier can hold both), `vus` alone is shared-iterations of one iteration per
// VU, and nothing (or an empty `scenarios`) is one iteration of one VU.
describe('the shortcut options, as k6 derives scenarios from them', () => {
  const stages = [{ duration: '1s', target: 1 }];
  const scenarios = { s: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } };
  it.each([
    [{ iterations: 2, stages }, 'using `iterations` and `stages` options simultaneously is not allowed'],
    [
      { iterations: 2, scenarios },
      'using `iterations` and `scenarios` options simultaneously is not allowed',
    ],
    [{ duration: '2s', stages }, 'using `duration` and `stages` options simultaneously is not allowed'],
    [{ duration: '2s', scenarios }, 'using `duration` and `scenarios` options simultaneously is not allowed'],
    [{ stages, scenarios }, 'using `stages` and `scenarios` options simultaneously is not allowed'],
    [
      { vus: 2, duration: '0s' },
      '`duration` option should be more than 0, for infinite duration use the externally-controlled executor',
    ],
  ])('refuses %j', (options, message) => {
    expect(() => scenariosFrom(options)).toThrow(new Error(message));
  });

  it('takes an empty stages list as no stages', () => {
    expect(scenariosFrom({ iterations: 2, stages: [] })[0]).toMatchObject({ executor: 'shared-iterations' });
    expect(scenariosFrom({ duration: '2s', stages: [] })[0]).toMatchObject({ executor: 'constant-vus' });
  });

  it('runs vus alone as shared-iterations of one iteration per VU, and nothing as one iteration', () => {
    expect(scenariosFrom({ vus: 3 })[0]).toMatchObject({
      executor: 'shared-iterations',
      vus: 3,
      iterations: 3,
    });
    for (const options of [{}, { scenarios: {} }])
      expect(scenariosFrom(options)).toMatchObject([
        { name: 'default', executor: 'per-vu-iterations', vus: 1, iterations: 1 },
      ]);
  });
});
