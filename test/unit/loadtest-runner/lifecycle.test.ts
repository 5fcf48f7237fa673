/**
 * The test's lifecycle as k6 runs it: the test "starts" once the VUs are initialised, just before setup()
 * (execution/scheduler.go, MarkStarted), so test-run durations and rates leave VU initialisation out.
 * Assertions compare clocks in one order of events, never how long something took.
 */
import { existsSync, mkdtempSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
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
  }, 30_000);
});

describe('an exception in setup() or teardown()', () => {
  // k6 writes the summary in a defer once init has passed (internal/cmd/run.go), so it still comes after a
  // setup() or teardown() exception; the exit code stays the script error's.
  const EXIT_SCRIPT_ERROR = 107;
  // setup() failing stops the run before any iteration (as k6's scheduler returns); teardown() comes after them.
  it.each([
    [
      'setup',
      'export function setup() { throw new Error("boom in setup"); }',
      'SUMMARY ran=0 thresholds={"count>=0":{"ok":true}}',
    ],
    [
      'teardown',
      'export function teardown() { throw new Error("boom in teardown"); }',
      'SUMMARY ran=2 thresholds={"count>=0":{"ok":true}}',
    ],
  ])(
    'still evaluates thresholds and writes the summary after %s() throws, exit 107',
    async (fn, code, summary) => {
      const exportFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'k6export-')), 'summary.json');
      const r = await runScript(
        `import { Counter } from 'k6/metrics';
const c = new Counter('ran');
export const options = { vus: 1, iterations: 2, thresholds: { ran: ['count>=0'] } };
${code}
export default function () { c.add(1); }
export function handleSummary(data) {
  return { stdout: 'SUMMARY ran=' + (data.metrics.ran ? data.metrics.ran.values.count : 0) +
    ' thresholds=' + JSON.stringify(data.metrics.ran ? data.metrics.ran.thresholds : null) };
}`,
        ['--summary-export', exportFile],
      );
      expect(r.stderr).toContain(`boom in ${fn}`);
      expect(r.code).toBe(EXIT_SCRIPT_ERROR);
      expect(r.summary.exitCode).toBe(EXIT_SCRIPT_ERROR);
      expect(r.stdout).toContain(summary);
      expect(existsSync(exportFile)).toBe(true);
    },
    30_000,
  );
});
