/**
 * Google's `resolution`: the distance in metres between the data points a height was interpolated from,
 * i.e. the answering dataset's pixel size at that point (the larger of its two sides).
 */
import { crsFromEpsg } from '../geo/crs';
import type { DatasetInfo } from '../types';

/** WGS84 semi-major axis and first eccentricity squared. */
const A = 6378137;
const E2 = 0.00669437999014;
const RAD = Math.PI / 180;

/** Metres per pixel at `lat`, or null when the dataset does not say its resolution (remote tile sets). */
export function pixelSizeMetres(info: DatasetInfo, lat: number): number | null {
  if (!info.resolution || !info.crs) return null;
  const [resX, resY] = info.resolution;
  const geographic = isGeographic(info.crs);
  if (geographic === null) return null;
  if (!geographic) return Math.max(resX, resY);
  const sin = Math.sin(lat * RAD);
  const w = 1 - E2 * sin * sin;
  const primeVertical = A / Math.sqrt(w); // radius of curvature along the parallel
  const meridional = (A * (1 - E2)) / (w * Math.sqrt(w));
  return Math.max(resX * RAD * primeVertical * Math.cos(lat * RAD), resY * RAD * meridional);
}

function isGeographic(crsKey: string): boolean | null {
  const epsg = /^EPSG:(\d+)$/.exec(crsKey);
  if (!epsg) return crsKey.includes('+proj=longlat') ? true : crsKey.includes('+proj=') ? false : null;
  try {
    return crsFromEpsg(Number(epsg[1])).isGeographic;
  } catch {
    return null;
  }
}
