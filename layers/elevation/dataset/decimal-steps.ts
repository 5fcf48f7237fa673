/**
 * Tile corners as whole steps of the tile size, in decimal arithmetic as OpenTopoData's `Decimal` does it: with
 * 0.1-degree tiles the corner 0.3 is 3 steps, where doubles give 0.3 / 0.1 = 2.9999999999999996, and step 3 is
 * written 0.3, where 3 * 0.1 = 0.30000000000000004. Each number is taken as the decimal its shortest text shows
 * (YAML's and a file name's 0.1 print back as 0.1).
 */

interface Decimal {
  /** value = units / 10^scale, scale >= 0 */
  readonly units: bigint;
  readonly scale: number;
}

function decimalOf(value: number): Decimal {
  const match = /^(-?)(\d+)(?:\.(\d+))?(?:e([+-]\d+))?$/.exec(String(value));
  if (!match) throw new RangeError(`${value} is not a finite number`);
  const [, sign, whole, fraction = '', exponent = '0'] = match;
  const scale = fraction.length - Number(exponent);
  const units = BigInt(sign + whole + fraction);
  return scale >= 0 ? { units, scale } : { units: units * 10n ** BigInt(-scale), scale: 0 };
}

/** How many steps of `step` make `value`, or null when `value` is not a whole number of steps. */
export function exactSteps(value: number, step: number): number | null {
  const v = decimalOf(value);
  const s = decimalOf(step);
  const numerator = v.units * 10n ** BigInt(s.scale);
  const denominator = s.units * 10n ** BigInt(v.scale);
  return numerator % denominator === 0n ? Number(numerator / denominator) : null;
}

/** `count` steps of `step` as decimal text without a sign: the whole part and the fraction ('' when none). */
export function stepsText(count: number, step: number): { whole: string; fraction: string } {
  const s = decimalOf(step);
  const units = BigInt(Math.abs(count)) * (s.units < 0n ? -s.units : s.units);
  const digits = units.toString().padStart(s.scale + 1, '0');
  const cut = digits.length - s.scale;
  return { whole: digits.slice(0, cut), fraction: digits.slice(cut).replace(/0+$/, '') };
}
