/**
 * Points along a path's geodesics (WGS84, GeographicLib), either `samples` evenly spaced or one every
 * `distance` metres (plus the end), each with its distance from the start; a path of no length is one point.
 */
import { Geodesic } from 'geographiclib-geodesic';
import { InvalidRequestError } from '../errors';
import type { LatLon } from '../types';

export type Spacing = { samples: number } | { distance: number };

export interface ResampledPath {
  points: LatLon[];
  /** Metres from the start along the path, one per point, non-decreasing. */
  distances: number[];
  length: number;
}

interface Leg {
  line: ReturnType<typeof Geodesic.WGS84.InverseLine>;
  start: number;
  length: number;
}

export function resamplePath(path: readonly LatLon[], spacing: Spacing, maxSamples: number): ResampledPath {
  if (path.length === 0) throw new InvalidRequestError('A profile needs a path of at least one location.');
  const legs: Leg[] = [];
  let length = 0;
  for (let i = 0; i + 1 < path.length; i++) {
    const line = Geodesic.WGS84.InverseLine(path[i].lat, path[i].lon, path[i + 1].lat, path[i + 1].lon);
    legs.push({ line, start: length, length: line.s13 });
    length += line.s13;
  }
  const distances = targetDistances(length, spacing, maxSamples);
  let leg = 0;
  const points = distances.map((d, k) => {
    if (legs.length === 0) return path[0];
    if (k === distances.length - 1) return path[path.length - 1];
    while (leg < legs.length - 1 && d > legs[leg].start + legs[leg].length) leg++;
    const p = legs[leg].line.Position(d - legs[leg].start);
    return { lat: round(p.lat2 ?? path[0].lat), lon: round(normalizeLon(p.lon2 ?? path[0].lon)) };
  });
  return { points, distances, length };
}

function targetDistances(length: number, spacing: Spacing, maxSamples: number): number[] {
  // A path of no length (one location, or one place repeated) has one place to sample: N copies of it at
  // distance 0 would be N identical rows, as `distance` already answers.
  if (length === 0) return [0];
  if ('samples' in spacing) {
    const n = spacing.samples;
    return Array.from({ length: n }, (_, k) => (k === n - 1 ? length : (length * k) / (n - 1)));
  }
  const count = Math.floor(length / spacing.distance) + 1;
  const withEnd = count + (length - (count - 1) * spacing.distance > END_TOLERANCE_M ? 1 : 0);
  if (withEnd > maxSamples) {
    throw new InvalidRequestError(
      `distance=${spacing.distance} m along this ${Math.round(length)} m path gives ${withEnd} points; the samples limit is ${maxSamples}. Use a larger distance or samples=${maxSamples}.`,
    );
  }
  const distances = Array.from({ length: count }, (_, k) => k * spacing.distance);
  if (withEnd > count) distances.push(length);
  else distances[count - 1] = length; // the last multiple is the end
  return distances;
}

/**
 * A last multiple of `distance` this close to the path's end is the end: a `distance` the client computed as a
 * fraction of the length (with another geodesic library, or in floating point) must not add a second end point
 * micrometres after it, whose grade over that step would be noise. Distances are answered to the centimetre.
 */
const END_TOLERANCE_M = 0.001;

function normalizeLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** 1e-9 degrees is ~0.1 mm: keeps echoed coordinates short without losing anything measurable. */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
