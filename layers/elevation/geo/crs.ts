/**
 * Coordinate reference systems: definitions derived from GeoTIFF keys or EPSG codes (proj4 has almost none
 * built in), and cached WGS84 <-> CRS converters. Raster x is always easting/longitude: the `+axis` terms that
 * geotiff-geokeys-to-proj4 emits (e.g. `+axis=ne` for EPSG:3035) are dropped so proj4 never swaps axes.
 */
import proj4 from 'proj4';
import { toProj4 } from 'geotiff-geokeys-to-proj4';
import { DatasetConfigError } from '../errors';

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
  const result = toProj4(horizontal as never);
  const unsupported = Object.entries(result.errors ?? {}).filter(([name]) => !HARMLESS_ERRORS.has(name));
  if (unsupported.length > 0) {
    throw new DatasetConfigError(
      `The GeoTIFF's coordinate reference system cannot be read (${unsupported.map(([name, code]) => `${name}: ${String(code)}`).join(', ')}); assign one with gdal_edit.py -a_srs EPSG:<code>.`,
    );
  }
  const definition = stripAxis(result.proj4);
  // geotiff-geokeys-to-proj4 falls back to a bare `+proj=longlat` when the keys say nothing usable (a plain
  // TIFF, or a user-defined projection without its parameters): reading such a file as degrees on no datum
  // would answer heights from the wrong place. OpenTopoData refuses a file without a CRS too.
  const bareLongLat = /^\+proj=longlat\b/.test(definition) && !/\+(datum|ellps|a)=/.test(definition);
  if (bareLongLat || model === 0 || (model === 1 && result.isGCS)) {
    throw new DatasetConfigError(
      'The GeoTIFF has no usable coordinate reference system (no EPSG code and no complete definition in its GeoKeys); assign one with gdal_edit.py -a_srs EPSG:<code>.',
    );
  }
  return { key: definition, epsg: null, proj4: definition, isGeographic: result.isGCS, isWgs84: false };
}

export function crsFromEpsg(code: number): Crs {
  if (WGS84_CODES.has(code)) return wgs84Crs(code);
  // geotiff-geokeys-to-proj4 looks projected and geographic codes up in one table: one lookup serves both.
  const asProjected = toProj4({ ProjectedCSTypeGeoKey: code, GTModelTypeGeoKey: 1 } as never);
  if (Object.keys(asProjected.errors ?? {}).length === 0) {
    return {
      key: `EPSG:${code}`,
      epsg: code,
      proj4: stripAxis(asProjected.proj4),
      // A geographic code (ETRS89, EPSG:4258) resolves here too, as longlat: degrees, not metres.
      isGeographic: asProjected.isGCS || /^\+proj=longlat\b/.test(asProjected.proj4),
      isWgs84: false,
    };
  }
  throw new DatasetConfigError(`Unknown EPSG code ${code}: no projection definition is available for it.`);
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
