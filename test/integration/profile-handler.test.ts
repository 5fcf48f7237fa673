/**
 * `GET|POST /v1/{dataset}/profile` in-process over the bundled Stuttgart sample. The summary is checked
 * against an independent computation: points spaced by GeographicLib directly, their heights from `/v1`,
 * ascent and descent counted here with the documented threshold rule.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { Geodesic } from 'geographiclib-geodesic';
import { SaxesParser } from 'saxes';
import { invoke, type EventOptions } from './support/api-gateway';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** The README's sample path across the Stuttgart sample. */
const README_PATH = [
  { lat: 48.65, lon: 9.05 },
  { lat: 48.85, lon: 9.25 },
];
const SAMPLES = 100;
const THRESHOLD_M = 5;
/** Our summary rounds to centimetres; the independent sums may differ by rounding only. */
const SUM_TOLERANCE_M = 0.02;

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

const profile = (query: Record<string, string>, extra: Partial<EventOptions> = {}) =>
  invoke(handlers.profile, {
    path: '/v1/sample/profile',
    pathParameters: { dataset: 'sample' },
    query,
    ...extra,
  });

interface ProfileBody {
  summary: {
    length: number;
    ascent: number;
    descent: number;
    threshold: number;
    min: { elevation: number; distance: number };
    max: { elevation: number; distance: number };
    maxGrade: number;
    minGrade: number;
    samples: number;
  };
  points: {
    distance: number;
    elevation: number;
    grade: number | null;
    location: { lat: number; lng: number };
  }[];
}

/** The same rule as documented, written again here: count a change once it reaches the threshold. */
function independentAscentDescent(heights: number[], threshold: number) {
  let ascent = 0;
  let descent = 0;
  let reference = heights[0];
  for (const h of heights.slice(1)) {
    if (h - reference >= threshold) {
      ascent += h - reference;
      reference = h;
    } else if (reference - h >= threshold) {
      descent += reference - h;
      reference = h;
    }
  }
  return { ascent, descent };
}

async function v1Heights(points: { lat: number; lon: number }[]): Promise<number[]> {
  const response = await invoke(handlers.elevation, {
    path: '/v1/sample',
    pathParameters: { dataset: 'sample' },
    query: { locations: points.map((p) => `${p.lat},${p.lon}`).join('|') },
  });
  return (response.json as { results: { elevation: number }[] }).results.map((r) => r.elevation);
}

describe('GET /v1/{dataset}/profile', () => {
  it("matches an independent computation for the README's sample path", async () => {
    const response = await profile({
      locations: README_PATH.map((p) => `${p.lat},${p.lon}`).join('|'),
      samples: String(SAMPLES),
    });
    expect(response.status).toBe(200);
    const body = response.json as ProfileBody;
    const line = Geodesic.WGS84.InverseLine(48.65, 9.05, 48.85, 9.25);
    const points = Array.from({ length: SAMPLES }, (_, k) => {
      const p = line.Position((line.s13 * k) / (SAMPLES - 1));
      return { lat: p.lat2 as number, lon: p.lon2 as number };
    });
    const heights = await v1Heights(points);
    const expected = independentAscentDescent(heights, THRESHOLD_M);
    expect(expected.ascent).toBeGreaterThan(50); // real terrain: the check is not vacuous
    expect(body.summary.threshold).toBe(THRESHOLD_M);
    expect(Math.abs(body.summary.ascent - expected.ascent)).toBeLessThan(SUM_TOLERANCE_M);
    expect(Math.abs(body.summary.descent - expected.descent)).toBeLessThan(SUM_TOLERANCE_M);
    expect(Math.abs(body.summary.length - line.s13)).toBeLessThan(0.01);
    expect(body.summary.min.elevation).toBe(Math.min(...heights));
    expect(body.summary.max.elevation).toBe(Math.max(...heights));
    expect(body.points.map((p) => p.elevation)).toEqual(heights);
    expect(body.points[SAMPLES - 1].distance).toBeCloseTo(line.s13, 2);
  });

  it('gives each point its grade over the step before it, and the steepest grades in the summary', async () => {
    const body = (await profile({ locations: '48.65,9.05|48.85,9.25', samples: '50' })).json as ProfileBody;
    expect(body.points[0].grade).toBeNull();
    const [a, b] = [body.points[10], body.points[11]];
    expect(b.grade).toBeCloseTo(((b.elevation - a.elevation) / (b.distance - a.distance)) * 100, 1);
    const grades = body.points.slice(1).map((p) => p.grade as number);
    expect(body.summary.maxGrade).toBe(Math.max(...grades));
    expect(body.summary.minGrade).toBe(Math.min(...grades));
  });

  it('counts every rise and drop with threshold=0', async () => {
    const body = (await profile({ locations: '48.65,9.05|48.85,9.25', samples: '50', threshold: '0' }))
      .json as ProfileBody;
    const heights = body.points.map((p) => p.elevation);
    const rises = heights.slice(1).reduce((sum, h, i) => sum + Math.max(0, h - heights[i]), 0);
    expect(body.summary.ascent).toBeCloseTo(rises, 1);
  });

  it('places a point every distance metres from the start, plus the end', async () => {
    const body = (await profile({ locations: '48.65,9.05|48.85,9.25', distance: '1000' }))
      .json as ProfileBody;
    const length = body.summary.length;
    expect(body.points).toHaveLength(Math.floor(length / 1000) + 2);
    expect(body.points.slice(0, -1).map((p) => p.distance)).toEqual(
      Array.from({ length: body.points.length - 1 }, (_, k) => k * 1000),
    );
    expect(body.points[body.points.length - 1].location).toEqual({ lat: 48.85, lng: 9.25 });
  });

  it('renders format=svg as a well-formed SVG chart with a title, units and the profile line', async () => {
    const response = await profile({ locations: '48.65,9.05|48.85,9.25', samples: '40', format: 'svg' });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('image/svg+xml');
    const texts: string[] = [];
    let polylinePoints = 0;
    const parser = new SaxesParser({ xmlns: true });
    parser.on('text', (t) => texts.push(t));
    parser.on('opentag', (tag) => {
      if (tag.local === 'polyline')
        polylinePoints += String(tag.attributes.points?.value ?? '').split(' ').length;
    });
    parser.write(response.body).close();
    expect(texts).toContain('Distance (km)');
    expect(texts).toContain('Elevation (m)');
    expect(
      texts.some((t) => /^Elevation profile · sample · [\d.]+ km · ascent \d+ m · descent \d+ m$/.test(t)),
    ).toBe(true);
    expect(polylinePoints).toBe(40);
  });

  it('answers format=csv with the same points as JSON, one row each', async () => {
    const query = { locations: '48.65,9.05|48.85,9.25', samples: '5' };
    const [csv, json] = await Promise.all([profile({ ...query, format: 'CSV' }), profile(query)]);
    expect(csv.status).toBe(200);
    expect(csv.headers['content-type']).toBe('text/csv; charset=utf-8; header=present');
    const rows = csv.body.trimEnd().split('\r\n');
    expect(rows[0]).toBe('distance_m,elevation_m,grade_percent,lat,lon');
    const points = (json.json as ProfileBody).points;
    expect(rows.slice(1).map((r) => r.split(',').map((c) => (c === '' ? null : Number(c))))).toEqual(
      points.map((p) => [p.distance, p.elevation, p.grade, p.location.lat, p.location.lng]),
    );
  });
});

describe('caching a profile', () => {
  it.each(['json', 'svg', 'csv'])(
    'answers format=%s with Cache-Control and an ETag, and 304 without a body on If-None-Match',
    async (format) => {
      const query = { locations: '48.65,9.05|48.85,9.25', samples: '5', format };
      const first = await profile(query);
      expect(first.status).toBe(200);
      expect(first.headers['cache-control']).toBe('public, max-age=86400');
      expect(first.headers.etag).toMatch(/^"[\w-]{32}"$/);
      const again = await profile(query, { headers: { 'if-none-match': String(first.headers.etag) } });
      expect(again.status).toBe(304);
      expect(again.body).toBe('');
      // Another profile is another answer: its tag differs.
      const other = await profile({ ...query, samples: '6' });
      expect(other.headers.etag).not.toBe(first.headers.etag);
    },
  );
});

describe('POST /v1/{dataset}/profile', () => {
  it('takes an uploaded GPX track as the path', async () => {
    const gpx = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
    const response = await profile(
      { samples: '10' },
      { method: 'POST', body: gpx.toString('base64'), isBase64Encoded: true },
    );
    expect(response.status).toBe(200);
    const body = response.json as ProfileBody;
    expect(body.points).toHaveLength(10);
    // The track is the path, first point to last; the waypoint (a place, not a vertex) and the route beside the
    // track (another path: joined, the profile would jump) are left out.
    expect(body.points[0].location).toEqual({ lat: 48.742275, lng: 9.101177 });
    expect(body.points[9].location).toEqual({ lat: 48.7, lng: 9.5 });
  });

  it("answers 400 for a track file and 'locations' both (the locations were ignored with 200)", async () => {
    const gpx = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
    const response = await profile(
      { locations: '48.65,9.05|48.85,9.25' },
      { method: 'POST', body: gpx.toString('base64'), isBase64Encoded: true },
    );
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        "Both a track file and 'locations' are given: send one of them (the file's track is the profile's path).",
    });
  });

  it('answers 400 for a query parameter given twice with a file (API Gateway would join the values)', async () => {
    const gpx = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
    const response = await profile(
      { samples: '10,20' },
      {
        method: 'POST',
        body: gpx.toString('base64'),
        isBase64Encoded: true,
        rawQueryString: 'samples=10&samples=20',
      },
    );
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      "Query parameter 'samples' is given more than once; give it once.",
    );
  });

  it('answers 400 for a track file without coordinates (it was a 500)', async () => {
    const response = await profile(
      {},
      {
        method: 'POST',
        body: Buffer.from('<gpx version="1.1"></gpx>').toString('base64'),
        isBase64Encoded: true,
      },
    );
    expect(response.status).toBe(400);
    expect(response.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        'The GPX file has no coordinates: a profile needs at least one point (a track, route, line or place).',
    });
  });

  it('answers a file it does not read as /file does, whatever its content type, never echoing it as a parameter', async () => {
    const notes = 'Packing list\nboots, rain jacket\nmap=optional\n';
    for (const contentType of ['application/x-www-form-urlencoded', 'text/csv', 'text/plain']) {
      const response = await profile(
        {},
        { method: 'POST', headers: { 'content-type': contentType }, body: notes },
      );
      expect(response.status).toBe(400);
      expect((response.json as { error: string }).error).toMatch(/^Unrecognised file: send a KML/);
    }
    // A form whose field name is long is named by its start only.
    const long = await profile(
      {},
      {
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: `${'x'.repeat(500)}=1`,
      },
    );
    expect(long.status).toBe(400);
    expect((long.json as { error: string }).error).toBe(
      `Unknown parameter '${'x'.repeat(60)}…': supported are locations, samples, distance, interpolation, format, threshold, datum.`,
    );
  });

  it.each([
    ['{}', /^No locations provided\./],
    ['{"location": "48.65,9.05|48.7,9.1"}', /^Unknown parameter 'location'/],
  ])('answers a JSON body %s as /v1 would, not as a GeoJSON file', async (body, message) => {
    const response = await profile(
      {},
      { method: 'POST', headers: { 'content-type': 'application/json' }, body },
    );
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(message);
  });

  it('takes a JSON body with locations, as /v1 does', async () => {
    const response = await profile(
      {},
      {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          locations: [
            { lat: 48.65, lng: 9.05 },
            { lat: 48.7, lng: 9.1 },
          ],
          samples: 3,
        }),
      },
    );
    expect(response.status).toBe(200);
    expect((response.json as ProfileBody).points).toHaveLength(3);
  });
});

describe('parameters clients add', () => {
  it("answers the same profile with key and jQuery's _ added", async () => {
    const query = { locations: '48.65,9.05|48.85,9.25', samples: '5' };
    const [plain, added] = await Promise.all([
      profile(query),
      profile({ ...query, key: 'None', _: '1733440000000' }),
    ]);
    expect(added.status).toBe(200);
    expect(added.body).toBe(plain.body);
  });
});

describe('profile errors', () => {
  it.each([
    [
      { locations: '48.65,9.05|48.85,9.25', samples: '10', distance: '100' },
      "either 'samples' or 'distance'",
    ],
    [{ locations: '48.65,9.05|48.85,9.25', distance: '10' }, 'the samples limit is 512'],
    [{ locations: '48.65,9.05|48.85,9.25', samples: '1' }, "Invalid samples '1'"],
    [{ locations: '48.65,9.05|48.85,9.25', threshold: '-1' }, "Invalid threshold '-1'"],
    [{ locations: '48.65,9.05|48.85,9.25', format: 'png' }, "Invalid format 'png'"],
    [{ locations: '48.65,9.05', colour: 'red' }, "Unknown parameter 'colour'"],
    // The Google API's name for a path: named as unknown, not answered as a missing 'locations'.
    [{ path: '48.65,9.05|48.85,9.25', samples: '10' }, "Unknown parameter 'path'"],
    [{}, 'No locations provided'],
  ])('answers 400 for %j', async (query, message) => {
    const response = await profile(query as Record<string, string>);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain(message);
  });
});

describe('profile and Google samples limits', () => {
  it('follow the locations limit when MAX_SAMPLES is unset (over 512 too), as OpenTopoData bounds samples', async () => {
    const wide = await loadTrackHandlers({ MAX_LOCATIONS: '600' });
    const path = '48.65,9.05|48.85,9.25';
    const asked = (samples: string) =>
      invoke(wide.profile, {
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: { locations: path, samples },
      });
    const answer = await asked('600');
    expect(answer.status).toBe(200);
    expect((answer.json as ProfileBody).summary.samples).toBe(600);
    expect(((await asked('601')).json as { error: string }).error).toContain('from 2 to 600');
    const google = await invoke(wide.google, {
      path: '/maps/api/elevation/json',
      query: { path, samples: '600' },
    });
    expect(google.status).toBe(200);
    expect((google.json as { results: unknown[] }).results).toHaveLength(600);
  });
});
