import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { ReportData } from '../../../scripts/report/collect';
import { renderHtml } from '../../../scripts/report/html';
import { findResultTable, loadSummaryOf, readTableFile } from '../../../scripts/report/tables';

const tmp = (): string => fs.mkdtempSync(path.join(os.tmpdir(), 'report-tables-'));

describe('report tables', () => {
  it('summarises a runner JSON summary: verdict, headline numbers, thresholds', () => {
    const load = loadSummaryOf(
      {
        testid: 'baseline-1',
        exitCode: 99,
        elevations_per_minute: 33000,
        requests_per_second: 20,
        http_req_failed_rate: 0.02,
        http_req_duration_ms: { 'p(95)': 250 },
        thresholds: [
          { metric: 'http_req_failed', threshold: 'rate<0.01', observed: 0.02, ok: false },
          { metric: 'http_req_duration', threshold: 'p(95)<200', observed: 250, ok: false },
        ],
      },
      'results/load/x.json',
    );
    expect(load.passed).toBe(false);
    // Labels say what they measure: the scenarios' requests (tag measured:true), not setup()'s warm-up.
    expect(load.headline.find((h) => h.key === 'http_req_duration_p95')).toEqual({
      key: 'http_req_duration_p95',
      label: 'http_req_duration p95 (scenarios’ requests)',
      value: 0.25,
      unit: 's',
    });
    expect(load.headline.map((h) => h.label)).toEqual([
      'Elevations per minute (scenarios, whole run)',
      'Requests per second (scenarios, whole run)',
      'http_req_duration p95 (scenarios’ requests)',
      'http_req_failed (scenarios’ requests)',
      'Dropped iterations (all scenarios)',
    ]);
    expect(load.thresholds.rows).toEqual([
      ['http_req_failed', 'rate<0.01', 0.02, 'FAILED'],
      ['http_req_duration', 'p(95)<200', 250, 'FAILED'],
    ]);
  });

  // The verdict is the run's, not the thresholds': a run stopped by Ctrl-C near its end, or whose setup() threw, is
  // never "passed", and the text names what ended it rather than a guess (k6's errext exit codes).
  const ok = [{ metric: 'http_reqs{measured:true}', threshold: 'count>0', observed: 70, ok: true }];
  it.each([
    [105, "test run was aborted because k6 received a 'interrupt' signal", false, 'INTERRUPTED'],
    [107, 'setup() failed: Error: boom', true, 'SCRIPT ERROR'],
    [108, 'enough', true, 'ABORTED by test.abort()'],
    [99, "thresholds on metrics 'http_req_failed' were crossed", true, 'ABORTED by an abortOnFail threshold'],
    [100, 'setup() timed out', true, 'setup() TIMED OUT'],
  ])('calls a run that ended with exit code %d failed and says why', (exitCode, abortReason, early, text) => {
    const load = loadSummaryOf(
      {
        testid: 't',
        exitCode,
        exitCodeFrom: 'engine',
        abortReason,
        executionSeconds: 8,
        plannedSeconds: 15,
        stoppedEarly: early,
        thresholds: ok,
      },
      'results/load/x.json',
    );
    expect(load.passed).toBe(false);
    expect(load.exitCode).toBe(exitCode);
    expect(load.verdict).toContain(text);
    expect(load.verdict).toContain(abortReason);
    expect(load.verdict).not.toMatch(/thresholds passed|abortOnFail threshold, Ctrl-C/);
  });

  it('says when the exit code is only the thresholds (k6 gives handleSummary none)', () => {
    const load = loadSummaryOf({ testid: 't', exitCode: 0, thresholds: ok }, 'results/load/x.json');
    expect(load.passed).toBe(true);
    expect(load.verdict).toContain('thresholds passed');
    expect(load.verdict).toContain('from the thresholds');
  });

  it('shows no p95 or failed share for a run that sent no request, rather than 0 ms and 0 %', () => {
    // k6 gives an empty Trend 0 for every stat and an empty Rate 0: "p95 0.00 ms, failed 0.00%" read as perfect.
    const load = loadSummaryOf(
      {
        testid: 't',
        exitCode: 99,
        requests: 0,
        elevations_per_minute: 0,
        requests_per_second: 0,
        http_req_failed_rate: 0,
        http_req_duration_ms: { 'p(95)': 0 },
        dropped_iterations: 0,
      },
      'results/load/x.json',
    );
    const value = (key: string) => load.headline.find((h) => h.key === key)?.value;
    expect(value('http_req_duration_p95')).toBeNull();
    expect(value('http_req_failed_rate')).toBeNull();
    expect(value('requests_per_second')).toBe(0);
    // The page formats every box with a data-value, and Number('') is 0: a box with no value has none.
    const html = renderHtml({
      title: 't',
      generatedAt: '',
      window: { from: 0, to: 1 },
      rateWindow: { seconds: 5, reason: '' },
      run: { file: 'x.json', load },
      sections: [],
      panels: {},
      checks: [],
      traces: { service: '', functions: [], slowest: [] },
      tables: [],
    } as unknown as ReportData);
    expect(html).toContain('http_req_duration p95 (scenarios’ requests)<b>–</b>');
    expect(html).toContain('http_req_failed (scenarios’ requests)<b>–</b>');
  });

  it('reads a Markdown table, skipping prose and the alignment row', () => {
    const dir = tmp();
    fs.writeFileSync(
      path.join(dir, 'capacity.md'),
      '# Capacity\n\nText.\n\n| scenario | max req/s | failed |\n|---|---:|---:|\n| get_1 | 480.4 | 0.00% |\n',
    );
    expect(findResultTable(dir, 'capacity', 'Capacity')).toMatchObject({
      columns: ['scenario', 'max req/s', 'failed'],
      rows: [['get_1', 480.4, '0.00%']],
    });
  });

  it('reads the first list of records in a JSON file, flattening objects and dropping nested lists', () => {
    const dir = tmp();
    const file = path.join(dir, 'observability-price.json');
    fs.writeFileSync(
      file,
      JSON.stringify({ rows: [{ config: 'none', best: { epm: 33000 }, trials: [1, 2] }] }),
    );
    expect(readTableFile(file, 'Price')).toMatchObject({
      columns: ['config', 'best.epm'],
      rows: [['none', 33000]],
    });
  });

  it('prefers the Markdown table, then CSV, then JSON, and finds nothing when no file exists', () => {
    const dir = tmp();
    fs.writeFileSync(path.join(dir, 'observability-price.csv'), 'tracing,logging,epm\non,off,31000\n');
    fs.writeFileSync(path.join(dir, 'observability-price.json'), '[{"x":1}]');
    expect(findResultTable(dir, 'observability-price', 'Price')?.rows).toEqual([['on', 'off', 31000]]);
    expect(findResultTable(dir, 'capacity', 'Capacity')).toBeUndefined();
  });
});
