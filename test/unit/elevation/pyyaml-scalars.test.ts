/**
 * Plain scalars as PyYAML's SafeLoader reads them (YAML 1.1), the values pinned against PyYAML 6.0
 * (`yaml.safe_load('a: ' + s)['a']`), and written back quoted where they would be read as anything but text.
 */
import { parse, stringify } from 'yaml';
import { PYYAML_SCALARS, pyyamlFloat, pyyamlInt } from '../../../layers/elevation/config/pyyaml-scalars';

const OPTIONS = { schema: 'failsafe', customTags: PYYAML_SCALARS } as const;
const read = (scalar: string): unknown => (parse(`a: ${scalar}`, OPTIONS) as { a: unknown }).a;

describe('PyYAML scalars', () => {
  it.each([
    ['0', 0],
    ['-0', 0],
    ['1_000', 1000],
    ['010', 8],
    ['-0x1_F', -31],
    ['+0b1010', 10],
    ['190:20:30', 685230],
    ['-1:30', -90],
  ])('reads the int %s as %p', (scalar, value) => {
    expect(read(scalar)).toBe(value);
  });

  it.each([
    ['1.5', 1.5],
    ['1_0.5', 10.5],
    ['-1.', -1],
    ['.5', 0.5],
    ['1.0e+3', 1000],
    ['1:30.5', 90.5],
    ['-1:30.5', -90.5],
    ['+.inf', Infinity],
    ['-.Inf', -Infinity],
    ['.INF', Infinity],
  ])('reads the float %s as %p', (scalar, value) => {
    expect(read(scalar)).toBe(value);
  });

  it('reads .nan, .NaN and .NAN as NaN', () => {
    for (const scalar of ['.nan', '.NaN', '.NAN']) expect(read(scalar)).toBeNaN();
  });

  it.each([
    ['yes', true],
    ['On', true],
    ['TRUE', true],
    ['no', false],
    ['Off', false],
    ['false', false],
  ])('reads the boolean %s as %p', (scalar, value) => {
    expect(read(scalar)).toBe(value);
  });

  it.each(['~', 'null', 'NULL', ''])('reads %p as null', (scalar) => {
    expect(read(scalar)).toBeNull();
  });

  // What YAML 1.2 or the parser's own 1.1 schema reads otherwise: text for PyYAML.
  it.each([
    '1e3',
    '1.0e3',
    'y',
    'n',
    'tRue',
    'yes!',
    '09',
    '0o10',
    '2001-12-14',
    'inf',
    'nan',
    'onward',
    'nope',
  ])('reads %p as text', (scalar) => {
    expect(read(scalar)).toBe(scalar);
  });

  it('writes back quoted what it would read as a number, a boolean or null, and numbers as numbers', () => {
    const text = stringify(
      { a: '1_000', b: 'yes', c: '~', d: 'srtm', e: 5, f: 1.5, g: true, h: null },
      OPTIONS,
    );
    expect(parse(text, OPTIONS)).toEqual({
      a: '1_000',
      b: 'yes',
      c: '~',
      d: 'srtm',
      e: 5,
      f: 1.5,
      g: true,
      h: null,
    });
    expect(text).toContain('d: srtm');
    expect(text).toContain('e: 5');
    expect(text).toContain('g: true');
  });

  it('computes as construct_yaml_int and construct_yaml_float do', () => {
    expect(pyyamlInt('0b0')).toBe(0);
    expect(pyyamlInt('-010')).toBe(-8);
    expect(pyyamlFloat('1_000.5')).toBe(1000.5);
    expect(pyyamlFloat('-.INF')).toBe(-Infinity);
  });
});
