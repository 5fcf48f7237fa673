import { Geodesic } from 'geographiclib-geodesic';
import { samplePath } from '../../../layers/elevation/request/path-sampling';
import type { LatLon } from '../../../layers/elevation/types';

/** Samples are rounded to 1e-9 degrees (~0.1 mm), so spacings agree to well under a millimetre. */
const SPACING_TOLERANCE_M = 1e-3;

const distance = (a: LatLon, b: LatLon): number =>
  Geodesic.WGS84.Inverse(a.lat, a.lon, b.lat, b.lon).s12 ?? NaN;

function spacings(points: LatLon[]): number[] {
  return points.slice(1).map((p, i) => distance(points[i], p));
}

describe('samplePath (samples=N)', () => {
  const stuttgart = { lat: 48.742275, lon: 9.101177 };
  const ulm = { lat: 48.4011, lon: 9.9876 };
  const augsburg = { lat: 48.3705, lon: 10.8978 };

  it('returns N points with both ends included exactly', () => {
    const points = samplePath([stuttgart, ulm], 5);
    expect(points).toHaveLength(5);
    expect(points[0]).toEqual(stuttgart);
    expect(points[4]).toEqual(ulm);
  });

  it('spaces the points equally by geodesic distance along one leg', () => {
    const points = samplePath([stuttgart, ulm], 11);
    const steps = spacings(points);
    const expected = distance(stuttgart, ulm) / 10;
    for (const step of steps) expect(Math.abs(step - expected)).toBeLessThan(SPACING_TOLERANCE_M);
  });

  it('spaces the points equally along the whole path across a vertex, not per leg', () => {
    const points = samplePath([stuttgart, ulm, augsburg], 4);
    const total = distance(stuttgart, ulm) + distance(ulm, augsburg);
    // The 2nd sample lies a third of the total along the path: on the first leg, at that distance from the start.
    expect(Math.abs(distance(stuttgart, points[1]) - total / 3)).toBeLessThan(SPACING_TOLERANCE_M);
    // The 3rd lies two thirds along: on the second leg, that far past Ulm.
    expect(Math.abs(distance(ulm, points[2]) - ((2 * total) / 3 - distance(stuttgart, ulm)))).toBeLessThan(
      SPACING_TOLERANCE_M,
    );
    expect(points[3]).toEqual(augsburg);
  });

  it('puts every sample of a many-legged path at its share of the total length, on the right leg', () => {
    // Legs of very different lengths, one of them shorter than the spacing (no sample lands on it).
    const path = [stuttgart, ulm, { lat: 48.402, lon: 9.99 }, augsburg, { lat: 48.1351, lon: 11.582 }, ulm];
    const legs = path
      .slice(1)
      .map((p, i) => Geodesic.WGS84.InverseLine(path[i].lat, path[i].lon, p.lat, p.lon));
    const total = legs.reduce((sum, leg) => sum + leg.s13, 0);
    const samples = 37;
    const points = samplePath(path, samples);
    expect(points).toHaveLength(samples);
    points.slice(0, -1).forEach((point, k) => {
      // Walk the legs to the one holding distance d, then go the rest of the way along it.
      let d = (total * k) / (samples - 1);
      let leg = 0;
      while (leg < legs.length - 1 && d > legs[leg].s13) d -= legs[leg++].s13;
      const expected = legs[leg].Position(d);
      expect(distance(point, { lat: expected.lat2 ?? NaN, lon: expected.lon2 ?? NaN })).toBeLessThan(
        SPACING_TOLERANCE_M,
      );
    });
    expect(points[samples - 1]).toEqual(ulm);
  });

  it('places samples on the geodesic, not on a straight line in degrees', () => {
    // Along a long east-west path the geodesic bulges poleward of the parallel.
    const [, middle] = samplePath(
      [
        { lat: 50, lon: -60 },
        { lat: 50, lon: 60 },
      ],
      3,
    );
    expect(middle.lon).toBeCloseTo(0, 6);
    expect(middle.lat).toBeGreaterThan(60);
  });

  it('keeps longitudes in [-180, 180] across the antimeridian', () => {
    const points = samplePath(
      [
        { lat: 0, lon: 179 },
        { lat: 0, lon: -179 },
      ],
      5,
    );
    for (const p of points) expect(Math.abs(p.lon)).toBeLessThanOrEqual(180);
    expect(Math.abs(points[2].lon)).toBeCloseTo(180, 6);
  });

  it('repeats a single location N times', () => {
    expect(samplePath([stuttgart], 3)).toEqual([stuttgart, stuttgart, stuttgart]);
  });
});
