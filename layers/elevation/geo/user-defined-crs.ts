/**
 * A GeoTIFF's user-defined projection (a PROJ string or WKT without an EPSG code, written by GDAL as
 * ProjCoordTransGeoKey and its parameters), read as GDAL reads it. geotiff-geokeys-to-proj4 turns the keys into a
 * proj4 definition but places several kinds elsewhere than GDAL (checked against GDAL in
 * test/realdata/user-defined-crs-matches-gdal.test.ts): a polar stereographic's standard parallel taken as its
 * origin and its meridian dropped, a Mercator's or an equirectangular's standard parallel dropped, a unit other
 * than the metre ignored. Those are set here from the keys as GDAL sets them; projections it places elsewhere
 * still, or that proj4 computes otherwise than PROJ, are refused, never read in the wrong place.
 */
import { DatasetConfigError } from '../errors';

/**
 * The coordinate transformations (GeoTIFF's CT codes) read here: each placed where GDAL places it. Not read:
 * oblique Mercator (3-6), south-oriented transverse Mercator (27, its axes point west and south), Miller (20) and
 * Van der Grinten (25) on an ellipsoid (PROJ uses the authalic sphere, 6.6 km apart), orthographic (21, proj4's
 * is spherical, 84 m apart), and any code the table does not name.
 */
const READ_TRANSFORMS = new Map<number, string>([
  [1, 'transverse Mercator'],
  [7, 'Mercator'],
  [8, 'Lambert conformal conic (2SP)'],
  [9, 'Lambert conformal conic (1SP)'],
  [10, 'Lambert azimuthal equal-area'],
  [11, 'Albers equal-area'],
  [12, 'azimuthal equidistant'],
  [13, 'equidistant conic'],
  [14, 'stereographic'],
  [15, 'polar stereographic'],
  [16, 'oblique stereographic'],
  [17, 'equirectangular'],
  [18, 'Cassini-Soldner'],
  [19, 'gnomonic'],
  [22, 'polyconic'],
  [23, 'Robinson'],
  [24, 'sinusoidal'],
  [26, 'New Zealand Map Grid'],
  [28, 'cylindrical equal-area'],
]);

const USER_DEFINED = 32767;
const DEGREE = 9102;
const HOW =
  'assign an EPSG code with gdal_edit.py -a_srs EPSG:<code>, or reproject it (gdalwarp -t_srs EPSG:4326)';

/**
 * Refuses keys GDAL reads in a way this reader does not: a user-defined model type (GDAL then reads the
 * projection from an ESRI PE string in the citation: geostationary, Mollweide, Krovak…) and a projection not in
 * READ_TRANSFORMS.
 */
export function refuseUnreadProjection(geoKeys: Record<string, unknown>): void {
  if (Number(geoKeys.GTModelTypeGeoKey) === USER_DEFINED) {
    throw new DatasetConfigError(
      `The GeoTIFF's coordinate reference system is user-defined beyond what its GeoKeys can say (a projection named only in its citation: ${citation(geoKeys)}); ${HOW}.`,
    );
  }
  const transform = transformOf(geoKeys);
  if (transform !== 0 && transform !== USER_DEFINED && !READ_TRANSFORMS.has(transform)) {
    throw new DatasetConfigError(
      `The GeoTIFF's projection (GeoTIFF coordinate transformation ${transform}) is not one this reader places where GDAL does; ${HOW}.`,
    );
  }
}

/**
 * The definition geotiff-geokeys-to-proj4 gave, with what it gets wrong set from the keys as GDAL sets it, and
 * `+to_meter` when the coordinates are in another linear unit than the metre (the library leaves that to its
 * caller, as a factor).
 */
export function asGdalReadsIt(definition: string, geoKeys: Record<string, unknown>, toMetre: number): string {
  const transform = transformOf(geoKeys);
  let fixed = definition;
  if (transform === 15 || transform === 7 || transform === 17) {
    const angular = Number(geoKeys.GeogAngularUnitsGeoKey ?? DEGREE);
    if (angular !== DEGREE) {
      throw new DatasetConfigError(
        `The GeoTIFF's projection gives its angles in unit ${angular}, not degrees, which this reader does not convert; ${HOW}.`,
      );
    }
    fixed = withParameters(fixed, parametersOf(transform, geoKeys));
  }
  if (toMetre !== 1) fixed = withParameters(fixed, { to_meter: toMetre });
  return fixed;
}

type Parameters = Record<string, number | null>;

/** The parameters GDAL (libgeotiff's GTIFFetchProjParms, then OGRSpatialReference) sets for these projections. */
function parametersOf(transform: number, keys: Record<string, unknown>): Parameters {
  const value = (...names: string[]): number | undefined => {
    for (const name of names) if (keys[name] !== undefined) return Number(keys[name]);
    return undefined;
  };
  if (transform === 15) {
    // Polar stereographic: GDAL's SetPS takes variant B (a standard parallel) when the scale is 1 and the
    // latitude is not a pole, else variant A (a scale at the pole).
    const lat = value('ProjNatOriginLatGeoKey', 'ProjCenterLatGeoKey', 'ProjFalseOriginLatGeoKey') ?? 90;
    const lon =
      value('ProjStraightVertPoleLongGeoKey', 'ProjNatOriginLongGeoKey', 'ProjCenterLongGeoKey') ?? 0;
    const scale = value('ProjScaleAtNatOriginGeoKey', 'ProjScaleAtCenterGeoKey') ?? 1;
    if (scale === 1 && Math.abs(lat) !== 90) {
      return { lat_0: lat > 0 ? 90 : -90, lat_ts: lat, lon_0: lon, k_0: null, k: null };
    }
    if (Math.abs(lat) !== 90) {
      throw new DatasetConfigError(
        `The GeoTIFF's polar stereographic projection has a scale of ${scale} at latitude ${lat}, which is no pole; ${HOW}.`,
      );
    }
    return { lat_0: lat, lat_ts: null, lon_0: lon, k_0: scale, k: null };
  }
  const parallel = value('ProjStdParallel1GeoKey', 'ProjStdParallelGeoKey');
  // Mercator with a standard parallel is variant B (GDAL's Mercator_2SP); equirectangular's is its lat_ts. The
  // library writes it as lat_1, which proj4 reads for neither.
  if (transform === 7)
    return parallel === undefined ? {} : { lat_ts: parallel, lat_1: null, k_0: null, k: null };
  return { lat_ts: parallel ?? 0, lat_1: null };
}

/** The definition with `parameters` set (null: removed), in place of any it had. */
function withParameters(definition: string, parameters: Parameters): string {
  const names = new Set(Object.keys(parameters));
  const kept = definition
    .split(/\s+/)
    .filter((token) => token !== '' && !names.has(/^\+([^=]+)/.exec(token)?.[1] ?? ''));
  const set = Object.entries(parameters)
    .filter((entry): entry is [string, number] => entry[1] !== null)
    .map(([name, value]) => `+${name}=${value}`);
  const noDefs = kept.indexOf('+no_defs');
  if (noDefs < 0) return [...kept, ...set].join(' ');
  return [...kept.slice(0, noDefs), ...set, ...kept.slice(noDefs)].join(' ');
}

/** The GeoTIFF coordinate transformation code (GeoTIFF 1.0's or 1.1's key name); 0 where none is given. */
function transformOf(geoKeys: Record<string, unknown>): number {
  return Number(geoKeys.ProjCoordTransGeoKey ?? geoKeys.ProjMethodGeoKey ?? 0);
}

function citation(geoKeys: Record<string, unknown>): string {
  const text = String(geoKeys.PCSCitationGeoKey ?? geoKeys.GTCitationGeoKey ?? 'none');
  const projection = /PROJECTION\["([^"]{1,80})"\]/.exec(text)?.[1];
  return projection ?? (text.length > 80 ? `${text.slice(0, 80)}…` : text);
}
