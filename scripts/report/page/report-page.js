/* Runs inside the report HTML: draws every panel with Chart.js from the embedded JSON. Plain JS
 * (no build step) because it is inlined into a file that must open anywhere, offline. */
(function () {
  'use strict';
  const data = JSON.parse(document.getElementById('report-data').textContent);
  const SLO_COLOR = '#d62728';

  const si = (v, units) => {
    let i = 0;
    let n = Math.abs(v);
    while (n >= 1000 && i < units.length - 1) {
      n /= 1000;
      i += 1;
    }
    return `${(Math.sign(v) * n).toFixed(n >= 100 || n === 0 ? 0 : n >= 10 ? 1 : 2)}${units[i]}`;
  };
  const bytes = (v) => si(v, [' B', ' kB', ' MB', ' GB', ' TB']);

  /** The Grafana units the catalogue uses, formatted as Grafana would (close enough to read). */
  const formatValue = (unit, v, decimals) => {
    if (v === null || v === undefined || !Number.isFinite(v)) return '–';
    if (decimals !== undefined && (unit === 'short' || unit === 'none')) return v.toFixed(decimals);
    if (unit.startsWith('suffix:')) return `${si(v, ['', 'k', 'M', 'G'])} ${unit.slice(7).trim()}`;
    switch (unit) {
      case 's':
        return v < 1 ? `${(v * 1000).toFixed(v < 0.01 ? 2 : 0)} ms` : `${v.toFixed(2)} s`;
      case 'ms':
        return v < 1000 ? `${v.toFixed(1)} ms` : `${(v / 1000).toFixed(2)} s`;
      case 'percentunit':
        return `${(v * 100).toFixed(v < 0.1 ? 2 : 1)}%`;
      case 'reqps':
        return `${si(v, ['', 'k', 'M'])} req/s`;
      case 'ops':
        return `${si(v, ['', 'k', 'M'])} ops/s`;
      case 'Bps':
        return `${bytes(v)}/s`;
      case 'bytes':
        return bytes(v);
      default:
        return si(v, ['', 'k', 'M', 'G']);
    }
  };
  const clock = (ms) => new Date(ms).toISOString().slice(11, 19);

  /** Opaque white behind each chart so the exported PNGs read like the page (canvas is transparent). */
  const whiteBackground = {
    id: 'whiteBackground',
    beforeDraw: (chart) => {
      const { ctx, width, height } = chart;
      ctx.save();
      ctx.globalCompositeOperation = 'destination-over';
      ctx.fillStyle = '#ffffff';
      ctx.fillRect(0, 0, width, height);
      ctx.restore();
    },
  };

  const chartFor = (canvas, panel) => {
    const fromMs = data.window.from * 1000;
    const toMs = data.window.to * 1000;
    const datasets = panel.series.map((s) => ({
      label: s.name,
      data: s.points.map(([t, v]) => ({ x: t * 1000, y: v })),
      /* Chosen per chart by html.ts (scripts/report/colours.ts): by name, but never two alike in one chart. */
      borderColor: s.colour,
      backgroundColor: s.colour,
      borderWidth: 2,
      pointRadius: 0,
      spanGaps: false,
    }));
    for (const slo of panel.slos) {
      datasets.push({
        label: slo.label,
        data: [
          { x: fromMs, y: slo.value },
          { x: toMs, y: slo.value },
        ],
        borderColor: SLO_COLOR,
        backgroundColor: SLO_COLOR,
        borderDash: [6, 4],
        borderWidth: 1.5,
        pointRadius: 0,
        sloLine: true,
      });
    }
    return new window.Chart(canvas, {
      type: 'line',
      plugins: [whiteBackground],
      data: { datasets },
      options: {
        animation: false,
        responsive: false,
        devicePixelRatio: 1,
        parsing: false,
        normalized: true,
        plugins: {
          title: { display: true, text: panel.title, align: 'start', font: { size: 14 } },
          legend: { position: 'bottom', labels: { boxWidth: 12, font: { size: 11 } } },
          tooltip: {
            callbacks: {
              label: (c) => `${c.dataset.label}: ${formatValue(panel.unit, c.parsed.y, panel.decimals)}`,
            },
          },
        },
        scales: {
          x: {
            type: 'linear',
            min: fromMs,
            max: toMs,
            ticks: { callback: (v) => clock(v), maxTicksLimit: 8 },
            title: { display: true, text: 'time (UTC)', font: { size: 11 } },
          },
          y: {
            beginAtZero: true,
            ticks: {
              callback: (v) => formatValue(panel.unit, v, panel.decimals),
              ...(panel.decimals === 0 ? { precision: 0 } : {}),
            },
          },
        },
      },
    });
  };

  const charts = [];
  for (const canvas of document.querySelectorAll('canvas[data-panel-key]')) {
    const panel = data.panels[canvas.dataset.panelKey];
    if (panel) charts.push(chartFor(canvas, panel));
  }
  for (const cell of document.querySelectorAll('[data-unit][data-value]')) {
    cell.textContent = formatValue(cell.dataset.unit, Number(cell.dataset.value));
  }

  /* `report.html#export`: put each chart's PNG into the DOM so `chromium --dump-dom` can save them. */
  if (location.hash === '#export') {
    const out = document.createElement('div');
    out.id = 'export';
    // Measured before the images are added: the screenshot shows the report, not the export.
    out.dataset.height = String(document.documentElement.scrollHeight);
    for (const chart of charts) {
      const img = document.createElement('img');
      img.dataset.panelKey = chart.canvas.dataset.panelKey;
      img.src = chart.toBase64Image('image/png', 1);
      out.appendChild(img);
    }
    document.body.appendChild(out);
  }
  window.reportCharts = charts;
})();
