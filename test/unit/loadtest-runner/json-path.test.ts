/**
 * res.json(selector): k6 reads the selector as a GJSON path (js/modules/k6/http/response.go, tidwall/gjson). No
 * maintained GJSON implementation is on npm, so the runner takes the common subset (keys, array indexes, `#`
 * counts and `#.` projections, `\` escapes) with GJSON's answers, and refuses the rest by name.
 */
import { selectJsonPath } from '../../../loadtests/runner/modules/json-path';

/** The example document of GJSON's README. */
const DOC = {
  name: { first: 'Tom', last: 'Anderson' },
  age: 37,
  children: ['Sara', 'Alex', 'Jack'],
  'fav.movie': 'Deer Hunter',
  friends: [
    { first: 'Dale', last: 'Murphy', age: 44, nets: ['ig', 'fb', 'tw'] },
    { first: 'Roger', last: 'Craig', age: 68, nets: ['fb', 'tw'] },
    { first: 'Jane', last: 'Murphy', age: 47, nets: ['ig', 'tw'] },
  ],
};

describe('res.json() selector (GJSON subset)', () => {
  it.each([
    ['name.last', 'Anderson'],
    ['age', 37],
    ['children', ['Sara', 'Alex', 'Jack']],
    ['children.#', 3],
    ['children.1', 'Alex'],
    ['fav\\.movie', 'Deer Hunter'],
    ['friends.#.first', ['Dale', 'Roger', 'Jane']],
    ['friends.1.last', 'Craig'],
    ['friends.#.nets.#', [3, 2, 2]],
    ['friends.#.nets.0', ['ig', 'fb', 'ig']],
  ])('answers %s as GJSON does', (path, want) => {
    expect(selectJsonPath(DOC, path)).toEqual(want);
  });

  it.each(['name.middle', 'children.5', 'children.x', 'age.x', 'fav.movie'])(
    'answers undefined for %s, which does not exist',
    (path) => {
      expect(selectJsonPath(DOC, path)).toBeUndefined();
    },
  );

  it.each([
    ['child*.0', 'wildcard'],
    ['c?ildren', 'wildcard'],
    ['friends.#(last=="Murphy").first', 'query'],
    ['friends.#(age>45)#.last', 'query'],
    ['children|@reverse', 'pipe'],
    ['children.@reverse', 'modifier'],
    ['@this', 'modifier'],
    ['{name.first,age}', 'multipath'],
    ['[name.first,age]', 'multipath'],
    ['..0', 'JSON Lines'],
  ])('refuses %s (GJSON %s syntax) by name instead of answering undefined', (path, kind) => {
    expect(() => selectJsonPath(DOC, path)).toThrow(
      `res.json("${path}"): GJSON ${kind} syntax is not supported`,
    );
  });
});
