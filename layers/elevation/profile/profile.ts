/**
 * An elevation profile from resampled points and their heights: per point its distance from the start,
 * height and grade (percent, over the step from the previous point with data), and a summary.
 */
import { roundElevation } from '../service/elevation-query';
import type { Elevation, LatLon } from '../types';
import { ascentDescent } from './ascent';
import type { ResampledPath } from './resample';

export interface ProfilePoint {
  distance: number;
  elevation: Elevation;
  /** Percent; null for the first point with data and for points without data. */
  grade: number | null;
  location: { lat: number; lng: number };
}

export interface Extreme {
  elevation: number;
  distance: number;
  location: { lat: number; lng: number };
}

export interface ProfileSummary {
  length: number;
  ascent: number;
  descent: number;
  /** The noise threshold the ascent and descent were counted with, metres. */
  threshold: number;
  min: Extreme | null;
  max: Extreme | null;
  /** Steepest climb and steepest drop between neighbouring samples, percent (drop negative). */
  maxGrade: number | null;
  minGrade: number | null;
  samples: number;
  nodata: number;
}

export interface Profile {
  points: ProfilePoint[];
  summary: ProfileSummary;
}

function metres(v: number): number {
  return Math.round(v * 100) / 100;
}

function percent(v: number): number {
  return Math.round(v * 100) / 100;
}

function latLng(l: LatLon): { lat: number; lng: number } {
  return { lat: l.lat, lng: l.lon };
}

export function buildProfile(
  path: ResampledPath,
  elevations: readonly Elevation[],
  threshold: number,
): Profile {
  let previous: { distance: number; elevation: number } | null = null;
  const points = path.points.map((location, i): ProfilePoint => {
    const elevation = elevations[i];
    const distance = path.distances[i];
    let grade: number | null = null;
    if (elevation !== null) {
      if (previous && distance > previous.distance) {
        grade = percent(((elevation - previous.elevation) / (distance - previous.distance)) * 100);
      }
      previous = { distance, elevation };
    }
    return {
      distance: metres(distance),
      elevation: elevation === null ? null : roundElevation(elevation),
      grade,
      location: latLng(location),
    };
  });
  const { ascent, descent } = ascentDescent(elevations, threshold);
  const grades = points.map((p) => p.grade).filter((g): g is number => g !== null);
  return {
    points,
    summary: {
      length: metres(path.length),
      ascent: metres(ascent),
      descent: metres(descent),
      threshold,
      min: extreme(points, (a, b) => a < b),
      max: extreme(points, (a, b) => a > b),
      maxGrade: grades.length ? grades.reduce((a, b) => Math.max(a, b)) : null,
      minGrade: grades.length ? grades.reduce((a, b) => Math.min(a, b)) : null,
      samples: points.length,
      nodata: points.filter((p) => p.elevation === null).length,
    },
  };
}

function extreme(points: readonly ProfilePoint[], better: (a: number, b: number) => boolean): Extreme | null {
  let best: ProfilePoint | null = null;
  for (const p of points) {
    if (p.elevation !== null && (best === null || better(p.elevation, best.elevation as number))) best = p;
  }
  return best === null
    ? null
    : { elevation: best.elevation as number, distance: best.distance, location: best.location };
}
