import { Geodesic } from 'geographiclib-geodesic';
import { ascentDescent } from '../../../layers/elevation/profile/ascent';
import { resamplePath } from '../../../layers/elevation/profile/resample';
import { niceRange } from '../../../layers/elevation/profile/profile-svg';

describe('ascentDescent', () => {
  it('ignores wiggles smaller than the threshold', () => {
    expect(ascentDescent([100, 102, 99, 101, 100], 5)).toEqual({ ascent: 0, descent: 0 });
  });

  it('counts a climb made of small steps once it reaches the threshold, and a last rise below it not', () => {
    // 100 -> 106 reaches 5 and counts 6; 106 -> 110 stays below the threshold.
    expect(ascentDescent([100, 102, 104, 106, 108, 110], 5)).toEqual({ ascent: 6, descent: 0 });
  });

  it('counts from the last counted height, not from the last sample', () => {
    // 100 -> 106 counts 6; 106 -> 103 is noise; 103 -> 100 reaches 6 below 106.
    expect(ascentDescent([100, 106, 103, 100], 5)).toEqual({ ascent: 6, descent: 6 });
  });

  it('sums every rise and drop with threshold 0, and skips heights without data', () => {
    expect(ascentDescent([100, null, 103, 101, null, 104], 0)).toEqual({ ascent: 6, descent: 2 });
  });
});

describe('resamplePath', () => {
  const path = [
    { lat: 48.65, lon: 9.05 },
    { lat: 48.7, lon: 9.05 },
    { lat: 48.7, lon: 9.15 },
  ];
  const legs = [
    Geodesic.WGS84.Inverse(48.65, 9.05, 48.7, 9.05).s12 as number,
    Geodesic.WGS84.Inverse(48.7, 9.05, 48.7, 9.15).s12 as number,
  ];

  it('measures the path leg by leg on the ellipsoid and keeps both ends', () => {
    const resampled = resamplePath(path, { samples: 3 }, 512);
    expect(resampled.length).toBeCloseTo(legs[0] + legs[1], 6);
    expect(resampled.points[0]).toEqual(path[0]);
    expect(resampled.points[2]).toEqual(path[2]);
    expect(resampled.distances).toEqual([0, resampled.length / 2, resampled.length]);
  });

  it('puts a point exactly on a vertex when the spacing lands there', () => {
    const resampled = resamplePath(path, { distance: legs[0] }, 512);
    expect(resampled.points[1].lat).toBeCloseTo(48.7, 9);
    expect(resampled.points[1].lon).toBeCloseTo(9.05, 9);
  });

  it('refuses a spacing that needs more points than the limit', () => {
    expect(() => resamplePath(path, { distance: 1 }, 512)).toThrow(/the limit is 512 \(MAX_SAMPLES\)/);
  });
});

describe('niceRange', () => {
  it.each([
    [214.9, 490.2, [200, 500, 50]],
    [0, 26.66, [0, 30, 5]],
    [100, 100, [100, 120, 20]],
  ])('widens [%d, %d] to round ticks', (min, max, expected) => {
    expect(niceRange(min, max)).toEqual(expected);
  });
});
