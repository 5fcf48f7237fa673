/** Which kind of track file a request carries, told from its first bytes (content types are often wrong). */
import { InvalidRequestError } from '../errors';
import { looksLikeCsv } from './csv';
import { textHead } from './text-encoding';

export type TrackFormat = 'kml' | 'kmz' | 'gpx' | 'tcx' | 'geojson' | 'csv';
/** Every file /file and /profile take: the formats told from their text or zip bytes, and FIT (binary). */
export type FileFormat = TrackFormat | 'fit';

/**
 * @example
 * ```ts
 * assert.equal(CONTENT_TYPES.gpx, 'application/gpx+xml');
 * ```
 */
export const CONTENT_TYPES: Readonly<Record<FileFormat, string>> = {
  kml: 'application/vnd.google-earth.kml+xml',
  kmz: 'application/vnd.google-earth.kmz',
  gpx: 'application/gpx+xml',
  tcx: 'application/vnd.garmin.tcx+xml',
  geojson: 'application/geo+json',
  csv: 'text/csv',
  fit: 'application/vnd.ant.fit',
};

const ZIP_MAGIC = [0x50, 0x4b, 0x03, 0x04];
const RECORD_SEPARATOR = '\u001e';
/** Enough to get past an XML declaration, comments and a long namespace list to the root element's name (even: UTF-16). */
const SNIFF_BYTES = 4096;

/**
 * @example
 * ```ts
 * assert.equal(tryDetectTrackFormat(new TextEncoder().encode('<gpx version="1.1"></gpx>')), 'gpx');
 * assert.equal(tryDetectTrackFormat(new TextEncoder().encode('hello')), null);
 * ```
 */
export function tryDetectTrackFormat(bytes: Uint8Array): TrackFormat | null {
  if (ZIP_MAGIC.every((b, i) => bytes[i] === b)) return 'kmz';
  const head = textHead(bytes, SNIFF_BYTES).trimStart();
  // A record separator first: GeoJSON Text Sequences (RFC 8142), which readGeoJson refuses saying so.
  if (
    head.startsWith('{') ||
    (head.startsWith(RECORD_SEPARATOR) && head.slice(1).trimStart().startsWith('{'))
  )
    return 'geojson';
  if (!head.startsWith('<')) return looksLikeCsv(head) ? 'csv' : null;
  const root = /<([A-Za-z_][\w.-]*:)?([A-Za-z_][\w.-]*)[\s/>]/.exec(head.replace(/<[?!][^>]*>/g, ''));
  if (root?.[2] === 'kml') return 'kml';
  if (root?.[2] === 'gpx') return 'gpx';
  if (root?.[2] === 'TrainingCenterDatabase') return 'tcx';
  return null;
}

/**
 * tryDetectTrackFormat, or a 400 listing what a track file may be.
 *
 * @example
 * ```ts
 * assert.equal(detectTrackFormat(new TextEncoder().encode('lat,lon\n48.7,9.1\n')), 'csv');
 * assert.throws(() => detectTrackFormat(new TextEncoder().encode('hello\nworld')), /Unrecognised file/);
 * ```
 */
export function detectTrackFormat(bytes: Uint8Array): TrackFormat {
  const format = tryDetectTrackFormat(bytes);
  if (format) return format;
  throw new InvalidRequestError(
    'Unrecognised file: send a KML (<kml> root), KMZ (zip holding a .kml), GPX (<gpx> root), TCX (<TrainingCenterDatabase> root) or GeoJSON (JSON object) document, a CSV with a header row naming its lat and lon columns, or a FIT file, as the request body, plain or gzip-compressed (.gpx.gz).',
  );
}
