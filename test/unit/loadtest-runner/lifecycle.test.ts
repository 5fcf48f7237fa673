/**
 * The test's lifecycle as k6 runs it: the test "starts" once the VUs are initialised, just before setup()
 * (execution/scheduler.go, MarkStarted), so test-run durations and rates leave VU initialisation out.
 * Assertions compare clocks in one order of events, never how long something took.
 */
import { runScript } from './harness';

describe('test lifecycle', () => {
  it('starts the test-run clock after the VUs are initialised, not before', async () => {
    // In VU 0 (setup and handleSummary run there), the test's start is no earlier than the end of its own
    // init context: Date.now() - currentTestRunDuration is the start as that VU sees it.
    const r = await runScript(
      `import exec from 'k6/execution';
const initEndedAt = Date.now();
export const options = { vus: 3, iterations: 3 };
export function setup() {
  const startedAt = Date.now() - exec.instance.currentTestRunDuration;
  if (startedAt < initEndedAt) throw new Error('started ' + (initEndedAt - startedAt) + ' ms before init ended');
}
export default function () {}
export function handleSummary(data) {
  const startedAt = Date.now() - data.state.testRunDurationMs;
  return { stdout: startedAt >= initEndedAt ? 'START-AFTER-INIT' : 'START-BEFORE-INIT' };
}`,
    );
    expect(r.stderr).not.toContain('init ended');
    expect(r.code).toBe(0);
    expect(r.stdout).toContain('START-AFTER-INIT');
  });
});
