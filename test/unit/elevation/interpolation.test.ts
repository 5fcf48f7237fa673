import fc from 'fast-check';
import { bilinear, cubic } from '../../../layers/elevation/dataset/interpolation';

/** Both kernels reproduce a plane exactly; only float rounding remains. */
const PLANE_TOLERANCE = 1e-9;

const plane = (a: number, b: number, d: number) => (col: number, row: number) => a + b * col + d * row;
const coefficient = fc.double({ min: -1000, max: 1000, noNaN: true });
const fraction = fc.double({ min: 0, max: 1, maxExcluded: true, noNaN: true });

/** 4x4 row-major window whose inner top-left pixel centre is (0, 0). */
function window(f: (col: number, row: number) => number): number[] {
  const w: number[] = [];
  for (let r = -1; r <= 2; r++) for (let c = -1; c <= 2; c++) w.push(f(c, r));
  return w;
}

describe('bilinear kernel', () => {
  it('is exact on any plane', () => {
    fc.assert(
      fc.property(coefficient, coefficient, coefficient, fraction, fraction, (a, b, d, fx, fy) => {
        const z = plane(a, b, d);
        const value = bilinear(z(0, 0), z(1, 0), z(0, 1), z(1, 1), fx, fy);
        expect(Math.abs(value - z(fx, fy))).toBeLessThan(
          PLANE_TOLERANCE * (1 + Math.abs(a) + Math.abs(b) + Math.abs(d)),
        );
      }),
    );
  });

  it('returns the top-left pixel on its centre', () => {
    expect(bilinear(7, 100, 200, 300, 0, 0)).toBe(7);
  });

  it('renormalises its weights over the valid pixels when a neighbour, not the containing pixel, is nodata', () => {
    // fx, fy > 0.5: the point lies in pixel (1,1) = 40, which is valid; pixel (0,0) is nodata.
    const fx = 0.75;
    const fy = 0.6;
    const w10 = fx * (1 - fy);
    const w01 = (1 - fx) * fy;
    const w11 = fx * fy;
    const expected = (20 * w10 + 30 * w01 + 40 * w11) / (w10 + w01 + w11);
    expect(bilinear(NaN, 20, 30, 40, fx, fy)).toBeCloseTo(expected, 12);
  });

  it('stays within the valid neighbours whatever pixels are nodata', () => {
    fc.assert(
      fc.property(
        fc.array(fc.option(fc.double({ min: -500, max: 9000, noNaN: true }), { nil: NaN }), {
          minLength: 4,
          maxLength: 4,
        }),
        fraction,
        fraction,
        (values, fx, fy) => {
          const result = bilinear(values[0], values[1], values[2], values[3], fx, fy);
          const valid = values.filter((v) => !Number.isNaN(v));
          if (Number.isNaN(result)) return; // allowed: no valid weight
          expect(result).toBeGreaterThanOrEqual(Math.min(...valid) - 1e-9);
          expect(result).toBeLessThanOrEqual(Math.max(...valid) + 1e-9);
        },
      ),
    );
  });

  it('gives NaN exactly on a nodata pixel centre', () => {
    expect(bilinear(NaN, 20, 30, 40, 0, 0)).toBeNaN();
  });

  it('gives NaN when all four pixels are nodata', () => {
    expect(bilinear(NaN, NaN, NaN, NaN, 0.3, 0.6)).toBeNaN();
  });
});

describe('cubic kernel (Keys, a = -0.5)', () => {
  it('is exact on any plane', () => {
    fc.assert(
      fc.property(coefficient, coefficient, coefficient, fraction, fraction, (a, b, d, fx, fy) => {
        const z = plane(a, b, d);
        expect(Math.abs(cubic(window(z), fx, fy) - z(fx, fy))).toBeLessThan(
          PLANE_TOLERANCE * (1 + Math.abs(a) + Math.abs(b) + Math.abs(d)),
        );
      }),
    );
  });

  it('interpolates: returns the inner top-left pixel on its centre', () => {
    const w = Array.from({ length: 16 }, (_, i) => i * i);
    expect(cubic(w, 0, 0)).toBeCloseTo(w[5], 12);
  });

  it('differs from bilinear on a curved surface (the kernel is really cubic)', () => {
    const z = (c: number, r: number) => c * c * c + r * r;
    const w = window(z);
    expect(Math.abs(cubic(w, 0.5, 0.5) - bilinear(w[5], w[6], w[9], w[10], 0.5, 0.5))).toBeGreaterThan(0.1);
  });

  it('falls back to bilinear on the inner 2x2 when an outer pixel is nodata', () => {
    const w = window(plane(100, 3, -2));
    w[0] = NaN;
    expect(cubic(w, 0.4, 0.7)).toBeCloseTo(bilinear(w[5], w[6], w[9], w[10], 0.4, 0.7), 12);
  });

  it('gives NaN on an inner nodata pixel centre and when the window is all nodata', () => {
    const w = window(plane(100, 3, -2));
    w[5] = NaN;
    expect(cubic(w, 0, 0)).toBeNaN();
    expect(cubic(new Array<number>(16).fill(NaN), 0.5, 0.5)).toBeNaN();
  });
});

describe('bilinear kernel with one nodata pixel', () => {
  // Values 10, 20, 30, 40 at (0,0), (1,0), (0,1), (1,1); one of them NaN at a time.
  const values = [10, 20, 30, 40];
  const weights = (fx: number, fy: number) => [(1 - fx) * (1 - fy), fx * (1 - fy), (1 - fx) * fy, fx * fy];
  const renormalised = (missing: number, fx: number, fy: number) => {
    const w = weights(fx, fy);
    const kept = [0, 1, 2, 3].filter((i) => i !== missing);
    return kept.reduce((sum, i) => sum + values[i] * w[i], 0) / kept.reduce((sum, i) => sum + w[i], 0);
  };
  /** [fx, fy] in each of the four pixels' quarters, in the order of `values`. */
  const quarters: [number, number][] = [
    [0.25, 0.25],
    [0.75, 0.25],
    [0.25, 0.75],
    [0.75, 0.75],
  ];
  const withNodata = (missing: number) => values.map((value, i) => (i === missing ? NaN : value));

  it.each([0, 1, 2, 3])(
    'renormalises over the other three when pixel %i is nodata and does not contain the point',
    (missing) => {
      const v = withNodata(missing);
      const others = quarters.filter((_, q) => q !== missing);
      expect(others.map(([fx, fy]) => bilinear(v[0], v[1], v[2], v[3], fx, fy))).toEqual(
        others.map(([fx, fy]) => expect.closeTo(renormalised(missing, fx, fy), 12)),
      );
    },
  );

  it.each([0, 1, 2, 3])('answers nodata inside pixel %i when it is the nodata one', (missing) => {
    const v = withNodata(missing);
    const [fx, fy] = quarters[missing];
    expect(bilinear(v[0], v[1], v[2], v[3], fx, fy)).toBeNaN();
  });
});
