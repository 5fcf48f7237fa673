/**
 * The original ASP.NET system's API on the default dataset, so its clients keep working:
 * `GET /api/elevation?coordinates=48.00,9.00;49.1,10.2` and `POST /api/elevation` with
 * `[{"latitude":48,"longitude":9}]`, both answering `[{"latitude":…,"longitude":…,"altitude":…}]`.
 */
import { InvalidRequestError, parseLocations, parseInterpolation } from '../layers/elevation';
import { route } from './route';
import { heightsOnDefaultDataset } from './default-dataset';
import {
  body,
  cacheableResponse,
  formContentType,
  method,
  parseJson,
  rejectRepeatedParameters,
  rejectUnreadHeightOption,
  startsLikeFormFields,
} from './http';

export const handler = route('legacy', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const query = event.queryStringParameters ?? {};
  const locations = await t.phase('parse', () => {
    // `coordinates=48.7&coordinates=9.1` arrives joined as '48.7,9.1': one location neither parameter gave.
    rejectRepeatedParameters(event.rawQueryString, ';');
    rejectUnreadHeightOption(query);
    if (method(event) === 'GET') {
      if (!query.coordinates) throw new InvalidRequestError(noCoordinates(query.locations !== undefined));
      return parseLocations(query.coordinates, app.limits.maxLocations, ';');
    }
    const text = body(event, app.settings.maxBodyBytes) ?? '';
    // A form (multipart, or urlencoded as curl -d sends it) is not this route's body: say so, not "Invalid JSON".
    const form = formContentType(event) !== null || startsLikeFormFields(text);
    const parsed = form ? null : parseJson(text);
    if (!Array.isArray(parsed))
      throw new InvalidRequestError(
        `Body must be a JSON array like [{"latitude":48.74,"longitude":9.10}]${form ? ', not a form' : ''}.`,
      );
    return parseLocations(parsed, app.limits.maxLocations);
  });
  const interpolation = parseInterpolation(query.interpolation);
  const heights = await heightsOnDefaultDataset(app, t, ctx, locations, interpolation);
  const results = locations.map((l, i) => ({ latitude: l.lat, longitude: l.lon, altitude: heights[i] }));
  return cacheableResponse(event, JSON.stringify(results), app.corsOrigin);
});

/** This route reads `coordinates` (pairs joined by ';'), not `/v1`'s `locations`: the message must say so. */
function noCoordinates(sentLocations: boolean): string {
  return (
    "No coordinates given: pass 'coordinates' as 'lat,lon;lat,lon', e.g. /api/elevation?coordinates=48.74,9.10;48.8,9.2" +
    (sentLocations
      ? " ('locations' is the parameter of /v1/{dataset}, which this route does not read)."
      : '.')
  );
}
