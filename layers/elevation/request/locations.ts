/**
 * Locations in every shape clients send: "lat,lon|lat,lon" (OpenTopoData/Google), an encoded polyline with or
 * without "enc:", `[{lat, lng}]`, `[{latitude, longitude}]` (the original system) and "lat,lon;lat,lon" (its GET).
 * `tryParse*` returns null; `parse*` throws an InvalidLocationError that names the location and its position.
 */
import { InvalidLocationError, InvalidRequestError, TooManyLocationsError } from '../errors';
import type { LatLon } from '../types';
import { tryDecodePolyline } from './polyline';
import { decimalNumber } from './decimal';

/**
 * @example
 * ```ts
 * assert.deepEqual(parseLocations('49.9,10.1|48.7,9.1', 100), [{ lat: 49.9, lon: 10.1 }, { lat: 48.7, lon: 9.1 }]);
 * assert.deepEqual(parseLocations('_p~iF~ps|U', 100), [{ lat: 38.5, lon: -120.2 }]); // a Google polyline
 * assert.throws(() => parseLocations('1,1|2,2', 1), TooManyLocationsError);
 * ```
 */
export function parseLocations(input: unknown, maxLocations: number, separator: '|' | ';' = '|'): LatLon[] {
  if (input === undefined || input === null || input === '') {
    // OpenTopoData's messages word for word, where the case is the same; ours follow them where they say more.
    throw new InvalidRequestError(
      `No locations provided. Add locations in a query string: ?locations=lat1,lon1${separator}lat2,lon2.`,
    );
  }
  const locations =
    typeof input === 'string'
      ? parseLocationText(input, maxLocations, separator)
      : Array.isArray(input)
        ? parseLocationList(input, maxLocations)
        : null;
  if (!locations) {
    throw new InvalidRequestError(
      "'locations' must be a string ('lat,lon|lat,lon' or an encoded polyline) or a list of {lat, lng} objects.",
    );
  }
  if (locations.length === 0)
    throw new InvalidRequestError('No locations provided. The locations list is empty.');
  return locations;
}

function parseLocationText(text: string, maxLocations: number, separator: '|' | ';'): LatLon[] {
  const trimmed = text.trim();
  // As OpenTopoData decides: a comma is not a polyline character, so text with one is lat,lon pairs.
  if (trimmed.startsWith('enc:') || !trimmed.includes(',')) {
    const decoded = tryDecodePolyline(trimmed.replace(/^enc:/, ''));
    if (!decoded)
      throw new InvalidRequestError(
        separator === '|'
          ? 'Unable to parse locations as polyline. Add locations like lat1,lon1|lat2,lon2, or a Google encoded polyline.'
          : // The original system's route (its own messages: OpenTopoData has no such route).
            `Unable to parse coordinates '${truncate(trimmed)}': neither 'lat,lon;lat,lon' pairs nor a valid encoded polyline.`,
      );
    checkCount(decoded.length, maxLocations);
    return decoded.map(([lat, lon], i) => checkedLocation(lat, lon, i + 1, `${lat},${lon}`));
  }
  // As OpenTopoData: a leading or trailing separator ("|48.7,9.1|") is ignored, not an empty location.
  const parts = trimSeparators(trimmed, separator).split(separator);
  checkCount(parts.length, maxLocations);
  return parts.map((part, i) => {
    const unparsed = `Unable to parse location '${truncate(part)}' in position ${i + 1}.`;
    if (!part.includes(','))
      throw new InvalidLocationError(`${unparsed} Add locations like lat1,lon1${separator}lat2,lon2.`);
    const other = separator === '|' ? ';' : '|';
    if (part.includes(other))
      throw new InvalidLocationError(`${unparsed} Separate locations with '${separator}', not '${other}'.`);
    const location = tryParseLatLon(part);
    if (!location) throw new InvalidLocationError(`${unparsed} Use decimal degrees, e.g. '48.74,9.10'.`);
    return checkedLocation(location.lat, location.lon, i + 1, part);
  });
}

function parseLocationList(items: unknown[], maxLocations: number): LatLon[] {
  checkCount(items.length, maxLocations);
  return items.map((item, i) => {
    const record = typeof item === 'object' && item !== null ? (item as Record<string, unknown>) : {};
    const lats = [record.lat, record.latitude].filter((v) => v != null);
    const lons = [record.lng, record.lon, record.longitude].filter((v) => v != null);
    const [lat, lon] = [lats[0], lons[0]];
    // JSON.parse reads 1e400 as Infinity, which JSON.stringify would show as null: show what was sent.
    const shown = JSON.stringify(item, (_, v: unknown) =>
      typeof v === 'number' && !Number.isFinite(v) ? String(v) : v,
    );
    if (typeof lat !== 'number' || typeof lon !== 'number') {
      throw new InvalidLocationError(
        `Unable to parse location ${truncate(shown ?? String(item))} in position ${i + 1}. Expected {"lat": <number>, "lng": <number>} or {"latitude": <number>, "longitude": <number>}.`,
      );
    }
    if (new Set(lats).size > 1 || new Set(lons).size > 1) {
      throw new InvalidLocationError(
        `Unable to parse location ${truncate(shown)} in position ${i + 1}. It gives the ${new Set(lats).size > 1 ? 'latitude' : 'longitude'} twice, with different values: give it once.`,
      );
    }
    return checkedLocation(lat, lon, i + 1, shown);
  });
}

function trimSeparators(text: string, separator: string): string {
  let start = 0;
  let end = text.length;
  while (start < end && text[start] === separator) start++;
  while (end > start && text[end - 1] === separator) end--;
  return text.slice(start, end);
}

/** "48.7,9.1" -> {lat: 48.7, lon: 9.1}; null when not exactly two finite numbers. */
export function tryParseLatLon(text: string): LatLon | null {
  const pieces = text.split(',');
  if (pieces.length !== 2 || pieces.some((p) => p.trim() === '')) return null;
  const lat = decimalNumber(pieces[0]);
  const lon = decimalNumber(pieces[1]);
  return Number.isFinite(lat) && Number.isFinite(lon) ? { lat, lon } : null;
}

/** `position` counts from 1, as OpenTopoData's messages do ("in position 1" is the first location). */
function checkedLocation(lat: number, lon: number, position: number, original: string): LatLon {
  const unparsed = `Unable to parse location '${truncate(original)}' in position ${position}.`;
  if (!Number.isFinite(lat) || lat < -90 || lat > 90) {
    throw new InvalidLocationError(
      `${unparsed} Latitude must be between -90 and 90. Provide locations in lat,lon order.`,
    );
  }
  if (!Number.isFinite(lon) || lon < -180 || lon > 180) {
    throw new InvalidLocationError(`${unparsed} Longitude must be between -180 and 180.`);
  }
  return { lat, lon };
}

function checkCount(count: number, maxLocations: number): void {
  if (count > maxLocations) {
    throw new TooManyLocationsError(
      `Too many locations provided (${count}), the limit is ${maxLocations}. Split the request.`,
    );
  }
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
