/**
 * Where a profile's path comes from: `locations` (query, JSON or form body, as on /v1), or an uploaded track
 * file (KML, KMZ, GPX, TCX, GeoJSON, CSV, FIT, plain or gzip-compressed) as the POST body or a form's file, whose
 * coordinates in document order are the path.
 */
import type { APIGatewayProxyEventV2 } from 'aws-lambda';
import {
  detectTrackFormat,
  InvalidRequestError,
  isFit,
  isGzip,
  type LatLon,
  parseLocations,
  readTrackPath,
  rejectUnknownProfileParameters,
  tryDetectTrackFormat,
} from '../layers/elevation';
import type { App } from './app';
import { fileBytes } from './file-http';
import {
  formContentType,
  method,
  rejectRepeatedParameters,
  requestParams,
  startsLikeFormFields,
} from './http';
import { formOptions, readForm } from './form';

export interface ProfileInput {
  params: Record<string, unknown>;
  path: LatLon[];
  /** 'locations', or the track file's format. */
  source: string;
}

export async function profileInput(event: APIGatewayProxyEventV2, app: App): Promise<ProfileInput> {
  rejectRepeatedParameters(event.rawQueryString);
  const formType = method(event) === 'POST' ? formContentType(event) : null;
  if (formType !== null) return formInput(event, formType, app);
  if (method(event) === 'POST' && event.body) {
    const bytes = fileBytes(event, app.settings.maxFileBytes);
    const format = tryDetectTrackFormat(bytes);
    const binaryTrack = isGzip(bytes) || isFit(bytes);
    if (binaryTrack || (format !== null && !(format === 'geojson' && isLocationsObject(bytes)))) {
      return await trackInput(bytes, { ...(event.queryStringParameters ?? {}) }, app);
    }
    // A file this route does not read (lines, no "name=" before the first line break) is not form parameters or
    // JSON: answer what /file answers (what a track file may be), not "unknown parameter '<the file>'".
    if (format === null && looksLikeFile(bytes)) detectTrackFormat(bytes);
  }
  const params = await requestParams(event, app.settings.maxBodyBytes);
  return locationsInput(params, app);
}

/** A form: its file is the path (options in the query or fields), or without one its fields are the request. */
async function formInput(
  event: APIGatewayProxyEventV2,
  contentType: string,
  app: App,
): Promise<ProfileInput> {
  const form = await readForm(event, contentType, {
    maxFileBytes: app.settings.maxFileBytes,
    maxFieldBytes: app.settings.maxBodyBytes,
  });
  const query = event.queryStringParameters ?? {};
  if (form.file) return await trackInput(form.file.bytes, formOptions(query, form.fields), app);
  return locationsInput({ ...query, ...form.fields }, app); // as from a urlencoded form: the body wins
}

async function trackInput(
  bytes: Uint8Array,
  params: Record<string, unknown>,
  app: App,
): Promise<ProfileInput> {
  if (params.locations !== undefined) {
    throw new InvalidRequestError(
      "Both a track file and 'locations' are given: send one of them (the file's track is the profile's path).",
    );
  }
  const track = await readTrackPath(bytes, {
    maxCoordinates: app.settings.maxFileCoordinates,
    maxUnzippedBytes: app.settings.maxKmzUnzippedBytes,
  });
  return { params, path: track.locations, source: track.format };
}

function locationsInput(params: Record<string, unknown>, app: App): ProfileInput {
  rejectUnknownProfileParameters(params);
  return { params, path: parseLocations(params.locations, app.limits.maxLocations), source: 'locations' };
}

/** A body of several lines that is neither JSON nor form fields (`name=value`). */
function looksLikeFile(bytes: Uint8Array): boolean {
  const head = Buffer.from(bytes.subarray(0, 4096)).toString('utf8').trimStart();
  if (head.startsWith('{') || head.startsWith('[')) return false;
  return /[\r\n]/.test(head) && !startsLikeFormFields(head);
}

/**
 * A JSON body like /v1's `{"locations": …}` rather than a GeoJSON document: one with `locations`, or without the
 * `type` every GeoJSON object has (`{}` is answered "No locations provided", not "not GeoJSON").
 */
function isLocationsObject(bytes: Uint8Array): boolean {
  try {
    const parsed: unknown = JSON.parse(Buffer.from(bytes).toString('utf8'));
    if (typeof parsed !== 'object' || parsed === null || Array.isArray(parsed)) return false;
    return 'locations' in parsed || !('type' in parsed);
  } catch {
    return false;
  }
}
