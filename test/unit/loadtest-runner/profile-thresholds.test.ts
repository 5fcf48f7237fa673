/**
 * Every load profile requires at least one request from each of its scenarios (README, SLOs): k6 passes an empty
 * Rate or Trend, so a scenario that sent nothing would pass its latency and failure thresholds unseen. Each profile
 * runs against a closed port: setup() fails at once (exit 107) and the run record still lists every threshold.
 */
import path from 'node:path';
import { runFile } from './harness';

const ROOT = path.resolve(__dirname, '..', '..', '..');

describe('every load profile', () => {
  it.each([
    ['baseline', ['baseline']],
    ['stress', ['stress']],
    ['spike', ['before', 'spike', 'recovery']],
    ['soak', ['soak']],
  ])(
    '%s has http_reqs count>0 for each of its scenarios',
    async (profile, scenarios) => {
      const r = await runFile(path.join(ROOT, 'loadtests', `${profile}.ts`), ['--no-summary'], {
        SMOKE: '1',
        BASE_URL: 'http://127.0.0.1:1',
        WARMUP: '0',
      });
      expect(r.code).toBe(107);
      const countOver0 = r.summary.thresholds
        .filter((t) => t.threshold === 'count>0')
        .map((t) => t.metric)
        .sort();
      expect(countOver0).toEqual(scenarios.map((s) => `http_reqs{scenario:${s}}`).sort());
    },
    30_000,
  );
});
