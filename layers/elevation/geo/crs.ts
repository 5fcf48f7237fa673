/**
 * Coordinate reference systems: definitions derived from GeoTIFF keys or EPSG codes (proj4 has almost none
 * built in), and cached WGS84 <-> CRS converters. Raster x is always easting/longitude: the `+axis` terms that
 * geotiff-geokeys-to-proj4 emits (e.g. `+axis=ne` for EPSG:3035) are dropped so proj4 never swaps axes.
 */
import proj4 from 'proj4';
import { toProj4 } from 'geotiff-geokeys-to-proj4';
import { DatasetConfigError } from '../errors';
import DATUM_SHIFTS from './datum-shifts.json';
import { asGdalReadsIt, refuseUnreadProjection } from './user-defined-crs';

export interface Crs {
  /** Stable identity for caches: `EPSG:<code>` or the proj4 string. */
  readonly key: string;
  readonly epsg: number | null;
  readonly proj4: string;
  readonly isGeographic: boolean;
  /** Coordinates are WGS84 longitude/latitude as given: no transformation at all (the fast path). */
  readonly isWgs84: boolean;
}

/** Transforms between WGS84 lon/lat and a CRS. `forward`: WGS84 -> CRS; `inverse`: CRS -> WGS84. */
export interface Converter {
  forward(lon: number, lat: number): [number, number];
  inverse(x: number, y: number): [number, number];
}

const USER_DEFINED = 32767;
/**
 * The least accurate datum shift taken (metres, as EPSG states it for the transformation). A coarser one
 * (NAD27's Helmert transformations, 10-20 m, up to 60 m from PROJ with its grids) could put a point in another
 * pixel than GDAL does; such a CRS is refused.
 */
export const MAX_DATUM_SHIFT_ERROR_M = 5;

/**
 * datum-shifts.json (written by scripts/geo/datum-shifts.ts from PROJ's database): per EPSG code, the Helmert
 * shift to WGS 84 as proj4's `+towgs84` and its accuracy in metres; PROJ's definition where the definition table's
 * places points elsewhere; and the codes placed elsewhere than PROJ places them even so, with how far (refused).
 */
export interface DatumTable {
  shifts: Record<string, [string, number] | undefined>;
  /** PROJ's own definition, shift included, where the definition table's differs from it (EPSG:3031 lacks lat_0). */
  overrides: Record<string, string | undefined>;
  mismatched: Record<string, number | undefined>;
}
const DATUM_TABLE = DATUM_SHIFTS as unknown as DatumTable;
const WGS84_CODES = new Set([4326, 4979]);

const identity: Converter = { forward: (lon, lat) => [lon, lat], inverse: (x, y) => [x, y] };

/** What geotiff-geokeys-to-proj4 reports without the definition being incomplete. */
const HARMLESS_ERRORS = new Set(['bothGCSAndPCSAreSet']);

export function crsFromGeoKeys(geoKeys: Record<string, unknown>): Crs {
  const projected = Number(geoKeys.ProjectedCSTypeGeoKey ?? geoKeys.ProjectedCRSGeoKey ?? 0);
  const geographic = Number(geoKeys.GeographicTypeGeoKey ?? geoKeys.GeodeticCRSGeoKey ?? 0);
  const model = Number(geoKeys.GTModelTypeGeoKey ?? 0);
  // An EPSG projected code defines the whole CRS; a GeographicTypeGeoKey beside it names only its base datum
  // (geotiff-geokeys-to-proj4 would read such a file in its base: EPSG:3035 + 4258 as ETRS89 degrees). With a
  // user-defined projection the geographic code is its base too: a user-defined projection on WGS84 is not
  // EPSG:4326 (keyed so, it was taken for WGS84 itself and read without projecting the points).
  if (projected && projected !== USER_DEFINED) return crsFromEpsg(projected);
  if (!projected && geographic && geographic !== USER_DEFINED) return crsFromEpsg(geographic);
  // Vertical keys do not change where a pixel is, and an unknown vertical CS makes geotiff-geokeys-to-proj4 throw
  // a TypeError: they are left out. Anything else it cannot read leaves the definition incomplete (a projection
  // without its origin, a unit assumed to be metres), and reading with it would answer the wrong place.
  const horizontal = Object.fromEntries(
    Object.entries(geoKeys).filter(([name]) => !name.startsWith('Vertical')),
  );
  refuseUnreadProjection(horizontal);
  const result = toProj4(horizontal as never);
  const unsupported = Object.entries(result.errors ?? {}).filter(([name]) => !HARMLESS_ERRORS.has(name));
  if (unsupported.length > 0) {
    throw new DatasetConfigError(
      `The GeoTIFF's coordinate reference system cannot be read (${unsupported.map(([name, code]) => `${name}: ${String(code)}`).join(', ')}); assign one with gdal_edit.py -a_srs EPSG:<code>.`,
    );
  }
  const toMetre = result.isGCS ? 1 : Number(result.coordinatesConversionParameters.x);
  if (result.isGCS && Number(result.coordinatesConversionParameters.x) !== 1) {
    throw new DatasetConfigError(
      'The GeoTIFF gives its longitudes and latitudes in another unit than degrees, which this reader does not convert; assign one with gdal_edit.py -a_srs EPSG:<code>.',
    );
  }
  const definition = asGdalReadsIt(stripAxis(result.proj4), horizontal, toMetre);
  // geotiff-geokeys-to-proj4 falls back to a bare `+proj=longlat` when the keys say nothing usable (a plain
  // TIFF, or a user-defined projection without its parameters): reading such a file as degrees on no datum
  // would answer heights from the wrong place. OpenTopoData refuses a file without a CRS too.
  const bareLongLat = /^\+proj=longlat\b/.test(definition) && !/\+(datum|ellps|a)=/.test(definition);
  if (bareLongLat || model === 0 || (model === 1 && result.isGCS)) {
    throw new DatasetConfigError(
      'The GeoTIFF has no usable coordinate reference system (no EPSG code and no complete definition in its GeoKeys); assign one with gdal_edit.py -a_srs EPSG:<code>.',
    );
  }
  // A user-defined datum comes with its shift (from the datum's GeoKey) or is taken as WGS 84's: only GRS80's
  // are close enough for that.
  if (!/\+towgs84=/.test(definition) && !onWgs84Ellipsoid(definition)) {
    throw new DatasetConfigError(
      `The GeoTIFF's coordinate reference system (${definition}) is on a datum with no known shift to WGS 84, so its pixels would be placed up to hundreds of metres off; reproject it with gdalwarp -t_srs EPSG:4326.`,
    );
  }
  return { key: definition, epsg: null, proj4: definition, isGeographic: result.isGCS, isWgs84: false };
}

export function crsFromEpsg(code: number): Crs {
  if (WGS84_CODES.has(code)) return wgs84Crs(code);
  const { proj4, isGeographic } = epsgDefinition(code);
  return { key: `EPSG:${code}`, epsg: code, proj4, isGeographic, isWgs84: false };
}

/**
 * The proj4 definition of an EPSG code (not WGS 84 itself), with its datum shift from `table`, or a
 * DatasetConfigError saying why the code cannot be read. The table is a parameter for its generator.
 *
 * @example
 * ```ts
 * assert.match(epsgDefinition(27700).proj4, /\+towgs84=446\.448,-125\.157,542\.06/);
 * ```
 */
export function epsgDefinition(
  code: number,
  table: DatumTable = DATUM_TABLE,
): { proj4: string; isGeographic: boolean } {
  // geotiff-geokeys-to-proj4 looks projected and geographic codes up in one table: one lookup serves both.
  const asProjected = toProj4({ ProjectedCSTypeGeoKey: code, GTModelTypeGeoKey: 1 } as never);
  if (Object.keys(asProjected.errors ?? {}).length > 0) {
    throw new DatasetConfigError(`Unknown EPSG code ${code}: no projection definition is available for it.`);
  }
  const off = table.mismatched[String(code)];
  if (off !== undefined) {
    throw new DatasetConfigError(
      off < 0
        ? `EPSG:${code} could not be checked against PROJ (its database, which datum-shifts.json was made with, does not know it), so this reader does not trust its definition; reproject the raster (gdalwarp -t_srs EPSG:4326).`
        : `EPSG:${code} is defined here in a way that puts points ${off} m from where PROJ puts them (checked at the centre of its area of use); reproject the raster (gdalwarp -t_srs EPSG:4326).`,
    );
  }
  const override = table.overrides[String(code)];
  if (override !== undefined) return { proj4: override, isGeographic: /^\+proj=longlat\b/.test(override) };
  return {
    proj4: withDatumShift(stripAxis(asProjected.proj4), code, table),
    // A geographic code (ETRS89, EPSG:4258) resolves here too, as longlat: degrees, not metres.
    isGeographic: asProjected.isGCS || /^\+proj=longlat\b/.test(asProjected.proj4),
  };
}

/**
 * Whether a definition's ellipsoid is WGS 84's or GRS80 (which share a; their b differ by 0.1 mm), or it is
 * Pseudo-Mercator's sphere. Such a datum without a shift is taken as WGS 84, as PROJ takes one it has no
 * transformation for (ETRS89, NAD83 and the like are within a metre or two of it); Israel 1993 shows that a
 * GRS80 datum can still be 80 m off, which is why datum-shifts.json is asked first.
 *
 * @example
 * ```ts
 * assert.equal(onWgs84Ellipsoid('+proj=utm +zone=32 +ellps=GRS80 +a=6378137 +b=6356752.314140356'), true);
 * assert.equal(onWgs84Ellipsoid('+proj=tmerc +lon_0=9 +ellps=bessel +a=6377397.155 +b=6356078.962818189'), false);
 * ```
 */
export function onWgs84Ellipsoid(definition: string): boolean {
  if (/\+datum=WGS84\b/.test(definition)) return true;
  const a = Number(/\+a=([\d.]+)/.exec(definition)?.[1]);
  const b = Number(/\+b=([\d.]+)/.exec(definition)?.[1]);
  if (Math.abs(a - 6378137) < 1e-3 && Math.abs(b - 6356752.3142) < 1e-3) return true;
  return /\+proj=merc\b/.test(definition) && a === 6378137 && b === 6378137;
}

/**
 * The definition with the datum shift PROJ uses where no grid applies (layers/elevation/geo/datum-shifts.json,
 * written from PROJ's database by scripts/geo/datum-shifts.ts), in place of any the definition table gave (865
 * codes carry one from MapInfo's list, most of them another than PROJ's: EPSG:2083 16,196,93 where PROJ uses a
 * 7-parameter shift): otherwise proj4 reads DHDN or OSGB36 latitudes as WGS 84's, ~100 m off. A datum off WGS
 * 84's ellipsoid without a shift, or with only a coarse one, is refused.
 */
function withDatumShift(definition: string, code: number, table: DatumTable): string {
  const bare = definition.replace(/\s*\+towgs84=\S+/g, '');
  const shift = table.shifts[String(code)];
  const how = "reproject the raster (gdalwarp -t_srs EPSG:4326, or to its datum's ETRS89 or NAD83 successor)";
  if (!shift) {
    if (onWgs84Ellipsoid(bare)) return bare;
    throw new DatasetConfigError(
      `EPSG:${code} is on a datum this reader cannot shift to WGS 84 (PROJ does it with a grid, or a transformation proj4 has not, or not at all): its pixels would be placed up to hundreds of metres off; ${how}.`,
    );
  }
  if (shift[1] > MAX_DATUM_SHIFT_ERROR_M) {
    throw new DatasetConfigError(
      `EPSG:${code} is on a datum whose best shift to WGS 84 without a grid is accurate to ${shift[1]} m, more than the ${MAX_DATUM_SHIFT_ERROR_M} m this reader accepts; ${how}.`,
    );
  }
  return `${bare} +towgs84=${shift[0]}`;
}

function wgs84Crs(code: number): Crs {
  return {
    key: `EPSG:${code}`,
    epsg: code,
    proj4: '+proj=longlat +datum=WGS84 +no_defs',
    isGeographic: true,
    isWgs84: true,
  };
}

function stripAxis(definition: string): string {
  return definition.replace(/\s*\+axis=\w+/g, '').trim();
}

const converters = new Map<string, Converter>();

/** Cached: building a proj4 converter parses the definition (~0.1 ms); transforming is ~1 µs. */
export function wgs84Converter(crs: Crs): Converter {
  if (crs.isWgs84) return identity;
  let converter = converters.get(crs.key);
  if (!converter) {
    const transform = proj4('WGS84', crs.proj4);
    converter = {
      forward: (lon, lat) => transform.forward([lon, lat]) as [number, number],
      inverse: (x, y) => transform.inverse([x, y]) as [number, number],
    };
    converters.set(crs.key, converter);
  }
  return converter;
}

/** Converter between two CRSs, via WGS84 unless they are the same. */
export function crsToCrs(from: Crs, to: Crs): (x: number, y: number) => [number, number] {
  if (from.key === to.key || (from.isWgs84 && to.isWgs84)) return (x, y) => [x, y];
  const a = wgs84Converter(from);
  const b = wgs84Converter(to);
  return (x, y) => {
    const [lon, lat] = a.inverse(x, y);
    return b.forward(lon, lat);
  };
}
