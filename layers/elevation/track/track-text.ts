/**
 * A text track document (KML, GPX, TCX, GeoJSON, CSV) decoded and read: its encoding, the BOM, its text without it,
 * and its slots.
 */
import { InvalidRequestError } from '../errors';
import type { LatLon } from '../types';
import { readCsv } from './csv';
import { readGeoJson } from './geojson';
import { readGpx } from './gpx';
import { readKml } from './kml';
import { isFit, readFitPath } from './fit';
import { gunzipTrackFile, isGzip } from './gzip-file';
import { readKmz } from './kmz';
import { readTcx } from './tcx';
import type { ParsedTrack, TrackReadOptions } from './parsed-track';
import { detectTrackFormat, type FileFormat, type TrackFormat } from './track-format';
import { declaresEightBit, decodeText, type TextEncodingName } from './text-encoding';

export type TextTrackFormat = Exclude<TrackFormat, 'kmz'>;

/** Each format as its own documents write it, for messages ("GEOJSON" read oddly). */
export const FORMAT_NAMES: Record<FileFormat, string> = {
  kml: 'KML',
  kmz: 'KMZ',
  gpx: 'GPX',
  tcx: 'TCX',
  geojson: 'GeoJSON',
  csv: 'CSV',
  fit: 'FIT',
};

const READERS: Record<TextTrackFormat, (text: string, o: TrackReadOptions) => ParsedTrack> = {
  kml: readKml,
  gpx: readGpx,
  tcx: readTcx,
  geojson: readGeoJson,
  csv: readCsv,
};

export interface TrackText {
  /** What the document is written back in: the encoding it came in. */
  encoding: TextEncodingName;
  bom: string;
  text: string;
  track: ParsedTrack;
}

export function readTrackText(
  bytes: Uint8Array,
  format: TextTrackFormat,
  options: TrackReadOptions,
): TrackText {
  // CSV has no way to name its encoding, and Excel writes it in Windows-1252; an XML file names its own; JSON is
  // UTF-8 (RFC 8259).
  const xml = format !== 'csv' && format !== 'geojson';
  const { encoding, bom, text } = decodeText(bytes, `${FORMAT_NAMES[format]} file`, {
    eightBit: format === 'csv' ? 'fallback' : xml && declaresEightBit(bytes) ? 'declared' : undefined,
    advice: xml ? ', or name its encoding in its XML declaration (encoding="ISO-8859-1")' : '',
  });
  return { encoding, bom, text, track: READERS[format](text, options) };
}

/**
 * The path of a track file in one of the five formats (`readTrackPath` also takes FIT and gzip) for a profile: the
 * vertices of its lines (tracks, routes, LineStrings, gx:Tracks) in document order, lines one after another; a GPX
 * file's routes only when it has no track. Places on their own (waypoints, Points, course points, lap ends) and
 * areas' outlines (rings, Polygons) are left out, unless the file has no line: then all its coordinates in
 * document order are the path (a route given as waypoints, a boundary).
 *
 * @example
 * ```ts
 * const gpx = '<gpx version="1.1"><trk><trkseg><trkpt lat="49.9" lon="10.1"/><trkpt lat="49.8" lon="10.2"/></trkseg></trk></gpx>';
 * const { format, locations } = readTrackLocations(new TextEncoder().encode(gpx), { maxCoordinates: 100, maxUnzippedBytes: 1e6 });
 * assert.equal(format, 'gpx');
 * assert.deepEqual(locations, [{ lat: 49.9, lon: 10.1 }, { lat: 49.8, lon: 10.2 }]);
 * ```
 */
export function readTrackLocations(
  bytes: Uint8Array,
  limits: { maxCoordinates: number; maxUnzippedBytes: number },
): { format: TrackFormat; locations: LatLon[] } {
  const format = detectTrackFormat(bytes);
  const options = { maxCoordinates: limits.maxCoordinates, absoluteAltitude: false };
  const text =
    format === 'kmz'
      ? readTrackText(mainDocument(bytes, limits.maxUnzippedBytes), 'kml', options)
      : readTrackText(bytes, format, options);
  const { slots } = text.track;
  if (slots.length === 0) {
    throw new InvalidRequestError(
      `The ${FORMAT_NAMES[format]} file has no coordinates: a profile needs at least one point (a track, route, line or place).`,
    );
  }
  const path = slots.some((s) => s.onPath) ? slots.filter((s) => s.onPath) : slots;
  return { format, locations: path.map((s) => s.location) };
}

/**
 * `readTrackLocations` for every file a profile takes, FIT files too (their records' positions), plain or
 * gzip-compressed.
 *
 * @example
 * ```ts
 * const limits = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
 * const gpx = '<gpx version="1.1"><rte><rtept lat="49.9" lon="10.1"/></rte></gpx>';
 * const { format, locations } = await readTrackPath(new TextEncoder().encode(gpx), limits);
 * assert.equal(format, 'gpx');
 * assert.deepEqual(locations, [{ lat: 49.9, lon: 10.1 }]);
 * // A FIT header and nothing after it: no file CRC to check, so no path.
 * const fit = new Uint8Array([14, 0x20, 0, 0, 0, 0, 0, 0, 0x2e, 0x46, 0x49, 0x54, 0, 0]);
 * await assert.rejects(readTrackPath(fit, limits), /^InvalidRequestError: The FIT file cannot be read \(its header is not a FIT header, or the file is not as long/);
 * ```
 */
export async function readTrackPath(
  bytes: Uint8Array,
  limits: { maxCoordinates: number; maxUnzippedBytes: number },
): Promise<{ format: FileFormat; locations: LatLon[] }> {
  if (isGzip(bytes)) return readTrackPath(gunzipTrackFile(bytes, limits.maxUnzippedBytes), limits);
  if (!isFit(bytes)) return readTrackLocations(bytes, limits);
  const locations = readFitPath(bytes, limits.maxCoordinates);
  if (locations.length === 0) {
    throw new InvalidRequestError(
      'The FIT file has no positions: a profile needs at least one (an indoor activity has none).',
    );
  }
  return { format: 'fit', locations };
}

function mainDocument(bytes: Uint8Array, maxUnzippedBytes: number): Uint8Array {
  const archive = readKmz(bytes, maxUnzippedBytes);
  return archive.entries[archive.mainIndex].data;
}
