/**
 * Where a profile's path comes from: `locations` (query, JSON or form body, as on /v1), or an uploaded track
 * file (KML, KMZ, GPX, GeoJSON) as the POST body, whose coordinates in document order are the path.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  type LatLon,
  parseLocations,
  readTrackLocations,
  rejectUnknownProfileParameters,
  tryDetectTrackFormat,
} from '../layers/elevation';
import type { App } from './app';
import { fileBytes } from './file-http';
import { method, requestParams } from './http';

export interface ProfileInput {
  params: Record<string, unknown>;
  path: LatLon[];
  /** 'locations', or the track file's format. */
  source: string;
}

export function profileInput(event: APIGatewayProxyEventV2, app: App): ProfileInput {
  if (method(event) === 'POST' && event.body) {
    const bytes = fileBytes(event, app.settings.maxFileBytes);
    const format = tryDetectTrackFormat(bytes);
    if (format !== null && !(format === 'geojson' && isLocationsObject(bytes))) {
      const track = readTrackLocations(bytes, {
        maxCoordinates: app.settings.maxFileCoordinates,
        maxUnzippedBytes: app.settings.maxKmzUnzippedBytes,
      });
      return {
        params: { ...(event.queryStringParameters ?? {}) },
        path: track.locations,
        source: track.format,
      };
    }
  }
  const params = requestParams(event, app.settings.maxBodyBytes);
  rejectUnknownProfileParameters(params);
  return { params, path: parseLocations(params.locations, app.limits.maxLocations), source: 'locations' };
}

/** A JSON body like /v1's `{"locations": …}` rather than a GeoJSON document. */
function isLocationsObject(bytes: Uint8Array): boolean {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    return typeof parsed === 'object' && parsed !== null && 'locations' in parsed;
  } catch {
    return false;
  }
}
