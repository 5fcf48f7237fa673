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

const run = async (body: string) => {
  const file = path.join(mkdtempSync(path.join(os.tmpdir(), 'k6summary-')), 'summary.json');
  const r = await runScript(
    `import { summaryHandler } from '${SUMMARY_LIB}';
export const handleSummary = summaryHandler('probe');
${body}`,
    [],
    { SUMMARY_FILE: file },
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

  it('is 0 for a run that ended by itself with its thresholds passed', async () => {
    const { r, summary } =
      await run(`export const options = { vus: 1, iterations: 1, thresholds: { iterations: ['count>0'] } };
export default function () {}`);
    expect(r.code).toBe(0);
    expect(summary.exitCode).toBe(0);
    expect(summary.abortReason).toBeNull();
  }, 30_000);
});
