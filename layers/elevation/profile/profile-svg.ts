/**
 * A profile as a standalone SVG chart: distance along the path (m or km) against height (m), with axes,
 * ticks, units and a title that carries the summary, so a browser or a README shows it as it is.
 */
import type { Profile, ProfilePoint } from './profile';

const WIDTH = 800;
const HEIGHT = 320;
const MARGIN = { top: 40, right: 20, bottom: 48, left: 64 };
const PLOT_W = WIDTH - MARGIN.left - MARGIN.right;
const PLOT_H = HEIGHT - MARGIN.top - MARGIN.bottom;
/** About this many ticks per axis: readable at 800x320. */
const TICKS = 6;

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const path = [{ lat: 49.9, lon: 10.1 }, { lat: 49.8, lon: 10.2 }];
 * const profile = await answerProfile(registry.get('plane-point'), path, parseProfileOptions({}, 512), 512);
 * const svg = renderProfileSvg(profile, 'plane-point');
 * assert.match(svg, /^<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg"/);
 * ```
 */
export function renderProfileSvg(profile: Profile, dataset: string): string {
  const { summary } = profile;
  const km = summary.length >= 2000;
  const unit = km ? 'km' : 'm';
  const xScale = km ? 1000 : 1;
  const heights = profile.points.map((p) => p.elevation).filter((e): e is number => e !== null);
  const [yMin, yMax, yStep] = niceRange(
    heights.length ? heights.reduce((a, b) => Math.min(a, b)) : 0,
    heights.length ? heights.reduce((a, b) => Math.max(a, b)) : 1,
  );
  // At least 0 to 1 m: a zero-length profile (one point asked) had ticks 2e-10 m apart, all labelled 0.
  const [, xMax, xStep] = niceRange(0, Math.max(summary.length / xScale, 1));
  const x = (distance: number) => MARGIN.left + (distance / xScale / xMax) * PLOT_W;
  const y = (elevation: number) => MARGIN.top + PLOT_H - ((elevation - yMin) / (yMax - yMin)) * PLOT_H;
  const title = `Elevation profile · ${dataset} · ${(summary.length / xScale).toFixed(km ? 1 : 0)} ${unit} · ascent ${Math.round(summary.ascent)} m · descent ${Math.round(summary.descent)} m`;
  const lines = segments(profile.points).map(
    (run) =>
      `<polyline class="profile" points="${run.map((p) => `${fixed(x(p.distance))},${fixed(y(p.elevation as number))}`).join(' ')}"/>`,
  );
  const xTicks = ticks(0, xMax, xStep).map(
    (v) =>
      `<line x1="${fixed(x(v * xScale))}" y1="${MARGIN.top + PLOT_H}" x2="${fixed(x(v * xScale))}" y2="${MARGIN.top + PLOT_H + 5}"/><text class="tick" x="${fixed(x(v * xScale))}" y="${MARGIN.top + PLOT_H + 18}" text-anchor="middle">${format(v)}</text>`,
  );
  const yTicks = ticks(yMin, yMax, yStep).map(
    (v) =>
      `<line class="grid" x1="${MARGIN.left}" y1="${fixed(y(v))}" x2="${MARGIN.left + PLOT_W}" y2="${fixed(y(v))}"/><text class="tick" x="${MARGIN.left - 8}" y="${fixed(y(v) + 4)}" text-anchor="end">${format(v)}</text>`,
  );
  return [
    `<svg xmlns="http://www.w3.org/2000/svg" width="${WIDTH}" height="${HEIGHT}" viewBox="0 0 ${WIDTH} ${HEIGHT}" font-family="sans-serif" font-size="12">`,
    `<title>${escape(title)}</title>`,
    '<style>.profile{fill:none;stroke:#c0392b;stroke-width:2}.grid{stroke:#ddd}.axis{stroke:#333}.tick{fill:#333}line{stroke:#333}</style>',
    `<rect width="${WIDTH}" height="${HEIGHT}" fill="#fff"/>`,
    `<text x="${WIDTH / 2}" y="22" text-anchor="middle" font-size="15" font-weight="bold">${escape(title)}</text>`,
    ...yTicks,
    ...xTicks,
    `<line class="axis" x1="${MARGIN.left}" y1="${MARGIN.top}" x2="${MARGIN.left}" y2="${MARGIN.top + PLOT_H}"/>`,
    `<line class="axis" x1="${MARGIN.left}" y1="${MARGIN.top + PLOT_H}" x2="${MARGIN.left + PLOT_W}" y2="${MARGIN.top + PLOT_H}"/>`,
    ...lines,
    `<text x="${MARGIN.left + PLOT_W / 2}" y="${HEIGHT - 10}" text-anchor="middle">Distance (${unit})</text>`,
    `<text x="16" y="${MARGIN.top + PLOT_H / 2}" text-anchor="middle" transform="rotate(-90 16 ${MARGIN.top + PLOT_H / 2})">Elevation (m)</text>`,
    '</svg>',
  ].join('\n');
}

/** Runs of consecutive points with data: a gap in the data is a gap in the line. */
function segments(points: readonly ProfilePoint[]): ProfilePoint[][] {
  const runs: ProfilePoint[][] = [[]];
  for (const p of points) {
    if (p.elevation === null) runs.push([]);
    else runs[runs.length - 1].push(p);
  }
  return runs.filter((r) => r.length > 0);
}

/** [min, max, step] widened to round numbers: steps of 1, 2 or 5 times a power of ten. */
export function niceRange(min: number, max: number): [number, number, number] {
  const span = max - min || Math.abs(max) || 1;
  const raw = span / TICKS;
  const power = 10 ** Math.floor(Math.log10(raw));
  const step = [1, 2, 5, 10].map((m) => m * power).find((s) => s >= raw) ?? 10 * power;
  const lo = Math.floor(min / step) * step;
  const hi = Math.ceil(max / step) * step;
  return [lo, hi === lo ? lo + step : hi, step];
}

function ticks(min: number, max: number, step: number): number[] {
  const out: number[] = [];
  for (let k = 0; min + k * step <= max + step * 1e-9; k++) out.push(min + k * step);
  return out;
}

function format(value: number): string {
  return String(Math.round(value * 1000) / 1000);
}

function fixed(value: number): string {
  return value.toFixed(1);
}

function escape(text: string): string {
  return text.replace(/&/g, '&amp;').replace(/</g, '&lt;').replace(/>/g, '&gt;').replace(/"/g, '&quot;');
}
