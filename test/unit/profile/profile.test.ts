import { Geodesic } from 'geographiclib-geodesic';
import { InvalidRequestError } from '../../../layers/elevation';
import { ascentDescent } from '../../../layers/elevation/profile/ascent';
import { resamplePath } from '../../../layers/elevation/profile/resample';
import { niceRange } from '../../../layers/elevation/profile/profile-svg';
import { buildProfile } from '../../../layers/elevation/profile/profile';

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

  it('counts a rise or a drop of exactly the threshold', () => {
    expect(ascentDescent([100, 105, 100], 5)).toEqual({ ascent: 5, descent: 5 });
    expect(ascentDescent([100, 104.99, 100], 5)).toEqual({ ascent: 0, descent: 0 });
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

  it('refuses an empty path with a 400, not a crash', () => {
    expect(() => resamplePath([], { samples: 3 }, 512)).toThrow(
      new InvalidRequestError('A profile needs a path of at least one location.'),
    );
  });

  it('answers a path of no length (one location, or one place repeated) with one point, whatever the spacing', () => {
    const place = { lat: 48.65, lon: 9.05 };
    for (const spacing of [{ samples: 100 }, { samples: 2 }, { distance: 10 }]) {
      for (const still of [[place], [place, place, place]]) {
        expect(resamplePath(still, spacing, 512)).toEqual({ points: [place], distances: [0], length: 0 });
      }
    }
  });

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

  it('follows the first leg before the second (samples inside each leg)', () => {
    const resampled = resamplePath(path, { samples: 5 }, 512);
    // A quarter of the way is on the first leg, a meridian: same longitude, between the two latitudes.
    expect(resampled.distances[1]).toBeLessThan(legs[0]);
    expect(resampled.points[1].lon).toBeCloseTo(9.05, 9);
    expect(resampled.points[1].lat).toBeGreaterThan(48.65);
    expect(resampled.points[1].lat).toBeLessThan(48.7);
    // Three quarters is on the second leg, east of the corner.
    expect(resampled.points[3].lon).toBeGreaterThan(9.05);
    expect(resampled.points[3].lat).toBeGreaterThan(48.69);
  });

  it('adds the end once: not again when the spacing divides the length', () => {
    const leg = [path[0], path[1]];
    const length = resamplePath(leg, { samples: 2 }, 512).length;
    const exact = resamplePath(leg, { distance: length }, 512);
    expect(exact.distances).toEqual([0, length]);
    expect(exact.points).toEqual(leg);
    expect(resamplePath(leg, { distance: length / 2 }, 512).distances).toEqual([0, length / 2, length]);
    expect(resamplePath(leg, { distance: 2000 }, 512).distances).toEqual([0, 2000, 4000, length]);
    // Within a millimetre of the end (another library's length, floating point) the last multiple is the end.
    expect(resamplePath(leg, { distance: length / 2 + 0.0004 }, 512).distances).toEqual([
      0,
      length / 2 + 0.0004,
      length,
    ]);
    expect(resamplePath(leg, { distance: length / 2 - 0.0004 }, 512).distances).toEqual([
      0,
      length / 2 - 0.0004,
      length,
    ]);
    const beyond = resamplePath(leg, { distance: length / 2 - 0.002 }, 512).distances;
    expect(beyond).toEqual([0, length / 2 - 0.002, length - 0.004, length]);
  });

  it('allows a spacing that needs exactly the limit', () => {
    const leg = [path[0], path[1]];
    const length = resamplePath(leg, { samples: 2 }, 512).length;
    expect(resamplePath(leg, { distance: length }, 2).distances).toHaveLength(2);
    expect(() => resamplePath(leg, { distance: length / 2 }, 2)).toThrow(
      `distance=${length / 2} m along this ${Math.round(length)} m path gives 3 points; the samples limit is 2. Use a larger distance or samples=2.`,
    );
  });

  it('refuses a spacing that needs more points than the limit', () => {
    expect(() => resamplePath(path, { distance: 1 }, 512)).toThrow(/the samples limit is 512/);
  });
});

describe('buildProfile', () => {
  const resampled = (distances: number[]) => ({
    points: distances.map((d) => ({ lat: 48, lon: 9 + d / 74_000 })),
    distances,
    length: distances[distances.length - 1],
  });

  it('gives each sample its distance (cm), height, grade from the last sample with data (0.01 %) and place', () => {
    const profile = buildProfile(resampled([0, 50.123, 100.0049, 150]), [100, null, 110, 104.5], 0);
    expect(profile.points).toEqual([
      { distance: 0, elevation: 100, grade: null, location: { lat: 48, lng: 9 } },
      { distance: 50.12, elevation: null, grade: null, location: { lat: 48, lng: 9 + 50.123 / 74_000 } },
      // Across the gap: from 100 m at 0 to 110 m at 100.0049, 9.9995 %.
      { distance: 100, elevation: 110, grade: 10, location: { lat: 48, lng: 9 + 100.0049 / 74_000 } },
      { distance: 150, elevation: 104.5, grade: -11, location: { lat: 48, lng: 9 + 150 / 74_000 } },
    ]);
    expect(profile.summary).toMatchObject({
      length: 150,
      ascent: 10,
      descent: 5.5,
      threshold: 0,
      maxGrade: 10,
      minGrade: -11,
      samples: 4,
      nodata: 1,
    });
  });

  it('has no grade between two samples at the same distance (a repeated vertex), not an infinite one', () => {
    const profile = buildProfile(resampled([0, 0, 100]), [100, 105, 110], 0);
    expect(profile.points.map((p) => p.grade)).toEqual([null, null, 5]);
    expect(profile.summary.maxGrade).toBe(5);
  });

  it('reports the steepest climb and the gentlest as grades, never a missing one as 0', () => {
    const profile = buildProfile(resampled([0, 100, 200, 300]), [100, 103, 110, 112], 0);
    expect(profile.summary.maxGrade).toBe(7);
    expect(profile.summary.minGrade).toBe(2);
  });

  it('names the first of equal lowest and highest points', () => {
    const profile = buildProfile(resampled([0, 100, 200, 300, 400]), [95, 90, 120, 90, 120], 0);
    expect(profile.summary.min).toEqual({
      elevation: 90,
      distance: 100,
      location: profile.points[1].location,
    });
    expect(profile.summary.max).toEqual({
      elevation: 120,
      distance: 200,
      location: profile.points[2].location,
    });
  });

  it('has no extremes and no grades when no sample has data', () => {
    const profile = buildProfile(resampled([0, 100]), [null, null], 5);
    expect(profile.summary).toMatchObject({
      min: null,
      max: null,
      maxGrade: null,
      minGrade: null,
      nodata: 2,
    });
  });
});

describe('niceRange', () => {
  it.each([
    [0, 60, [0, 60, 10]],
    [-12, -3, [-12, -2, 2]],
    [214.9, 490.2, [200, 500, 50]],
    [0, 26.66, [0, 30, 5]],
    [100, 100, [100, 120, 20]],
  ])('widens [%d, %d] to round ticks', (min, max, expected) => {
    expect(niceRange(min, max)).toEqual(expected);
  });
});
