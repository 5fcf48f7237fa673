/**
 * The GDAL_NODATA tag's text read as GDAL reads it: libtiff hands over the C string (up to the first NUL, one
 * added where the tag lacks it), then CPLAtofM parses it as strtod does. geotiff.js's getGDALNoData drops the
 * last character and reads the rest with Number(): a tag without its closing NUL (`-32768` read as -3276), with a
 * unit after the number (`-32768 m`, NaN) or text after a NUL answered nodata pixels as heights (a helper's probe).
 */

/**
 * The nodata value of a GDAL_NODATA text, null where there is none (an empty text). As CPLAtofM: blanks before
 * the number are skipped, the longest number is read (a decimal point or comma; `0x` hexadecimal with a binary
 * `p` exponent; inf, infinity and nan in any case), anything after it is ignored, and a text with no number is 0.
 *
 * @example
 * ```ts
 * assert.equal(gdalNodataValue('-32768\0'), -32768);
 * assert.equal(gdalNodataValue('-32768 m'), -32768);
 * assert.equal(gdalNodataValue('0x10'), 16);
 * assert.equal(gdalNodataValue(''), null);
 * ```
 */
export function gdalNodataValue(tag: string): number | null {
  const text = tag.split('\0', 1)[0];
  return text === '' ? null : cplAtofM(text);
}

/**
 * A number as GDAL's CPLAtofM reads it (strtod with a decimal point or comma): the longest number after leading
 * blanks, anything after it ignored, 0 where there is none.
 *
 * @example
 * ```ts
 * assert.equal(cplAtofM('0,5'), 0.5);
 * assert.equal(cplAtofM('10 m'), 10);
 * assert.equal(cplAtofM('0b11'), 0);
 * ```
 */
export function cplAtofM(text: string): number {
  const unsigned = /^[ \t\n\v\f\r]*([+-]?)(.*)$/s.exec(text) as RegExpExecArray;
  const value = unsignedValue(unsigned[2]);
  // No number (strtod parses nothing, its sign included): CPLAtofM's 0.
  if (value === null) return 0;
  return unsigned[1] === '-' ? -value : value;
}

function unsignedValue(text: string): number | null {
  const special = /^(inf(?:inity)?|nan)/i.exec(text);
  if (special) return special[1].toLowerCase() === 'nan' ? NaN : Infinity;
  const hex = /^0x([0-9a-f]*)(?:\.([0-9a-f]*))?/i.exec(text);
  if (hex && (hex[1] !== '' || (hex[2] ?? '') !== '')) {
    const digits = hex[1] + (hex[2] ?? '');
    const exponent = /^p([+-]?\d+)/i.exec(text.slice(hex[0].length));
    const mantissa = digits.split('').reduce((value, digit) => value * 16 + parseInt(digit, 16), 0);
    return mantissa * 2 ** (Number(exponent?.[1] ?? 0) - 4 * (hex[2] ?? '').length);
  }
  const decimal = /^(\d*)(?:[.,](\d*))?/.exec(text) as RegExpExecArray;
  const [whole, fraction = ''] = [decimal[1], decimal[2]];
  if (whole === '' && fraction === '') return null;
  const exponent = /^e([+-]?\d+)/i.exec(text.slice(decimal[0].length));
  return Number(`${whole || '0'}.${fraction || '0'}e${exponent?.[1] ?? '0'}`);
}
