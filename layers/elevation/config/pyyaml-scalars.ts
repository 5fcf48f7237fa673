/**
 * Plain scalars resolved as OpenTopoData reads its config: PyYAML's SafeLoader, YAML 1.1 (resolver.py's implicit
 * resolvers and constructor.py's construct_yaml_*). The yaml parser's own 1.2 core schema differs on what a config
 * holds: `1_000` and `0x10` were strings (a `max_locations_per_request` refused), `010` was 10 (PyYAML: 8), `1e3` a
 * number (PyYAML: the string "1e3", a valid dataset name) and `yes`/`on` strings. Timestamps stay strings (no
 * setting is a date), and the yaml parser's own 1.1 schema is not PyYAML's either (it reads `y` and `1e3` as a
 * boolean and a number).
 */
import type { ScalarTag } from 'yaml';

const INT =
  /^(?:[-+]?0b[0-1_]+|[-+]?0[0-7_]+|[-+]?(?:0|[1-9][0-9_]*)|[-+]?0x[0-9a-fA-F_]+|[-+]?[1-9][0-9_]*(?::[0-5]?[0-9])+)$/;
const FLOAT =
  /^(?:[-+]?(?:[0-9][0-9_]*)\.[0-9_]*(?:[eE][-+][0-9]+)?|\.[0-9][0-9_]*(?:[eE][-+][0-9]+)?|[-+]?[0-9][0-9_]*(?::[0-5]?[0-9])+\.[0-9_]*|[-+]?\.(?:inf|Inf|INF)|\.(?:nan|NaN|NAN))$/;
const BOOL = /^(?:yes|Yes|YES|no|No|NO|true|True|TRUE|false|False|FALSE|on|On|ON|off|Off|OFF)$/;
const NULL = /^(?:~|null|Null|NULL|)$/;

/** A sign and the rest, as construct_yaml_int and construct_yaml_float split them. */
function signed(text: string): [number, string] {
  if (text[0] === '-') return [-1, text.slice(1)];
  return [1, text[0] === '+' ? text.slice(1) : text];
}

/** `190:20:30` (YAML 1.1's sexagesimal numbers): digits of base 60, the first one unbounded. */
function base60(text: string): number {
  return text.split(':').reduce((value, digits) => value * 60 + Number(digits), 0);
}

/**
 * @example
 * ```ts
 * assert.equal(pyyamlInt('1_000'), 1000);
 * assert.equal(pyyamlInt('010'), 8);
 * assert.equal(pyyamlInt('-0x1F'), -31);
 * assert.equal(pyyamlInt('1:30'), 90);
 * ```
 */
export function pyyamlInt(source: string): number {
  const [sign, text] = signed(source.replace(/_/g, ''));
  if (text === '0') return 0;
  if (text.startsWith('0b')) return sign * parseInt(text.slice(2), 2);
  if (text.startsWith('0x')) return sign * parseInt(text.slice(2), 16);
  if (text.startsWith('0')) return sign * parseInt(text, 8);
  if (text.includes(':')) return sign * base60(text);
  return sign * Number(text);
}

/**
 * @example
 * ```ts
 * assert.equal(pyyamlFloat('1_0.5'), 10.5);
 * assert.equal(pyyamlFloat('-.INF'), -Infinity);
 * assert.equal(pyyamlFloat('1:30.5'), 90.5);
 * ```
 */
export function pyyamlFloat(source: string): number {
  const [sign, text] = signed(source.replace(/_/g, '').toLowerCase());
  if (text === '.inf') return sign * Infinity;
  if (text === '.nan') return NaN;
  if (text.includes(':')) return sign * base60(text);
  return sign * Number(text);
}

const tag = (name: string) => `tag:yaml.org,2002:${name}`;

/** For `parse(text, { schema: 'failsafe', customTags: PYYAML_SCALARS })`: every other plain scalar is a string. */
export const PYYAML_SCALARS: ScalarTag[] = [
  { tag: tag('null'), default: true, test: NULL, resolve: () => null, identify: (v) => v === null },
  {
    tag: tag('bool'),
    default: true,
    test: BOOL,
    resolve: (text) => /^(?:yes|true|on)$/i.test(text),
    identify: (v) => typeof v === 'boolean',
  },
  {
    tag: tag('int'),
    default: true,
    test: INT,
    resolve: pyyamlInt,
    identify: (v) => typeof v === 'number' && Number.isInteger(v),
  },
  {
    tag: tag('float'),
    default: true,
    test: FLOAT,
    resolve: pyyamlFloat,
    identify: (v) => typeof v === 'number',
  },
];
