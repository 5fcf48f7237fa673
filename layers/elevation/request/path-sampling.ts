/**
 * `samples=N`: N points spaced evenly by geodesic distance (WGS84 ellipsoid, GeographicLib) along the path
 * through the given locations, both ends included, as OpenTopoData does.
 */
import { Geodesic } from 'geographiclib-geodesic';
import type { LatLon } from '../types';

const wgs84 = Geodesic.WGS84;

export function samplePath(path: readonly LatLon[], samples: number): LatLon[] {
  if (path.length === 1) return new Array<LatLon>(samples).fill(path[0]);
  const legs = [];
  let total = 0;
  for (let i = 0; i + 1 < path.length; i++) {
    const line = wgs84.InverseLine(path[i].lat, path[i].lon, path[i + 1].lat, path[i + 1].lon);
    legs.push({ line, start: total, length: line.s13 });
    total += line.s13;
  }
  const result: LatLon[] = [];
  let leg = 0;
  for (let k = 0; k < samples; k++) {
    const distance = samples === 1 ? 0 : (total * k) / (samples - 1);
    while (leg < legs.length - 1 && distance > legs[leg].start + legs[leg].length) leg++;
    if (k === samples - 1) {
      result.push(path[path.length - 1]);
      continue;
    }
    const { line, start } = legs[leg];
    const position = line.Position(distance - start);
    result.push({
      lat: round(position.lat2 ?? path[0].lat),
      lon: round(normalizeLon(position.lon2 ?? path[0].lon)),
    });
  }
  return result;
}

function normalizeLon(lon: number): number {
  return ((((lon + 180) % 360) + 360) % 360) - 180;
}

/** 1e-9 degrees is ~0.1 mm: enough to keep echoed coordinates short without losing anything measurable. */
function round(value: number): number {
  return Math.round(value * 1e9) / 1e9;
}
