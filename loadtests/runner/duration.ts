/** k6 duration strings ("1m30s", "500ms", "2h") to milliseconds, and back for display. */
const UNIT_MS: Record<string, number> = { ms: 1, s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 };

export function parseDuration(value: string | number | undefined, fallbackMs?: number): number {
  if (value === undefined || value === '') {
    if (fallbackMs === undefined) throw new Error('a duration is required');
    return fallbackMs;
  }
  // k6 reads a bare number as milliseconds.
  if (typeof value === 'number') return value;
  if (/^\d+(\.\d+)?$/.test(value)) return Number(value) * 1000;
  const parts = value.match(/(\d+(?:\.\d+)?)(ms|s|m|h|d)/g);
  if (!parts || parts.join('') !== value)
    throw new Error(`invalid duration "${value}" (use e.g. 30s, 1m30s, 500ms)`);
  return parts.reduce((total, part) => {
    const [, amount, unit] = /(\d+(?:\.\d+)?)(ms|s|m|h|d)/.exec(part) as RegExpExecArray;
    return total + Number(amount) * UNIT_MS[unit];
  }, 0);
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

/** Human time value for the summary, the way k6 prints trend stats (µs/ms/s). */
export function formatTime(ms: number): string {
  if (ms === 0) return '0s';
  if (ms < 1) return `${(ms * 1000).toFixed(2)}µs`;
  if (ms < 1000) return `${ms.toFixed(2)}ms`;
  if (ms < 60_000) return `${(ms / 1000).toFixed(2)}s`;
  return formatDuration(ms);
}
