// A trace as a waterfall (SVG), drawn here from Jaeger's API data: the Go-built Jaeger has no UI, and a reviewer
// of the report should see where a slow request spent its time without one. One row per span, depth-first in
// start order, indented by depth; the bar spans the span's time on an axis of milliseconds since the trace began.
import type { WaterfallSpan } from '../../dashboards/live/jaeger';

const ROW = 18;
const LABEL_WIDTH = 250;
const BAR_WIDTH = 520;
const DURATION_WIDTH = 80;
const AXIS = 24;
const INDENT = 10;
const WIDTH = LABEL_WIDTH + BAR_WIDTH + DURATION_WIDTH;
/** Colours by depth (root, handler, phases, reads…), error spans red: the same scheme in every waterfall. */
const DEPTH_COLOURS = ['#1f77b4', '#2ca02c', '#9467bd', '#ff7f0e', '#17becf', '#8c564b'];
const ERROR_COLOUR = '#d62728';

const esc = (s: string): string =>
  s.replace(
    /[&<>"']/g,
    (c) => ({ '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' })[c] ?? c,
  );

/** Spans depth-first, children in start order, each with its depth; orphans (parent not in the trace) are roots. */
export const waterfallRows = (spans: readonly WaterfallSpan[]): { span: WaterfallSpan; depth: number }[] => {
  const ids = new Set(spans.map((s) => s.id));
  const children = new Map<string, WaterfallSpan[]>();
  const roots: WaterfallSpan[] = [];
  for (const s of spans) {
    if (s.parentId && ids.has(s.parentId)) children.set(s.parentId, [...(children.get(s.parentId) ?? []), s]);
    else roots.push(s);
  }
  const byStart = (a: WaterfallSpan, b: WaterfallSpan) =>
    a.startUs - b.startUs || b.durationUs - a.durationUs;
  const rows: { span: WaterfallSpan; depth: number }[] = [];
  const visit = (s: WaterfallSpan, depth: number): void => {
    rows.push({ span: s, depth });
    for (const c of (children.get(s.id) ?? []).sort(byStart)) visit(c, depth + 1);
  };
  for (const r of roots.sort(byStart)) visit(r, 0);
  return rows;
};

/** 1, 2 or 5 × 10^n ms, so about five ticks cover the trace. */
export const tickStepMs = (totalMs: number): number => {
  const raw = Math.max(totalMs, 0.001) / 5;
  const magnitude = 10 ** Math.floor(Math.log10(raw));
  return [1, 2, 5, 10].map((m) => m * magnitude).find((step) => step >= raw) ?? 10 * magnitude;
};

const ms = (us: number): string => {
  const v = us / 1000;
  return `${v < 10 ? v.toFixed(3) : v < 100 ? v.toFixed(2) : v.toFixed(1)} ms`;
};

export const waterfallSvg = (traceId: string, spans: readonly WaterfallSpan[]): string => {
  const rows = waterfallRows(spans);
  if (rows.length === 0) return '';
  const t0 = Math.min(...spans.map((s) => s.startUs));
  const totalUs = Math.max(1, Math.max(...spans.map((s) => s.startUs + s.durationUs)) - t0);
  const x = (us: number): number => LABEL_WIDTH + ((us - t0) / totalUs) * BAR_WIDTH;
  const height = AXIS + rows.length * ROW + 4;
  const step = tickStepMs(totalUs / 1000);
  const ticks: string[] = [];
  for (let t = 0; t <= totalUs / 1000 + 1e-9; t += step) {
    const tx = x(t0 + t * 1000).toFixed(1);
    ticks.push(
      `<line x1="${tx}" y1="${AXIS - 4}" x2="${tx}" y2="${height}" class="grid"/>` +
        `<text x="${tx}" y="${AXIS - 8}" text-anchor="middle">${Number(t.toPrecision(6))}</text>`,
    );
  }
  const bars = rows.map(({ span, depth }, i) => {
    const y = AXIS + i * ROW;
    const colour = span.error ? ERROR_COLOUR : DEPTH_COLOURS[depth % DEPTH_COLOURS.length];
    const bx = x(span.startUs);
    const bw = Math.max(1, (span.durationUs / totalUs) * BAR_WIDTH);
    return (
      `<g><title>${esc(span.operation)}: ${ms(span.durationUs)} from +${ms(span.startUs - t0)}${span.error ? ' (error)' : ''}</title>` +
      `<text x="${4 + depth * INDENT}" y="${y + 13}" class="op">${esc(span.operation)}</text>` +
      `<rect x="${bx.toFixed(1)}" y="${y + 3}" width="${bw.toFixed(1)}" height="${ROW - 6}" fill="${colour}" rx="2"/>` +
      `<text x="${WIDTH - 4}" y="${y + 13}" text-anchor="end" class="dur">${ms(span.durationUs)}</text></g>`
    );
  });
  return (
    `<svg xmlns="http://www.w3.org/2000/svg" class="waterfall" data-trace-id="${esc(traceId)}" width="${WIDTH}" height="${height}" viewBox="0 0 ${WIDTH} ${height}" role="img" aria-label="trace ${esc(traceId)} waterfall">` +
    '<style>text{font:11px system-ui,sans-serif;fill:#1d2330}.grid{stroke:#e3e6ec}.dur{fill:#5b6375}</style>' +
    `<text x="4" y="${AXIS - 8}" class="dur">ms since the trace started</text>` +
    ticks.join('') +
    bars.join('') +
    '</svg>'
  );
};
