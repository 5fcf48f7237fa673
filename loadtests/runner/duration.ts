/** k6 duration strings ("1m30s", "500ms", "2h", Go's "250us") to milliseconds, and back for display. */
const UNIT_MS: Record<string, number> = {
  ns: 1e-6,
  us: 1e-3,
  µs: 1e-3,
  ms: 1,
  s: 1000,
  m: 60_000,
  h: 3_600_000,
  d: 86_400_000,
};
/** Longer units first, so "ms" is not read as "m" followed by "s". */
const PART = /(\d+(?:\.\d+)?)(ns|us|µs|ms|s|m|h|d)/g;

export function parseDuration(value: string | number | undefined, fallbackMs?: number): number {
  if (value === undefined || value === '') {
    if (fallbackMs === undefined) throw new Error('a duration is required');
    return fallbackMs;
  }
  // k6 reads a bare number as milliseconds.
  if (typeof value === 'number') return value;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const parts = [...value.matchAll(PART)];
  if (parts.length === 0 || parts.map((p) => p[0]).join('') !== value)
    throw new Error(`invalid duration "${value}" (use e.g. 30s, 1m30s, 500ms)`);
  return parts.reduce((total, [, amount, unit]) => total + Number(amount) * UNIT_MS[unit], 0);
}

export function formatDuration(ms: number): string {
  if (ms < 1000) return `${Math.round(ms)}ms`;
  const totalSeconds = ms / 1000;
  const h = Math.floor(totalSeconds / 3600);
  const m = Math.floor((totalSeconds % 3600) / 60);
  const s = totalSeconds % 60;
  const sText = Number.isInteger(s) ? `${s}s` : `${s.toFixed(1)}s`;
  return `${h ? `${h}h` : ''}${h || m ? `${m}m` : ''}${sText}`;
}

/** k6's `summaryTimeUnit` values: every time in the summary in that unit instead of the one that fits. */
export type TimeUnit = 's' | 'ms' | 'us';
const FIXED_UNITS: Record<TimeUnit, { coefficient: number; unit: string }> = {
  s: { coefficient: 0.001, unit: 's' },
  ms: { coefficient: 1, unit: 'ms' },
  us: { coefficient: 1000, unit: 'µs' },
};

/** Human time value for the summary, the way k6 prints trend stats (µs/ms/s, or the fixed `unit`). */
export function formatTime(ms: number, unit?: TimeUnit | ''): string {
  if (unit) return `${(ms * FIXED_UNITS[unit].coefficient).toFixed(2)}${FIXED_UNITS[unit].unit}`;
  if (ms === 0) return '0s';
  if (ms < 1) return `${(ms * 1000).toFixed(2)}µs`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  return formatDuration(ms);
}
