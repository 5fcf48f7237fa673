// npm run report — renders the dashboards' panels over a load run into results/report/:
// report.html (self-contained), report.png (whole page) and panels/<panel-key>.png.
//   --summary results/load/<run>.json   (default: the newest there; sets the window and $testid)
//   --from ISO|unix|now-15m --to …      (instead of, or to override, the summary's window)
//   --out results/report   --no-png   --var name=value
// Sources: PROMETHEUS_URL (http://127.0.0.1:9090), JAEGER_URL (http://127.0.0.1:16686),
// SCRAPE_INTERVAL_SECONDS or --scrape-interval (5 as in stack/prometheus; for $__rate_interval).
import fs from 'node:fs';
import path from 'node:path';
import { selectRun } from '../dashboards/cli-args';
import { CHROMIUM } from './chromium';
import { collectReport } from './collect';
import { renderHtml } from './html';
import { writePngs } from './png';
import { checkPrerequisites } from './prerequisites';
import { findResultTable, loadSummaryOf, type Table } from './tables';
import { windowOfRun } from '../../dashboards/live/window';

const RESULTS = 'results';

const main = async (): Promise<void> => {
  const run = selectRun(process.argv.slice(2), { useNewestSummary: true, padSeconds: 30 });
  const outDir = run.flags.get('out') ?? path.join(RESULTS, 'report');
  const resultsDir = run.flags.get('results') ?? RESULTS;
  const missing = await checkPrerequisites(
    run.sources.prometheusUrl,
    CHROMIUM,
    run.flags.get('no-png') !== 'true',
  );
  if (missing.length > 0) {
    for (const line of missing) console.error(`report: ${line}`);
    process.exit(1);
  }
  const tables = [
    findResultTable(resultsDir, 'capacity', 'Capacity (highest rate within the SLOs, per scenario)'),
    findResultTable(resultsDir, 'observability-price', 'The price of observability (tracing × logging)'),
  ].filter((t): t is Table => t !== undefined);
  const data = await collectReport({
    window: run.window,
    sources: run.sources,
    variables: run.variables,
    run:
      run.summary && run.summaryFile
        ? { file: run.summaryFile, load: loadSummaryOf(run.summary, run.summaryFile) }
        : undefined,
    runSpan: run.summary ? windowOfRun(run.summary, 0) : undefined,
    tables,
  });
  fs.mkdirSync(outDir, { recursive: true });
  const htmlFile = path.join(outDir, 'report.html');
  fs.writeFileSync(htmlFile, renderHtml(data));
  fs.writeFileSync(path.join(outDir, 'report-data.json'), `${JSON.stringify(data, null, 2)}\n`);
  const charts = Object.values(data.panels);
  const empty = charts.filter((c) => !c.series.some((s) => s.points.some(([, v]) => v !== null)));
  console.log(
    `report: ${htmlFile} — ${charts.length} charts (${empty.length} without data), ${data.traces.slowest.length} slow traces`,
  );
  for (const c of empty) console.log(`  no data: ${c.key}${c.error ? ` (${c.error})` : ''}`);
  if (data.traces.error) console.log(`  traces: ${data.traces.error}`);
  for (const c of data.checks)
    console.log(
      `  ${c.ok ? '✓' : '✗'} ${c.chart}: ${c.chartValue?.toFixed(0) ?? '–'} vs headline ${c.headlineValue?.toFixed(0) ?? '–'}` +
        ` (${c.ratio === null ? 'no ratio' : `${((c.ratio - 1) * 100).toFixed(1)}%`}; ${c.note})`,
    );
  const failing = data.checks.filter((c) => !c.ok && c.decisive);
  const disagree = failing.filter((c) => c.ratio !== null);
  const unchecked = failing.filter((c) => c.ratio === null);
  if (run.flags.get('no-png') !== 'true') {
    const pngs = writePngs(htmlFile, outDir);
    console.log(
      `report: ${pngs.page} and ${pngs.panels.length} panel PNGs in ${path.join(outDir, 'panels')}`,
    );
  }
  if (disagree.length > 0)
    console.error(
      `report: ${disagree.length} chart(s) disagree with the headline by more than 10% (see above)`,
    );
  if (unchecked.length > 0)
    console.error(
      `report: ${unchecked.length} chart(s) could not be checked against the headline (see above): was the run ` +
        "pushed to Prometheus (K6_PROMETHEUS_RW_SERVER_URL) and the API's metrics scraped, for longer than the rate window?",
    );
  // Exit 3: the report is written, but its charts could not be vouched for (README: Dashboards and run reports).
  if (failing.length > 0) process.exit(3);
};

main().catch((err: unknown) => {
  // A refusal's message is the whole story; a stack only for what no message foresaw.
  console.error(err instanceof Error && !(err instanceof TypeError) ? `report: ${err.message}` : err);
  process.exit(1);
});
