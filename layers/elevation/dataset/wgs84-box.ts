/** Boxes in a CRS and in WGS84 degrees: a dataset's bounds (describe.ts), a tile's placement (mosaic.ts). */
import { wgs84Converter, type Crs } from '../geo/crs';
import type { RasterGrid } from '../raster/raster';

/** [minX, minY, maxX, maxY] */
export type Box = [number, number, number, number];

/**
 * Transforms a box by sampling its edges (a projected box is curved in WGS84). A box that spans the whole globe
 * (ETOPO1 at 1°: -180.5..180.5, its pixel centres at ±180) is [-180, 180] in longitude, and latitudes stop at the
 * poles: proj4 wraps -180.5 to 179.5, so such a raster was said to stop at ±179.5, a 1° strip seemingly missing
 * while its points were answered.
 */
export function toWgs84Box(crs: Crs, [minX, minY, maxX, maxY]: Box): Box {
  const converter = wgs84Converter(crs);
  const lons: number[] = [];
  const lats: number[] = [];
  const steps = crs.isGeographic ? 1 : 16;
  // Longitudes are unwrapped: a box over the antimeridian (a NAD83 tile overhanging 180° by half a pixel, which
  // proj4 wraps to the other side) stays one narrow box, not one spanning the globe the other way. A geographic
  // CRS's own longitude says which turn a point is on; a projected box's centre does (a whole-world projected box,
  // its edges 180° from its centre, is left as it is).
  const [centre] = converter.inverse((minX + maxX) / 2, (minY + maxY) / 2);
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    for (const [x, y] of [
      [minX + t * (maxX - minX), minY],
      [minX + t * (maxX - minX), maxY],
      [minX, minY + t * (maxY - minY)],
      [maxX, minY + t * (maxY - minY)],
    ]) {
      const [lon, lat] = converter.inverse(x, y);
      lons.push(unwrap(lon, crs.isGeographic ? x : centre));
      lats.push(Math.max(-90, Math.min(90, lat)));
    }
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  const [west, east] = [Math.min(...lons), Math.max(...lons)];
  // Only a box over both edges: one over 0..360 is answered east of 0 only (the API asks -180..180).
  const whole = west <= -180 && east >= 180;
  return [
    whole ? -180 : round(west),
    round(Math.min(...lats)),
    whole ? 180 : round(east),
    round(Math.max(...lats)),
  ];
}

/** `lon` moved by a turn to within 180° of `near` (exactly 180° away, it stays). */
function unwrap(lon: number, near: number): number {
  if (lon - near > 180) return lon - 360;
  return lon - near < -180 ? lon + 360 : lon;
}

/** The box a raster's (or a VRT's) grid covers, in its own CRS, whichever way its rows run. */
export function gridBox(
  grid: Pick<RasterGrid, 'originX' | 'originY' | 'width' | 'height' | 'resX' | 'resY'>,
): Box {
  const xs = [grid.originX, grid.originX + grid.width * grid.resX];
  const ys = [grid.originY, grid.originY + grid.height * grid.resY];
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs), Math.max(...ys)];
}

/**
 * How much of the smaller box the two share (0 to 1; 0 when either is empty or not finite): a tile's box and the
 * one its name gives share nearly all (half a pixel more or less) when the name, filename_epsg and
 * filename_tile_size are right, and nothing when one of them is wrong.
 */
export function sharedFraction(a: Box, b: Box): number {
  const area = ([minX, minY, maxX, maxY]: Box) => Math.max(0, maxX - minX) * Math.max(0, maxY - minY);
  const shared = area([
    Math.max(a[0], b[0]),
    Math.max(a[1], b[1]),
    Math.min(a[2], b[2]),
    Math.min(a[3], b[3]),
  ]);
  const smaller = Math.min(area(a), area(b));
  return smaller > 0 && Number.isFinite(shared) ? shared / smaller : 0;
}
