/**
 * Request builders for both API formats. Each request carries a grouped `name` tag (never the random
 * coordinates), so metrics have one series per request kind.
 */
import http from 'k6/http';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { BASE_URL } from './settings.ts';
import type { Location } from './points.ts';

export type ApiFormat = 'opentopo' | 'legacy';
export type Method = 'GET' | 'POST';

export interface ElevationRequest {
  format: ApiFormat;
  method: Method;
  locations: Location[];
  /** Grouped URL tag, e.g. `opentopo-get-5`. */
  name: string;
}

const JSON_HEADERS = { 'Content-Type': 'application/json' };

/** Sends the request the way a client of that format would. */
export function send(
  req: ElevationRequest,
  dataset: string,
  extraTags: Record<string, string> = {},
): Promise<RefinedResponse<ResponseType>> {
  const params = {
    tags: { ...extraTags, name: req.name },
    headers: req.method === 'POST' ? JSON_HEADERS : undefined,
  };
  if (req.format === 'opentopo') {
    const url = `${BASE_URL}/v1/${dataset}`;
    const pipe = req.locations.map((l) => `${l.lat},${l.lon}`).join('|');
    if (req.method === 'GET') return http.asyncRequest('GET', `${url}?locations=${pipe}`, null, params);
    const body = { locations: req.locations.map((l) => ({ lat: l.lat, lng: l.lon })) };
    return http.asyncRequest('POST', url, JSON.stringify(body), params);
  }
  const url = `${BASE_URL}/api/elevation`;
  if (req.method === 'GET') {
    const coordinates = req.locations.map((l) => `${l.lat},${l.lon}`).join(';');
    return http.asyncRequest('GET', `${url}?coordinates=${coordinates}`, null, params);
  }
  const body = req.locations.map((l) => ({ latitude: l.lat, longitude: l.lon }));
  return http.asyncRequest('POST', url, JSON.stringify(body), params);
}

export function elevationRequest(
  format: ApiFormat,
  method: Method,
  locations: Location[],
  label?: string,
): ElevationRequest {
  return {
    format,
    method,
    locations,
    name: `${format}-${method.toLowerCase()}-${label ?? locations.length}`,
  };
}
