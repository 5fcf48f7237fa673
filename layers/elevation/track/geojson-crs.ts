/**
 * The `crs` member of GeoJSON as the 2008 specification had it, which RFC 7946 dropped but GDAL (ogr2ogr to
 * GeoJSON from a projected layer) and older QGIS still write: `{"type": "name", "properties": {"name":
 * "urn:ogc:def:crs:EPSG::25832"}}`. Its positions are then in that system (UTM metres, say), and reading them as
 * degrees is a 400 at best. A named EPSG system is read through the same definitions as a GeoTIFF's CRS and
 * turned into WGS84 longitude/latitude; CRS84 and EPSG:4326 are longitude/latitude as they are (GDAL and QGIS
 * write 4326 in that order too). Anything else is refused, saying how to convert the file.
 */
import { InvalidRequestError, excerpt } from '../errors';
import { crsFromEpsg, wgs84Converter } from '../geo/crs';

/** (x, y) in the file's system to [longitude, latitude] in WGS84. */
export type ToWgs84 = (x: number, y: number) => [number, number];

const CRS84 =
  /^(urn:ogc:def:crs:OGC:[\d.]*:CRS84|OGC:CRS84|CRS:?84|https?:\/\/www\.opengis\.net\/def\/crs\/OGC\/[\d.]+\/CRS84)$/i;
const EPSG =
  /^(?:urn:ogc:def:crs:EPSG:[\d.]*:|EPSG::?|https?:\/\/www\.opengis\.net\/def\/crs\/EPSG\/[\d.]+\/)(\d{4,6})$/i;
const CONVERT = 'convert it with ogr2ogr -t_srs EPSG:4326 -lco RFC7946=YES out.geojson in.geojson';

/**
 * The conversion a `crs` member asks for: null for WGS84 longitude/latitude (nothing to convert).
 *
 * @example
 * ```ts
 * assert.equal(crsConversion({ type: 'name', properties: { name: 'urn:ogc:def:crs:OGC:1.3:CRS84' } }), null);
 * const utm = crsConversion({ type: 'name', properties: { name: 'urn:ogc:def:crs:EPSG::25832' } });
 * const [lon, lat] = utm!(507438.4476, 5398811.2967);
 * assert.ok(Math.abs(lon - 9.101177) < 1e-7 && Math.abs(lat - 48.742275) < 1e-7);
 * ```
 */
export function crsConversion(crs: unknown): ToWgs84 | null {
  const name = crsName(crs);
  if (CRS84.test(name)) return null;
  const code = EPSG.exec(name)?.[1];
  if (code === undefined) {
    throw new InvalidRequestError(
      `The GeoJSON file's crs '${excerpt(name)}' is not a system this API reads (a named EPSG code or CRS84): ${CONVERT}.`,
    );
  }
  let definition;
  try {
    definition = crsFromEpsg(Number(code));
  } catch (error) {
    throw new InvalidRequestError(
      /^Unknown EPSG code/.test((error as Error).message)
        ? `The GeoJSON file's crs '${excerpt(name)}' is an EPSG code this API does not know: ${CONVERT}.`
        : `The GeoJSON file's crs '${excerpt(name)}' is one this API cannot place points in within metres of where PROJ places them (its datum has no shift proj4 can apply, or its definition is not PROJ's): ${CONVERT}.`,
    );
  }
  if (definition.isWgs84) return null;
  // The heights written into the file are metres; in a system measured in feet its z would be read as feet.
  if (/\+(units=(?!m\b)\S+|to_meter=)/.test(definition.proj4)) {
    throw new InvalidRequestError(
      `The GeoJSON file's crs '${excerpt(name)}' is not measured in metres or degrees, so metre heights would not fit it: ${CONVERT}.`,
    );
  }
  const { inverse } = wgs84Converter(definition);
  return inverse;
}

function crsName(crs: unknown): string {
  const { type, properties } = (crs ?? {}) as { type?: unknown; properties?: Record<string, unknown> };
  if (crs === null) {
    throw new InvalidRequestError(
      `The GeoJSON file's crs is null, which says its coordinates are in no known system: ${CONVERT}.`,
    );
  }
  if (type === 'name' && typeof properties?.name === 'string') return properties.name.trim();
  // The form before the 2008 specification: {"type": "EPSG", "properties": {"code": 4326}}.
  if (type === 'EPSG' && Number.isInteger(properties?.code)) return `EPSG:${String(properties?.code)}`;
  throw new InvalidRequestError(
    `The GeoJSON file's crs ${JSON.stringify(crs).slice(0, 200)} is not a named system (a link, or no name): ${CONVERT}.`,
  );
}
