/**
 * The real load profiles against a local stand-in of the API: their handleSummary writes the JSON
 * summary the report reads, with the same headline figures as the runner's own record of the run;
 * a run that returns only nulls fails its checks; a k6 --summary-export file is refused by the report.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { readSummary } from '../../../dashboards/live/window';
import { loadSummaryOf } from '../../../scripts/report/tables';
import { startElevationStub, type ElevationStub } from './elevation-stub';
import { runFile } from './harness';

const BASELINE = path.resolve(__dirname, '..', '..', '..', 'loadtests', 'baseline.ts');
/** The handleSummary's window (setup end → summary) is a little longer than the runner's execution. */
const RATE_TOLERANCE = 0.15;

const smoke = (stub: ElevationStub, summaryFile: string) => ({
  BASE_URL: stub.url,
  SMOKE: '1',
  RATE: '10',
  DURATION: '3s',
  WARMUP: '1',
  WARMUP_CONCURRENCY: '1',
  SUMMARY_FILE: summaryFile,
});

describe('load profiles', () => {
  let stub: ElevationStub;
  let nulls: ElevationStub;
  beforeAll(async () => {
    stub = await startElevationStub();
    nulls = await startElevationStub({ nulls: true });
  });
  afterAll(async () => {
    await stub.close();
    await nulls.close();
  });

  it("baseline's handleSummary writes the report's summary with the runner's own headline figures", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-'));
    const summaryFile = path.join(dir, 'baseline.json');
    const r = await runFile(BASELINE, ['--tag', 'testid=profile-test'], smoke(stub, summaryFile));
    expect(r.code).toBe(0);
    const report = loadSummaryOf(readSummary(summaryFile), summaryFile);
    const figure = (label: string) => report.headline.find((h) => h.label.startsWith(label))?.value;
    const record = r.summary.metrics as unknown as Record<string, { values: Record<string, number> }>;
    const requests = record['http_reqs{measured:true}'].values.count;
    // 10 req/s for 3 s, setup()'s warm-up excluded.
    expect(requests).toBeGreaterThanOrEqual(29);
    expect(requests).toBeLessThanOrEqual(31);
    expect(report.testid).toBe('profile-test');
    expect(report.passed).toBe(true);
    expect(figure('http_req_duration p95')).toBeCloseTo(
      record['http_req_duration{measured:true}'].values['p(95)'] / 1000,
      9,
    );
    expect(figure('http_req_failed')).toBe(record['http_req_failed{measured:true}'].values.rate);
    expect(figure('Dropped iterations')).toBe(record.dropped_iterations?.values.count ?? 0);
    const seconds = (r.summary as unknown as { executionSeconds: number }).executionSeconds;
    const rps = figure('Requests per second') ?? 0;
    expect(Math.abs(rps - requests / seconds) / (requests / seconds)).toBeLessThan(RATE_TOLERANCE);
    const perMinute = figure('Elevations per minute') ?? 0;
    const elevations = record.elevations.values.count;
    expect(Math.abs(perMinute - (elevations / seconds) * 60) / ((elevations / seconds) * 60)).toBeLessThan(
      RATE_TOLERANCE,
    );
    // The runner's stdout shows the same figures (the profile prints them).
    expect(r.stdout).toContain(`(${requests} requests)`);
    expect(r.stdout).toContain(summaryFile);
  }, 90_000);

  it('fails the checks SLO and counts no elevations when every answer is null', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-'));
    const summaryFile = path.join(dir, 'nulls.json');
    const r = await runFile(BASELINE, [], smoke(nulls, summaryFile));
    expect(r.code).toBe(99);
    const summary = JSON.parse(readFileSync(summaryFile, 'utf8')) as { elevations: number; exitCode: number };
    expect(summary.elevations).toBe(0);
    expect(summary.exitCode).toBe(99);
    expect(r.summary.thresholds.find((t) => t.metric === 'checks{scenario:baseline}')?.ok).toBe(false);
  }, 90_000);

  it.each([
    ['SCALE=abc', { SCALE: 'abc' }, 'SCALE must be a number above 0, got "abc"'],
    ['SCALE=0', { SCALE: '0' }, 'SCALE must be a number above 0, got "0"'],
    [
      'SMOKE=yes (not read as no: the full profile)',
      { SMOKE: 'yes' },
      'SMOKE must be 1 or true (or 0, false), got "yes"',
    ],
    ['RATE=0.2 (not raised to 1 unsaid)', { RATE: '0.2' }, 'RATE × SCALE is 0.2 requests/s'],
    ['DURATION=15 (no unit)', { DURATION: '15' }, 'DURATION must be a duration like 30s or 2h, got "15"'],
  ])(
    'refuses %s before any request, with exit 107 naming it',
    async (_, env, message) => {
      const before = stub.requests();
      const r = await runFile(BASELINE, [], {
        ...smoke(stub, path.join(mkdtempSync(path.join(os.tmpdir(), 'p-')), 's.json')),
        ...env,
      });
      expect(r.code).toBe(107);
      expect(r.stderr).toContain(message);
      expect(stub.requests()).toBe(before);
    },
    30_000,
  );

  it('refuses DURATION=0s as k6 does (at least 1s), before any request, rather than a run that judged nothing', async () => {
    const before = stub.requests();
    const summaryFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'p-')), 's.json');
    const r = await runFile(BASELINE, [], { ...smoke(stub, summaryFile), DURATION: '0s' });
    expect(r.code).toBe(104);
    expect(r.stderr).toContain('scenario "baseline": the duration should be at least 1s, but is 0s');
    expect(stub.requests()).toBe(before);
  }, 30_000);

  it('marks a run stopped early (Ctrl-C) in its summary, and the report does not call it passed', async () => {
    const summaryFile = path.join(mkdtempSync(path.join(os.tmpdir(), 'p-')), 's.json');
    const r = await runFile(BASELINE, [], { ...smoke(stub, summaryFile), DURATION: '30s' }, 4000);
    expect(r.code).toBe(105);
    expect(r.stdout).toMatch(/STOPPED EARLY\.+: after \d+\.\d s of the planned 30\.0 s/);
    const summary = readSummary(summaryFile);
    expect(summary).toMatchObject({ plannedSeconds: 30, stoppedEarly: true });
    const report = loadSummaryOf(summary, summaryFile);
    expect(report.passed).toBe(false);
    expect(report.stoppedEarly?.[1]).toBe(30);
    // A run that went its length is not marked.
    const whole = path.join(mkdtempSync(path.join(os.tmpdir(), 'p-')), 's.json');
    expect((await runFile(BASELINE, [], smoke(stub, whole))).code).toBe(0);
    expect(readSummary(whole)).toMatchObject({ plannedSeconds: 3, stoppedEarly: false });
  }, 60_000);

  it("refuses a k6 --summary-export file instead of reading it as 'passed' with empty figures", async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'profile-'));
    const exportFile = path.join(dir, 'export.json');
    const r = await runFile(
      BASELINE,
      ['--summary-export', exportFile],
      smoke(stub, path.join(dir, 's.json')),
    );
    expect(r.code).toBe(0);
    const exported = JSON.parse(readFileSync(exportFile, 'utf8')) as { metrics: Record<string, unknown> };
    expect(exported.metrics.http_reqs).toBeDefined();
    expect(() => readSummary(exportFile)).toThrow(/not a load-profile summary.*--summary-export/);
    // A missing or broken file is named so, not an ENOENT or SyntaxError stack.
    expect(() => readSummary(path.join(dir, 'none.json'))).toThrow(
      /none\.json does not exist: give a summary/,
    );
    writeFileSync(path.join(dir, 'cut.json'), '{"elevations_per_minute": 1');
    expect(() => readSummary(path.join(dir, 'cut.json'))).toThrow(/cut\.json is not JSON \(/);
  }, 90_000);
});
