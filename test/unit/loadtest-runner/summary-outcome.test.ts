/**
 * The profiles' JSON summary (loadtests/lib/summary.ts) carries the run's real exit code and abort reason, not one
 * derived from the thresholds: the report calls a run passed from it, and an interrupted, aborted or failed run is
 * not one. k6 does not pass its exit code to handleSummary; this runner does (summary data's `runner` field).
 */
import { mkdtempSync, readFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { runScript } from './harness';

const SUMMARY_LIB = path.resolve(__dirname, '..', '..', '..', 'loadtests', 'lib', 'summary.ts');

interface ProfileSummary {
  exitCode: number;
  exitCodeFrom: string;
  abortReason: string | null;
}

const run = async (body: string, interruptAfterMs?: number) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'k6summary-')), 'summary.json');
  const r = await runScript(
    `import { summaryHandler } from '${SUMMARY_LIB}';
export const handleSummary = summaryHandler('probe');
${body}`,
    [],
    { SUMMARY_FILE: file },
    { interruptAfterMs },
  );
  return { r, summary: JSON.parse(readFileSync(file, 'utf8')) as ProfileSummary };
};

describe("the profile summary's exit code", () => {
  it('is 107 with the error after setup() throws, though every threshold passed', async () => {
    const { r, summary } = await run(`export const options = { vus: 1, iterations: 1 };
export function setup() { throw new Error('boom in setup'); }
export default function () {}`);
    expect(r.code).toBe(107);
    expect(summary.exitCode).toBe(107);
    expect(summary.exitCodeFrom).toBe('engine');
    expect(summary.abortReason).toContain('boom in setup');
  }, 30_000);

  it("is 108 with test.abort()'s reason", async () => {
    const { r, summary } = await run(`import exec from 'k6/execution';
export const options = { vus: 1, iterations: 1 };
export default function () { exec.test.abort('enough'); }`);
    expect(r.code).toBe(108);
    expect(summary.exitCode).toBe(108);
    expect(summary.abortReason).toContain('enough');
  }, 30_000);

  it('is 105 with the signal after Ctrl-C, where the thresholds passed', async () => {
    const { r, summary } = await run(
      `import { sleep } from 'k6';
export const options = { vus: 1, duration: '60s', thresholds: { iterations: ['count>0'] } };
export default function () { sleep(0.1); }`,
      4000, // as sync-style.test's Ctrl-C: well after the VUs are up
    );
    expect(r.code).toBe(105);
    expect(summary.exitCode).toBe(105);
    expect(summary.abortReason).toBe("test run was aborted because k6 received a 'interrupt' signal");
  }, 60_000);

  it('is 0 for a run that ended by itself with its thresholds passed', async () => {
    const { r, summary } =
      await run(`export const options = { vus: 1, iterations: 1, thresholds: { iterations: ['count>0'] } };
export default function () {}`);
    expect(r.code).toBe(0);
    expect(summary.exitCode).toBe(0);
    expect(summary.abortReason).toBeNull();
  }, 30_000);
});
