/**
 * A number written in decimal, as clients and file formats write coordinates and counts: an optional sign,
 * digits with an optional fraction, an optional exponent, spaces around. JavaScript's `Number()` also reads
 * `0x30` (48), `0b11`, `0o7`, `Infinity` and `''` (0): a location `0x30,9` was answered as 48° N with 200.
 */
const DECIMAL = /^\s*[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?\s*$/;

/**
 * The value of decimal text, or NaN for anything else (hexadecimal, binary, octal, `Infinity`, empty).
 *
 * @example
 * ```ts
 * assert.equal(decimalNumber(' -48.5e0 '), -48.5);
 * assert.ok(Number.isNaN(decimalNumber('0x30')));
 * assert.ok(Number.isNaN(decimalNumber('')));
 * ```
 */
export function decimalNumber(text: string): number {
  return DECIMAL.test(text) ? Number(text) : NaN;
}
