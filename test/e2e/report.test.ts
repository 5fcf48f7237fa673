// The run report end to end: a real Prometheus holding one load run, `npm run report` over it, then
// the HTML opened in Debian's headless Chromium where a probe checks that every chart drew its data
// (pixels in the series' colour at the data points, not just a non-empty array or an empty canvas).
import { execFile } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { dashboards, panelsOf } from '../../dashboards/queries';
import type { ReportData } from '../../scripts/report/collect';
import { dumpDom } from '../../scripts/report/chromium';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import {
  JAEGER_BIN,
  postTraces,
  runOpenMetrics,
  startJaeger,
  startPrometheus,
  TRACE_SERVICE,
  type RunningJaeger,
  type RunningPrometheus,
} from './report-fixture';

const exec = promisify(execFile);
const TRACE_COUNT = 12;

/** OTLP ingestion is asynchronous (Jaeger batches for 1 s): wait until the search sees every trace. */
const waitForTraces = async (jaegerUrl: string, count: number, from: number, to: number): Promise<void> => {
  const url = `${jaegerUrl}/api/traces?service=${TRACE_SERVICE}&limit=100&start=${from * 1e6}&end=${to * 1e6}`;
  for (let i = 0; i < 60; i++) {
    const body = (await fetch(url).then((r) => r.json())) as { data: unknown[] | null };
    if ((body.data ?? []).length >= count) return;
    await new Promise((r) => setTimeout(r, 500));
  }
  throw new Error(`Jaeger did not return ${count} traces from ${url}`);
};
const ROOT = path.join(__dirname, '..', '..');
const TESTID = 'report-e2e';
/** A data point counts as drawn when a pixel within this many px has the series colour. */
const INK_RADIUS = 2;
/** Lines may hide each other where they coincide (two routes with equal 4xx rates); most must show. */
const MIN_DRAWN_SHARE = 0.5;

interface ProbeResult {
  key: string;
  datasets: number;
  dataPoints: number;
  drawnPoints: number;
}

/** Runs in the page: for every chart, how many finite data points have their colour on the canvas. */
const PROBE = `<script>
(function () {
  const rgb = (hex) => [1, 3, 5].map((i) => parseInt(hex.slice(i, i + 2), 16));
  const out = window.reportCharts.map((chart) => {
    const { width, height } = chart.canvas;
    const px = chart.canvas.getContext('2d').getImageData(0, 0, width, height).data;
    const near = (x, y, colour) => {
      for (let dy = -${INK_RADIUS}; dy <= ${INK_RADIUS}; dy++)
        for (let dx = -${INK_RADIUS}; dx <= ${INK_RADIUS}; dx++) {
          const i = ((Math.round(y) + dy) * width + Math.round(x) + dx) * 4;
          if (Math.abs(px[i] - colour[0]) + Math.abs(px[i + 1] - colour[1]) + Math.abs(px[i + 2] - colour[2]) < 90) return true;
        }
      return false;
    };
    let dataPoints = 0, drawnPoints = 0, datasets = 0;
    chart.data.datasets.forEach((ds, i) => {
      if (ds.sloLine) return;
      datasets += 1;
      const colour = rgb(ds.borderColor);
      chart.getDatasetMeta(i).data.forEach((el, j) => {
        if (!Number.isFinite(ds.data[j].y)) return;
        dataPoints += 1;
        if (near(el.x, el.y, colour)) drawnPoints += 1;
      });
    });
    return { key: chart.canvas.dataset.panelKey, datasets, dataPoints, drawnPoints };
  });
  const pre = document.createElement('pre');
  pre.id = 'probe';
  pre.textContent = JSON.stringify(out);
  document.body.appendChild(pre);
})();
</script>`;

const pngSize = (file: string): { width: number; height: number } => {
  const head = fs.readFileSync(file).subarray(0, 24);
  expect(head.subarray(1, 4).toString('latin1')).toBe('PNG');
  return { width: head.readUInt32BE(16), height: head.readUInt32BE(20) };
};

const chartPanelKeys = dashboards
  .filter((d) => d.uid !== 'elevation-traces')
  .flatMap((d) => panelsOf(d))
  .filter((p) => p.datasource === 'prometheus')
  .map((p) => p.key);

describeIfAvailable(
  'npm run report over a load run in a real Prometheus',
  [
    { what: 'Jaeger (npm run stack:install)', available: fs.existsSync(JAEGER_BIN) },
    { what: 'Prometheus and promtool (apt-get install prometheus)', available: hasCommand('promtool') },
  ],
  () => {
    let dir: string;
    let prometheus: RunningPrometheus;
    let jaeger: RunningJaeger;
    let env: NodeJS.ProcessEnv;
    let reportOut: { stdout: string };
    const outDir = (): string => path.join(dir, 'report');

    beforeAll(async () => {
      dir = fs.mkdtempSync(path.join(os.tmpdir(), 'report-e2e-'));
      const now = Math.floor(Date.now() / 1000);
      const [from, to] = [now - 1500, now - 300];
      prometheus = await startPrometheus(dir, runOpenMetrics(from, to, 5, TESTID));
      jaeger = await startJaeger(dir);
      await postTraces(jaeger.otlpUrl, from + 60, to - 60, TRACE_COUNT);
      await waitForTraces(jaeger.url, TRACE_COUNT, from, to);
      const summary = {
        testid: TESTID,
        startedAt: new Date((from + 60) * 1000).toISOString(),
        executionSeconds: to - from - 120,
        exitCode: 0,
        elevations_per_minute: 60000,
        requests_per_second: 20,
        http_req_failed_rate: 0,
        http_req_duration_ms: { 'p(95)': 48.2 },
        dropped_iterations: 0,
        thresholds: [
          { metric: 'http_req_failed', threshold: 'rate<0.01', observed: 0, ok: true },
          { metric: 'http_req_duration', threshold: 'p(95)<200', observed: 48.2, ok: true },
        ],
      };
      fs.writeFileSync(path.join(dir, 'summary.json'), JSON.stringify(summary));
      fs.mkdirSync(path.join(dir, 'results'));
      fs.writeFileSync(
        path.join(dir, 'results', 'capacity.md'),
        '| scenario | max req/s | elevations/min |\n|---|---:|---:|\n| post_50 | 310.5 | 931500 |\n',
      );
      fs.writeFileSync(
        path.join(dir, 'results', 'observability-price.json'),
        JSON.stringify({ rows: [{ tracing: 'on', logging: 'on', elevationsPerMinute: 33000 }] }),
      );
      env = {
        ...process.env,
        PROMETHEUS_URL: prometheus.url,
        JAEGER_URL: jaeger.url,
      };
      reportOut = await exec(
        'npx',
        [
          'tsx',
          'scripts/report/main.ts',
          '--summary',
          path.join(dir, 'summary.json'),
          '--out',
          outDir(),
          '--results',
          path.join(dir, 'results'),
          '--scrape-interval',
          '5',
        ],
        { cwd: ROOT, env, timeout: 240_000 },
      );
    }, 300_000);

    afterAll(async () => {
      await prometheus?.stop();
      await jaeger?.stop();
    });

    it('renders every chart of the Elevation API and Load test dashboards with data', () => {
      expect(reportOut.stdout).toContain(`${chartPanelKeys.length} charts (0 without data)`);
    });

    it('checks that both elevations-per-minute charts agree with the headline within 10%', () => {
      const data = JSON.parse(fs.readFileSync(path.join(outDir(), 'report-data.json'), 'utf8')) as ReportData;
      expect(data.checks.map((c) => c.chart)).toEqual([
        'Elevations per minute',
        'Elevations per minute (returned to the load generator)',
      ]);
      for (const c of data.checks) {
        expect(c.ok).toBe(true);
        expect(Math.abs((c.ratio ?? 0) - 1)).toBeLessThanOrEqual(0.1);
      }
      // A 20-minute run: the rate window is the per-minute definition's full minute.
      expect(data.rateWindow.seconds).toBe(60);
    });

    it('draws the slowest traces as SVG waterfalls, one row per span', () => {
      const html = fs.readFileSync(path.join(outDir(), 'report.html'), 'utf8');
      const svgs = [...html.matchAll(/<svg[^>]*class="waterfall"[^>]*>([\s\S]*?)<\/svg>/g)];
      expect(svgs).toHaveLength(3);
      // The fixture's traces have 5 spans each: root, parse, two read-blocks, decode.
      for (const [, body] of svgs) expect(body.match(/<rect /g)).toHaveLength(5);
    });

    it('writes a self-contained HTML file (no external scripts, styles or images)', () => {
      const html = fs.readFileSync(path.join(outDir(), 'report.html'), 'utf8');
      expect(html).not.toMatch(/<(script|img|link)[^>]+(src|href)=["']?(https?:|\/\/)/i);
      expect(html).toContain('Chart.js v4.6.1');
      expect(html).toContain('thresholds passed');
      expect(html).toMatch(/post_50[\s\S]*931500/);
      expect(html).toMatch(/The price of observability[\s\S]*33000/);
    });

    it('lists the slowest traces, slowest first, with where their time went', () => {
      const data = JSON.parse(fs.readFileSync(path.join(outDir(), 'report-data.json'), 'utf8')) as ReportData;
      expect(data.traces.service).toBe(TRACE_SERVICE);
      const durations = data.traces.slowest.map((t) => Math.round(t.durationMs));
      // the fixture's traces last 20 + 20·i ms; the report keeps the 10 slowest
      expect(durations).toEqual([240, 220, 200, 180, 160, 140, 120, 100, 80, 60]);
      const slowest = data.traces.slowest[0];
      expect(slowest.breakdown.map((b) => b.operation).sort()).toEqual(
        ['decode', 'parse', 'read-block', TRACE_SERVICE].sort(),
      );
      // two overlapping 120 ms reads (2–122, 62–182 ms): 240 ms of read-block spans, but the root's own
      // time counts their union once: 240 − parse 0–1 − reads 2–182 − decode 182–230 = 11 ms
      expect(slowest.breakdown.find((b) => b.operation === 'read-block')).toMatchObject({
        count: 2,
        totalMs: 240,
      });
      expect(slowest.breakdown.find((b) => b.operation === TRACE_SERVICE)?.selfMs).toBeCloseTo(11, 3);
      const html = fs.readFileSync(path.join(outDir(), 'report.html'), 'utf8');
      expect(html).toMatch(/Slowest traces[\s\S]*span breakdown[\s\S]*read-block/);
    });

    it('draws each chart’s data on its canvas in headless Chromium', () => {
      const probeFile = path.join(outDir(), 'probe.html');
      fs.writeFileSync(
        probeFile,
        fs.readFileSync(path.join(outDir(), 'report.html'), 'utf8').replace('</body>', `${PROBE}</body>`),
      );
      const dom = dumpDom(probeFile, '', 1280);
      const json = /<pre id="probe">([^<]*)<\/pre>/.exec(dom)?.[1] ?? '[]';
      const results = JSON.parse(json.replace(/&quot;/g, '"').replace(/&amp;/g, '&')) as ProbeResult[];
      expect(results.map((r) => r.key).sort()).toEqual([...chartPanelKeys].sort());
      for (const r of results) {
        expect({ key: r.key, hasSeries: r.datasets > 0, hasPoints: r.dataPoints > 0 }).toEqual({
          key: r.key,
          hasSeries: true,
          hasPoints: true,
        });
        expect({ key: r.key, drawnShare: r.drawnPoints / r.dataPoints >= MIN_DRAWN_SHARE }).toEqual({
          key: r.key,
          drawnShare: true,
        });
      }
    });

    it('writes a PNG of the whole report and one per chart', () => {
      const page = pngSize(path.join(outDir(), 'report.png'));
      expect(page.width).toBe(1280);
      expect(page.height).toBeGreaterThan(3000);
      const panels = fs.readdirSync(path.join(outDir(), 'panels'));
      expect(panels.sort()).toEqual(chartPanelKeys.map((k) => `${k}.png`).sort());
      for (const f of panels)
        expect(pngSize(path.join(outDir(), 'panels', f))).toEqual({ width: 560, height: 300 });
    });

    it('dashboards:verify-live finds data for every Prometheus panel over the same run', async () => {
      const summary = path.join(dir, 'summary.json');
      const args = [
        'tsx',
        'scripts/dashboards/panel-data.ts',
        '--summary',
        summary,
        '--scrape-interval',
        '5',
      ];
      const api = await exec('npx', [...args, '--dashboard', 'elevation-api'], { cwd: ROOT, env });
      const load = await exec('npx', [...args, '--dashboard', 'load-test'], { cwd: ROOT, env });
      expect(api.stdout).toContain('21/21 panels returned data');
      expect(load.stdout).toContain('8/8 panels returned data');
      const traces = await exec('npx', [...args, '--dashboard', 'elevation-traces'], { cwd: ROOT, env });
      expect(traces.stdout).toContain('2/2 panels returned data');
    });
  },
);
