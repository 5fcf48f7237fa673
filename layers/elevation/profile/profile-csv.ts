/**
 * A profile as CSV (RFC 4180: a header row, CRLF line ends), one row a point: distance from the start in metres,
 * height in metres, grade in percent and the point's latitude and longitude. A point without data has an empty
 * height and grade, as a spreadsheet reads "no value". The summary is JSON's and the SVG's title's; a CSV of
 * points has no place for it.
 */
import type { Profile } from './profile';

const HEADER = 'distance_m,elevation_m,grade_percent,lat,lon';

/**
 * @example
 * ```ts
 * const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
 * const path = [{ lat: 49.9, lon: 10.1 }, { lat: 49.9, lon: 10.1001 }];
 * const profile = await answerProfile(registry.get('plane-point'), path, parseProfileOptions({ samples: '2', interpolation: 'nearest' }, 512), 512);
 * assert.equal(renderProfileCsv(profile), 'distance_m,elevation_m,grade_percent,lat,lon\r\n0,1036,,49.9,10.1\r\n7.18,1036,0,49.9,10.1001\r\n');
 * ```
 */
export function renderProfileCsv(profile: Profile): string {
  const rows = profile.points.map((p) =>
    [p.distance, p.elevation ?? '', p.grade ?? '', p.location.lat, p.location.lng].join(','),
  );
  return [HEADER, ...rows].map((row) => `${row}\r\n`).join('');
}
