/**
 * Every rate and duration of the load profiles comes from here, overridable by env (`-e NAME=value`
 * with k6, or plain env vars with `npm run load:*`). SMOKE=1 picks the short CI setting.
 */
export const SMOKE = __ENV.SMOKE === '1' || __ENV.SMOKE === 'true';

/** Where the API listens; only loopback unless the runner gets --allow-remote. */
export const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');

/** Dataset the OpenTopoData-style requests go to (`/v1/{dataset}`). */
export const DATASET = __ENV.DATASET ?? 'sample';

/** Multiplies every arrival rate (SCALE=0.5 halves the load, SCALE=2 doubles it). */
export const SCALE = Number(__ENV.SCALE ?? '1');

/** A number from env, else the full or smoke default. */
export function num(name: string, full: number, smoke: number = full): number {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return SMOKE ? smoke : full;
  const value = Number(raw);
  if (!Number.isFinite(value)) throw new Error(`${name} must be a number, got "${raw}"`);
  return value;
}

/** A duration string ("30s", "10m", "2h") from env, else the full or smoke default. */
export function duration(name: string, full: string, smoke: string = full): string {
  const raw = __ENV[name];
  if (raw === undefined || raw === '') return SMOKE ? smoke : full;
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(raw)) throw new Error(`${name} must be a duration like 30s or 2h`);
  return raw;
}

/** An arrival rate (per second) from env, scaled by SCALE, at least 1. */
export function rate(name: string, full: number, smoke: number = full): number {
  return Math.max(1, Math.round(num(name, full, smoke) * SCALE));
}

/** Seconds in a k6 duration string, for arithmetic on durations. */
export function seconds(d: string): number {
  const units: Record<string, number> = { ms: 0.001, s: 1, m: 60, h: 3600 };
  let total = 0;
  for (const part of d.match(/\d+(?:\.\d+)?(?:ms|s|m|h)/g) ?? []) {
    const m = /(\d+(?:\.\d+)?)(ms|s|m|h)/.exec(part);
    if (m) total += Number(m[1]) * units[m[2]];
  }
  return total;
}
