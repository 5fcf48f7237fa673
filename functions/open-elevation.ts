/**
 * `GET|POST /api/v1/lookup`: Open-Elevation's API on the default dataset, so its clients (and code written for
 * api.open-elevation.com) work with only the host changed. `GET ?locations=lat,lng|lat,lng` and
 * `POST {"locations":[{"latitude":…,"longitude":…}]}` both answer
 * `{"results":[{"latitude":…,"longitude":…,"elevation":…}]}` in input order. Where the dataset has no data the
 * elevation is `null`: Open-Elevation answers sea level (0 m) there, a height nobody measured.
 */
import { parseInterpolation, parseLocations, roundElevation } from '../layers/elevation';
import { route } from './route';
import { cacheableResponse, requestParams } from './http';

export const handler = route('openelevation', ['GET', 'POST', 'OPTIONS'], async (event, t, app, ctx) => {
  const { locations, interpolation } = await t.phase('parse', async () => {
    const params = await requestParams(event, app.settings.maxBodyBytes);
    return {
      locations: parseLocations(params.locations, app.limits.maxLocations),
      interpolation: parseInterpolation(params.interpolation),
    };
  });
  const dataset = app.registry.get(app.settings.defaultDataset ?? app.registry.names()[0]);
  t.set({ dataset: dataset.name, points: locations.length, interpolation });
  const elevations = await dataset.sample(locations, interpolation, ctx);
  const results = locations.map((location, i) => {
    const elevation = elevations[i];
    return {
      latitude: location.lat,
      longitude: location.lon,
      elevation: elevation === null ? null : roundElevation(elevation),
    };
  });
  return cacheableResponse(event, JSON.stringify({ results }), app.corsOrigin);
});
