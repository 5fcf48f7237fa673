/**
 * Every rate and duration of the load profiles comes from here, overridable by env (`-e NAME=value`
 * with k6, or plain env vars with `npm run load:*`). SMOKE=1 picks the short CI setting.
 */
export const SMOKE = flag('SMOKE');

/** A yes/no env var: 1/true or 0/false (unset: no); anything else is refused (SMOKE=yes ran the full profile). */
function flag(name: string): boolean {
  const raw = (__ENV[name] ?? '').trim().toLowerCase();
  if (raw === '1' || raw === 'true') return true;
  if (raw === '' || raw === '0' || raw === 'false') return false;
  throw new Error(`${name} must be 1 or true (or 0, false), got "${__ENV[name]}"`);
}

/** Where the API listens; only loopback unless the runner gets --allow-remote. */
export const BASE_URL = (__ENV.BASE_URL ?? 'http://127.0.0.1:3000').replace(/\/$/, '');

/** Dataset the OpenTopoData-style requests go to (`/v1/{dataset}`). */
export const DATASET = __ENV.DATASET ?? 'sample';

/** Multiplies every arrival rate (SCALE=0.5 halves the load, SCALE=2 doubles it). */
export const SCALE = positive('SCALE', Number(__ENV.SCALE || '1'));

/** The value if it is a number above 0, else an error naming the variable (SCALE=abc once ran no request at all). */
function positive(name: string, value: number): number {
  if (!(Number.isFinite(value) && value > 0))
    throw new Error(`${name} must be a number above 0, got "${__ENV[name]}"`);
  return value;
}

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
  if (!/^(\d+(\.\d+)?(ms|s|m|h))+$/.test(raw))
    throw new Error(`${name} must be a duration like 30s or 2h, got "${raw}"`);
  return raw;
}

/**
 * An arrival rate (per second) from env, scaled by SCALE, in whole requests per second: one that rounds below 1
 * is refused, not raised to 1 unsaid (RATE=0.2 and RATE=-5 both ran at 1 req/s).
 */
export function rate(name: string, full: number, smoke: number = full): number {
  const value = num(name, full, smoke) * SCALE;
  const rounded = Math.round(value);
  if (rounded < 1) {
    throw new Error(
      `${name} × SCALE is ${value} requests/s (${name}=${__ENV[name] ?? `default ${SMOKE ? smoke : full}`}, SCALE=${SCALE}), ` +
        'which rounds below 1: the profiles run whole requests per second, at least 1',
    );
  }
  return rounded;
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
