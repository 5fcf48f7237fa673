/**
 * `GET|POST /api/v1/lookup`: Open-Elevation's API on the default dataset, so its clients (and code written for
 * api.open-elevation.com) work with only the host changed. `GET ?locations=lat,lng|lat,lng` and
 * `POST {"locations":[{"latitude":…,"longitude":…}]}` both answer
 * `{"results":[{"latitude":…,"longitude":…,"elevation":…}]}` in input order. Where the dataset has no data the
 * elevation is `null`: Open-Elevation answers sea level (0 m) there, a height nobody measured.
 */
import { InvalidRequestError, parseInterpolation, parseLocations } from '../layers/elevation';
import { route } from './route';
import { heightsOnDefaultDataset } from './default-dataset';
import { cacheableResponse, rejectUnreadHeightOption, requestParams } from './http';

export const handler = route('openelevation', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const { locations, interpolation } = await t.phase('parse', async () => {
    const params = await requestParams(event, app.settings.maxBodyBytes, OPEN_ELEVATION_BODY);
    rejectUnreadHeightOption(params);
    checkLocationsGiven(params);
    return {
      locations: parseLocations(params.locations, app.limits.maxLocations),
      interpolation: parseInterpolation(params.interpolation),
    };
  });
  const heights = await heightsOnDefaultDataset(app, t, ctx, locations, interpolation);
  const results = locations.map((l, i) => ({ latitude: l.lat, longitude: l.lon, elevation: heights[i] }));
  return cacheableResponse(event, JSON.stringify({ results }), app.corsOrigin);
});

/** Open-Elevation's POST body, as its messages name it (the shared parser words /v1's). */
const OPEN_ELEVATION_BODY = '{"locations":[{"latitude":48.74,"longitude":9.10}]}';

/**
 * Open-Elevation's request shapes in the message (the shared parser words /v1's): no `locations`, or one that is
 * neither its text nor a list, is answered with what this route reads, naming the keys the request had instead.
 */
function checkLocationsGiven(params: Record<string, unknown>): void {
  const raw = params.locations;
  const missing = raw === undefined || raw === null || raw === '' || (Array.isArray(raw) && raw.length === 0);
  if (!missing && (typeof raw === 'string' || Array.isArray(raw))) return;
  const others = Object.keys(params)
    .filter((key) => key !== 'locations' && key !== 'interpolation')
    .slice(0, 3);
  throw new InvalidRequestError(
    `${missing ? 'No locations given' : "'locations' is neither text nor a list"}: send GET ?locations=lat,lng|lat,lng ` +
      `or POST ${OPEN_ELEVATION_BODY}` +
      (others.length > 0
        ? ` (the request had ${others.map((k) => `'${k.slice(0, 64)}'`).join(', ')}).`
        : '.'),
  );
}
