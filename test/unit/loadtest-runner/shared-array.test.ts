/**
 * k6/data's SharedArray is read-only down to its elements: k6 deep-freezes each element it hands out
 * (js/modules/k6/data/share.go, deepFreeze), so a script cannot change shared data through an element.
 */
import { createDataModule } from '../../../loadtests/runner/modules/data';

describe('SharedArray', () => {
  it('freezes the array and, as k6, every element deeply', () => {
    const { SharedArray } = createDataModule({}, {});
    const users = new SharedArray('users', () => [
      { name: 'a', tags: ['x'], address: { city: 'c' } },
    ]) as unknown as {
      name: string;
      tags: string[];
      address: { city: string };
    }[];
    expect(Object.isFrozen(users)).toBe(true);
    expect(Object.isFrozen(users[0])).toBe(true);
    expect(Object.isFrozen(users[0].tags)).toBe(true);
    expect(Object.isFrozen(users[0].address)).toBe(true);
    expect(() => {
      users[0].address.city = 'changed';
    }).toThrow(TypeError);
  });
});
