// The report as one self-contained HTML file: data as embedded JSON, Chart.js and the page script
// inlined, so it opens offline from a CI artifact or an e-mail attachment.
import fs from 'node:fs';
import path from 'node:path';
import type { ChartPanel, ReportData } from './collect';
import { seriesColours } from './colours';
import type { Cell, Table } from './tables';
import { waterfallSvg } from './waterfall';

/** The UMD build (a global `Chart`), beside the package's main entry: dist/ is not in its exports. */
const CHART_JS = path.join(path.dirname(require.resolve('chart.js')), 'chart.umd.min.js');
const PAGE_DIR = path.join(__dirname, 'page');
export const CHART_WIDTH = 560;
export const CHART_HEIGHT = 300;

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** JSON inside <script>: `<` escaped so no string in the data can close the element. */
const scriptJson = (value: unknown): string => JSON.stringify(value).replace(/</g, '\\u003c');

const time = (unixSeconds: number): string =>
  new Date(unixSeconds * 1000).toISOString().replace('T', ' ').slice(0, 19);

const valueCell = (v: number | null, unit: string): string =>
  v === null
    ? '<td class="num">–</td>'
    : `<td class="num" data-unit="${esc(unit)}" data-value="${v}">${v}</td>`;

const cellHtml = (c: Cell): string =>
  typeof c === 'number'
    ? `<td class="num">${Number.isInteger(c) ? c : c.toFixed(3)}</td>`
    : c === 'passed'
      ? '<td class="pass">passed</td>'
      : c === 'FAILED'
        ? '<td class="fail">FAILED</td>'
        : `<td>${esc(String(c ?? ''))}</td>`;

const tableHtml = (t: Table): string =>
  `<h3>${esc(t.title)}</h3><p class="meta">from <code>${esc(t.source)}</code></p>` +
  `<table><thead><tr>${t.columns.map((c) => `<th>${esc(c)}</th>`).join('')}</tr></thead><tbody>` +
  t.rows.map((r) => `<tr>${r.map(cellHtml).join('')}</tr>`).join('') +
  '</tbody></table>';

const loadSection = (data: ReportData): string => {
  if (!data.run)
    return '<p class="meta">No load-test summary given (--summary): charts cover --from/--to only.</p>';
  const { load, file } = data.run;
  const verdict = `<span class="${load.passed ? 'pass' : 'fail'}">${esc(load.verdict)}</span>`;
  const boxes = load.headline
    .map(
      // No value, no data-value: the page formats every data-value, and Number('') is 0 ("p95 0.00 ms" for none).
      (h) =>
        h.value === null
          ? `<div>${esc(h.label)}<b>–</b></div>`
          : `<div>${esc(h.label)}<b data-unit="${esc(h.unit)}" data-value="${h.value}">${h.value}</b></div>`,
    )
    .join('');
  const lag =
    load.generatorLagMs === null
      ? ''
      : `<p class="fail">The load generator's event loop lagged up to ${load.generatorLagMs.toFixed(0)} ms ` +
        '(runner_event_loop_lag): it was saturated, so the latencies include its own delay; give it more CPU or ' +
        'less load.</p>';
  return (
    `<h2>Load test summary</h2><p>${verdict} · exit code ${load.exitCode ?? '–'} · summary <code>${esc(file)}</code></p>${lag}` +
    `<div class="headline">${boxes}</div>${checksHtml(data)}${tableHtml(load.thresholds)}`
  );
};

/** A check's verdict: without a ratio (no chart points, a run shorter than the window) it was not made at all. */
const verdictOf = (c: ReportData['checks'][number]): string => {
  if (c.ok) return 'agree';
  if (c.ratio === null) return c.decisive ? 'NOT CHECKED' : 'not checked (informative)';
  return c.decisive ? 'DISAGREE' : 'differs (the profile changes its rate; informative)';
};

/** The report's own consistency check: charts restating a headline number agree with it (agreement.ts). */
const checksHtml = (data: ReportData): string => {
  if (data.checks.length === 0) return '';
  const rows = data.checks
    .map(
      (c) =>
        `<tr><td>${esc(c.chart)}</td><td>${esc(c.headline)}</td>` +
        `${valueCell(c.chartValue, 'suffix: elev/min')}${valueCell(c.headlineValue, 'suffix: elev/min')}` +
        `<td class="num">${c.ratio === null ? '–' : `${((c.ratio - 1) * 100).toFixed(1)}%`}</td>` +
        `<td class="${c.ok ? 'pass' : c.decisive ? 'fail' : ''}">${verdictOf(c)}</td><td>${esc(c.note)}</td></tr>`,
    )
    .join('');
  return (
    '<h3 id="agreement">Charts against the headline (within 10%)</h3>' +
    '<table><thead><tr><th>chart</th><th>headline</th><th>chart</th><th>headline</th><th>difference</th><th>result</th><th>how read</th></tr></thead>' +
    `<tbody>${rows}</tbody></table>`
  );
};

const panelHtml = (p: ChartPanel): string => {
  const hasData = p.series.some((s) => s.points.some(([, v]) => v !== null));
  const note = p.error ? `query failed: ${p.error}` : hasData ? '' : 'no data in this window';
  return (
    `<figure class="panel" id="panel-${esc(p.key)}">` +
    `<canvas width="${CHART_WIDTH}" height="${CHART_HEIGHT}" data-panel-key="${esc(p.key)}"></canvas>` +
    `<figcaption>${esc(p.description)}${note ? ` <span class="empty">${esc(note)}</span>` : ''}` +
    `<details><summary>PromQL</summary>${p.queries.map((q) => `<code>${esc(q)}</code>`).join('<br>')}</details>` +
    '</figcaption></figure>'
  );
};

const tracesSection = (data: ReportData): string => {
  const { traces } = data;
  const functions = traces.functions.length
    ? `, across its functions ${traces.functions.map((f) => `<code>${esc(f)}</code>`).join(', ')} (one search each, merged)`
    : '';
  const head = `<h2 id="slowest-traces">Slowest traces</h2><p class="meta">Jaeger service <code>${esc(traces.service)}</code>${functions}</p>`;
  if (traces.error) return `${head}<p class="empty">${esc(traces.error)}</p>`;
  if (!traces.slowest.length) return `${head}<p class="empty">no traces in this window</p>`;
  const rows = traces.slowest
    .map(
      (t) =>
        `<tr><td><code>${esc(t.traceID)}</code></td><td>${esc(t.rootOperation)}</td><td>${esc(t.route)}</td>` +
        `<td class="${t.error ? 'fail' : ''}">${t.error ? 'error' : 'ok'}</td>${valueCell(t.durationMs, 'ms')}` +
        `<td class="num">${t.spanCount}</td><td>${esc(time(t.start / 1000))}</td><td><details><summary>span breakdown</summary>` +
        // Summed over spans, concurrent ones each count (a 27-ms trace had 43 ms of read-block self time): the sums
        // say so, and the wall-clock self time, which never exceeds the trace, stands beside them.
        '<table><thead><tr><th>operation</th><th>spans</th><th>total (summed over spans)</th>' +
        '<th>self (summed over spans)</th><th>self (wall clock)</th></tr></thead><tbody>' +
        t.breakdown
          .map(
            (b) =>
              `<tr><td>${esc(b.operation)}</td><td class="num">${b.count}</td>${valueCell(b.totalMs, 'ms')}${valueCell(b.selfMs, 'ms')}${valueCell(b.selfWallMs, 'ms')}</tr>`,
          )
          .join('') +
        '</tbody></table></details></td></tr>',
    )
    .join('');
  const waterfalls = traces.slowest
    .filter((t) => t.spans && t.spans.length > 0)
    .map(
      (t) =>
        `<figure class="trace"><figcaption><code>${esc(t.traceID)}</code> · ${esc(t.rootOperation)} ${esc(t.route)} · ` +
        `<span data-unit="ms" data-value="${t.durationMs}">${t.durationMs}</span> · ${t.spanCount} spans · ` +
        `${esc(time(t.start / 1000))} UTC</figcaption>${waterfallSvg(t.traceID, t.spans ?? [])}</figure>`,
    )
    .join('');
  return (
    `${head}<table><thead><tr><th>trace id</th><th>function (root span)</th><th>route</th><th>status</th><th>duration</th><th>spans</th><th>start (UTC)</th><th>where the time went</th></tr></thead><tbody>${rows}</tbody></table>` +
    (waterfalls
      ? `<h3 id="trace-waterfalls">Waterfalls of the slowest traces</h3><p class="meta">One row per span (depth-first, indented by depth), drawn from Jaeger's API data in microseconds; red = an error span.</p>${waterfalls}`
      : '')
  );
};

/** Each series' line colour, chosen here per chart so that no two lines of one chart share one (colours.ts). */
const withColours = (panels: ReportData['panels']): Record<string, ChartPanel> =>
  Object.fromEntries(
    Object.entries(panels).map(([key, panel]) => {
      const colours = seriesColours(panel.series.map((s) => s.name));
      return [key, { ...panel, series: panel.series.map((s, i) => ({ ...s, colour: colours[i] })) }];
    }),
  );

export const renderHtml = (data: ReportData): string => {
  const css = fs.readFileSync(path.join(PAGE_DIR, 'report-page.css'), 'utf8');
  const pageJs = fs.readFileSync(path.join(PAGE_DIR, 'report-page.js'), 'utf8');
  const chartJs = fs.readFileSync(CHART_JS, 'utf8');
  const sections = data.sections
    .map(
      (s) =>
        `<h2>${esc(s.title)} <span class="meta">(Grafana dashboard <code>${esc(s.uid)}</code>)</span></h2>` +
        s.rows
          .map(
            (r) =>
              `<h3>${esc(r.title)}</h3><div class="grid">${r.panelKeys.map((k) => panelHtml(data.panels[k])).join('')}</div>`,
          )
          .join(''),
    )
    .join('');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${esc(data.title)}</title><style>${css}</style></head>
<body>
<h1>${esc(data.title)}</h1>
<p class="meta">${esc(time(data.window.from))} → ${esc(time(data.window.to))} UTC (all times in this report are UTC) · generated ${esc(data.generatedAt)}</p>
<p class="meta">Rate window ($__rate_interval) ${data.rateWindow.seconds === null ? 'as Grafana computes it' : `${data.rateWindow.seconds} s`}: ${esc(data.rateWindow.reason)}.</p>
${loadSection(data)}
${data.tables.map(tableHtml).join('\n')}
${sections}
${tracesSection(data)}
<script type="application/json" id="report-data">${scriptJson({ window: data.window, runSpan: data.runSpan, panels: withColours(data.panels) })}</script>
<script>${chartJs}</script>
<script>${pageJs}</script>
</body></html>
`;
};
