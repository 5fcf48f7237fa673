/**
 * `GET|POST /api/v1/lookup`: Open-Elevation's API on the default dataset, so its clients (and code written for
 * api.open-elevation.com) work with only the host changed. `GET ?locations=lat,lng|lat,lng` and
 * `POST {"locations":[{"latitude":…,"longitude":…}]}` both answer
 * `{"results":[{"latitude":…,"longitude":…,"elevation":…}]}` in input order. Where the dataset has no data the
 * elevation is `null`: Open-Elevation answers sea level (0 m) there, a height nobody measured.
 */
import { parseInterpolation, parseLocations } from '../layers/elevation';
import { route } from './route';
import { heightsOnDefaultDataset } from './default-dataset';
import { cacheableResponse, requestParams } from './http';

export const handler = route('openelevation', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const { locations, interpolation } = await t.phase('parse', async () => {
    const params = await requestParams(event, app.settings.maxBodyBytes);
    return {
      locations: parseLocations(params.locations, app.limits.maxLocations),
      interpolation: parseInterpolation(params.interpolation),
    };
  });
  const heights = await heightsOnDefaultDataset(app, t, ctx, locations, interpolation);
  const results = locations.map((l, i) => ({ latitude: l.lat, longitude: l.lon, elevation: heights[i] }));
  return cacheableResponse(event, JSON.stringify({ results }), app.corsOrigin);
});
