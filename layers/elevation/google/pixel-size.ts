/**
 * Google's `resolution`: the distance in metres between the data points a height was interpolated from,
 * i.e. the answering dataset's pixel size on the ground at that point (the larger of its two sides). In a
 * projected CRS that is not the pixel size as the file states it: its unit may be feet or kilometres, and the
 * projection's scale varies (EPSG:3857's 60 m pixels are ~25 m apart at 65°N).
 */
import { Geodesic } from 'geographiclib-geodesic';
import { crsFromEpsg, wgs84Converter, type Crs } from '../geo/crs';
import type { DatasetInfo, LatLon } from '../types';

/** WGS84 semi-major axis and first eccentricity squared. */
const A = 6378137;
const E2 = 0.00669437999014;
const RAD = Math.PI / 180;

/**
 * Metres per pixel at `point`, or null when the dataset does not say its resolution (remote tile sets) or its
 * CRS cannot place the point.
 */
export function pixelSizeMetres(info: DatasetInfo, point: LatLon): number | null {
  if (!info.resolution || !info.crs) return null;
  const [resX, resY] = info.resolution;
  const crs = crsOf(info.crs);
  if (crs === null) return null;
  if (!crs.isGeographic) return projectedPixelMetres(crs, resX, resY, point);
  const lat = point.lat;
  const sin = Math.sin(lat * RAD);
  const w = 1 - E2 * sin * sin;
  const primeVertical = A / Math.sqrt(w); // radius of curvature along the parallel
  const meridional = (A * (1 - E2)) / (w * Math.sqrt(w));
  return Math.max(resX * RAD * primeVertical * Math.cos(lat * RAD), resY * RAD * meridional);
}

/**
 * A projected pixel's sides on the ground: the pixel centred on the point, its corners taken back to WGS84 and
 * measured along the ellipsoid (GeographicLib). Null where the projection cannot place the point.
 */
function projectedPixelMetres(crs: Crs, resX: number, resY: number, point: LatLon): number | null {
  try {
    const { forward, inverse } = wgs84Converter(crs);
    const [x, y] = forward(point.lon, point.lat);
    if (!Number.isFinite(x) || !Number.isFinite(y)) return null;
    const across = groundMetres(inverse(x - resX / 2, y), inverse(x + resX / 2, y));
    const along = groundMetres(inverse(x, y - resY / 2), inverse(x, y + resY / 2));
    const metres = Math.max(across, along);
    // A pixel with no size on the ground: the projection did not place its corners (proj4 answers its limits).
    return Number.isFinite(metres) && metres > 0 ? metres : null;
  } catch {
    return null;
  }
}

function groundMetres([lon1, lat1]: [number, number], [lon2, lat2]: [number, number]): number {
  return Geodesic.WGS84.Inverse(lat1, lon1, lat2, lon2).s12 ?? Number.NaN;
}

/** The CRS a dataset lists (`EPSG:<code>` or a proj4 string), or null when it is neither. */
function crsOf(crsKey: string): Crs | null {
  const epsg = /^EPSG:(\d+)$/.exec(crsKey);
  if (!epsg) {
    if (!crsKey.includes('+proj=')) return null;
    const isGeographic = crsKey.includes('+proj=longlat');
    return { key: crsKey, epsg: null, proj4: crsKey, isGeographic, isWgs84: false };
  }
  try {
    return crsFromEpsg(Number(epsg[1]));
  } catch {
    return null;
  }
}
