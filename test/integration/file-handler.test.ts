/**
 * `POST /v1/{dataset}/file` in-process with API Gateway v2 events over the bundled Stuttgart sample: each
 * fixture comes back byte for byte as its `.expected` twin, whose `{{lat,lon}}` placeholders are filled with
 * what `/v1` answers for those points, so "identical except heights" and "heights equal /v1" are one check.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { gunzipSync, gzipSync } from 'node:zlib';
import { unzipSync, zipSync } from 'fflate';
import { readFitMessages } from 'fit-file-parser';
import { readTrackPath } from '../../layers/elevation';
import { fitFile } from '../support/fit-files';

const LIMITS = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
import { invoke } from './support/api-gateway';
import { loadTrackHandlers, postFile, postProfile, type TrackHandlers } from './support/track-handlers';

const FIXTURES = path.resolve('test/fixtures/tracks');
const fixture = (name: string) => readFileSync(path.join(FIXTURES, name));

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

/**
 * A binary file as a gateway delivers it when it was sent with a text type (`text`: its bytes decoded as UTF-8, the
 * lost ones U+FFFD) must be a 400 that names what it was and how to send it.
 */
async function assertLostAsText(post: typeof postFile, text: string, kind: string): Promise<void> {
  const response = await post(handlers, Buffer.alloc(0), {}, { body: text, isBase64Encoded: false });
  expect(response.status).toBe(400);
  expect((response.json as { error: string }).error).toBe(
    `The ${kind} arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.`,
  );
}

/** The expected file: every `{{lat,lon}}` replaced by /v1's elevation there (same interpolation). */
async function expectedFile(template: string, query: Record<string, string> = {}): Promise<string> {
  const keys = [...template.matchAll(/\{\{([^}]+)\}\}/g)].map((m) => m[1]);
  const unique = [...new Set(keys)];
  const response = await invoke(handlers.elevation, {
    path: '/v1/sample',
    pathParameters: { dataset: 'sample' },
    query: { locations: unique.join('|'), ...query },
  });
  const results = (response.json as { results: { elevation: number | null }[] }).results;
  const heights = new Map(unique.map((key, i) => [key, results[i].elevation]));
  expect([...heights.values()].every((h) => typeof h === 'number' && h > 100)).toBe(true);
  return template.replace(/\{\{([^}]+)\}\}/g, (_, key: string) => String(heights.get(key)));
}

describe.each([
  ['google-earth.kml', 'google-earth.expected.kml', 'application/vnd.google-earth.kml+xml', 7, 1],
  ['garmin.gpx', 'garmin.expected.gpx', 'application/gpx+xml', 6, 1],
  ['garmin.tcx', 'garmin.expected.tcx', 'application/vnd.garmin.tcx+xml', 8, 1],
  ['collection.geojson', 'collection.expected.geojson', 'application/geo+json', 9, 1],
  ['spreadsheet.csv', 'spreadsheet.expected.csv', 'text/csv', 6, 1],
])('POST /v1/{dataset}/file with %s', (input, expected, contentType, coordinates, nodata) => {
  it('answers the same bytes except the heights, which equal /v1 for the same points', async () => {
    const response = await postFile(handlers, fixture(input));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(contentType);
    expect(response.body).toBe(await expectedFile(fixture(expected).toString('utf8')));
  });

  it('counts filled and no-data coordinates in the response headers', async () => {
    const response = await postFile(handlers, fixture(input));
    expect(response.headers['x-elevation-coordinates']).toBe(String(coordinates));
    expect(response.headers['x-elevation-filled']).toBe(String(coordinates - nodata));
    expect(response.headers['x-elevation-nodata']).toBe(String(nodata));
    expect(response.headers['x-elevation-datasets']).toBe('sample');
  });

  it('answers the counts as JSON for report=json', async () => {
    const response = await postFile(handlers, fixture(input), { report: 'json' });
    expect(response.status).toBe(200);
    expect(response.json).toMatchObject({
      status: 'OK',
      coordinates,
      filled: coordinates - nodata,
      nodata,
      kept: 0,
      datasets: ['sample'],
    });
  });

  it('accepts the file as a plain text body too', async () => {
    const response = await postFile(
      handlers,
      fixture(input),
      {},
      {
        body: fixture(input).toString('utf8'),
        isBase64Encoded: false,
      },
    );
    expect(response.body).toBe(await expectedFile(fixture(expected).toString('utf8')));
  });
});

describe('POST /v1/{dataset}/file options', () => {
  it('uses the interpolation asked for, as /v1 does', async () => {
    const response = await postFile(handlers, fixture('google-earth.kml'), { interpolation: 'nearest' });
    const template = fixture('google-earth.expected.kml').toString('utf8');
    expect(response.body).toBe(await expectedFile(template, { interpolation: 'nearest' }));
    expect(response.body).not.toBe(await expectedFile(template));
  });

  it('refuses a file without coordinates (answered unchanged, it would look filled); report=json counts nothing', async () => {
    const kml = Buffer.from(
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Document><name>empty</name></Document></kml>',
    );
    const file = await postFile(handlers, kml);
    expect(file.status).toBe(400);
    expect(file.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        'The KML file has no coordinates, so there is nothing to fill: it needs a track, route, line or place with a position.',
    });
    const report = await postFile(handlers, kml, { report: 'json' });
    expect(report.json).toEqual({
      status: 'OK',
      format: 'kml',
      coordinates: 0,
      filled: 0,
      nodata: 0,
      kept: 0,
      datasets: [],
    });
  });

  it('refuses a file with data at none of its points, where only placeholders would be removed', async () => {
    const gpx = Buffer.from(
      '<gpx version="1.1"><wpt lat="9.1" lon="48.7"><ele>0</ele></wpt><wpt lat="0" lon="0"/></gpx>',
    );
    const file = await postFile(handlers, gpx);
    expect(file.status).toBe(400);
    expect(file.json).toEqual({
      status: 'INVALID_REQUEST',
      error:
        "No elevation data in dataset 'sample' at any of the GPX file's 2 coordinates, so none was filled: check that they lie in the dataset's area (GET /v1/datasets gives its bounds) and that latitude and longitude are not swapped.",
    });
    // A file with data at one point is filled there, the other left without.
    const partly = await postFile(
      handlers,
      Buffer.from(
        '<gpx version="1.1"><wpt lat="48.7" lon="9.1"/><wpt lat="0" lon="0"><ele>0</ele></wpt></gpx>',
      ),
    );
    expect(partly.status).toBe(200);
    expect(partly.body).toMatch(
      /^<gpx version="1.1"><wpt lat="48.7" lon="9.1"><ele>[\d.]+<\/ele><\/wpt><wpt lat="0" lon="0"><\/wpt><\/gpx>$/,
    );
  });

  it('names no dataset for a file whose only point has no data', async () => {
    const gpx = Buffer.from('<gpx version="1.1"><wpt lat="0" lon="0"/></gpx>');
    const report = await postFile(handlers, gpx, { report: 'json' });
    expect(report.json).toEqual({
      status: 'OK',
      format: 'gpx',
      coordinates: 1,
      filled: 0,
      nodata: 1,
      kept: 0,
      datasets: [],
    });
  });

  it('keeps existing non-zero heights for overwrite=false and counts them', async () => {
    const response = await postFile(handlers, fixture('garmin.gpx'), { overwrite: 'false', report: 'json' });
    expect(response.json).toMatchObject({ coordinates: 6, kept: 1, filled: 4, nodata: 1 });
    const file = await postFile(handlers, fixture('garmin.gpx'), { overwrite: 'false' });
    expect(file.body).toContain('<ele>511.2</ele>');
  });

  it.each(['false', 'true'])(
    'answers 400 naming the <ele> and its line for a height beyond the double range (1e400), overwrite=%s',
    async (overwrite) => {
      const text = fixture('garmin.gpx').toString('utf8');
      const damaged = text.replace('<ele>511.2</ele>', '<ele>1e400</ele>');
      const response = await postFile(handlers, Buffer.from(damaged), { overwrite, report: 'json' });
      expect(response.status).toBe(400);
      expect(response.json).toMatchObject({
        error:
          'The <ele> at line 8 of <wpt> at line 7 holds 1e400, a number beyond any height readers can hold (OGR and GPSBabel read it as infinity): write the height it should have, or leave it out.',
      });
    },
  );

  it('sets altitudeMode absolute for altitude_mode=absolute on each geometry whose points all have heights, and nothing else', async () => {
    const response = await postFile(handlers, fixture('google-earth.kml'), { altitude_mode: 'absolute' });
    const plain = await postFile(handlers, fixture('google-earth.kml'));
    const modes = response.body.match(/<altitudeMode>absolute<\/altitudeMode>\s*<coordinates>/g) ?? [];
    // Both Points; the path has a point without data (9.5,48.7, outside the sample), so it keeps its mode.
    expect(modes).toHaveLength(2);
    expect(response.body).toMatch(/<tessellate>1<\/tessellate>\s*<coordinates>/);
    // The inserted element is the only difference, and the LookAt's gx:altitudeMode is left alone.
    expect(response.body.replace(/<altitudeMode>absolute<\/altitudeMode>\s*/g, '')).toBe(plain.body);
    expect(response.body).toContain('<gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode>');
  });

  it('replaces existing altitudeMode values for altitude_mode=absolute', async () => {
    const kml = Buffer.from(
      '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>' +
        '<LineString><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><coordinates>9.1,48.7 9.2,48.8</coordinates></LineString>' +
        '<Point><altitudeMode>clampToGround</altitudeMode><coordinates>9.1,48.7</coordinates></Point></Placemark></kml>',
    );
    const response = await postFile(handlers, kml, { altitude_mode: 'absolute' });
    expect(response.status).toBe(200);
    expect(response.body.match(/<altitudeMode>absolute<\/altitudeMode>/g)).toHaveLength(2);
    expect(response.body).not.toMatch(/clampTo/);
  });

  it('leaves the altitudeMode of a geometry with a point left without a height, which absolute would sink to 0 m', async () => {
    const kml = Buffer.from(
      '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>' +
        '<LineString><coordinates>9.1,48.7,0 0,0,0 9.2,48.8,0</coordinates></LineString>' +
        '<LineString><coordinates>9.1,48.7 0,0,350</coordinates></LineString>' +
        '<gx:Track><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><when>2026-01-01T00:00:00Z</when><gx:coord>0 0 0</gx:coord></gx:Track>' +
        '<Point><coordinates>9.1,48.7</coordinates></Point></Placemark></kml>',
    );
    const response = await postFile(handlers, kml, { altitude_mode: 'absolute' });
    expect(response.status).toBe(200);
    expect(response.headers['x-elevation-nodata']).toBe('3');
    const geometries = response.body.match(/<(LineString|gx:Track|Point)>.*?<\/\1>/g) ?? [];
    expect(geometries).toHaveLength(4);
    // The first line's point at 0,0 lost its placeholder and would be drawn at sea level: no absolute.
    expect(geometries[0]).toMatch(
      /^<LineString><coordinates>9\.1,48\.7,[\d.]+ 0,0 9\.2,48\.8,[\d.]+<\/coordinates>/,
    );
    // A point without data that keeps a real height (a GPS's 350 m) is drawn right in absolute mode.
    expect(geometries[1]).toMatch(
      /^<LineString><altitudeMode>absolute<\/altitudeMode><coordinates>9\.1,48\.7,[\d.]+ 0,0,350</,
    );
    // A gx:coord keeps its placeholder 0 (it always has three values), so the track keeps its own mode.
    expect(geometries[2]).toContain('<gx:altitudeMode>clampToSeaFloor</gx:altitudeMode>');
    expect(geometries[3]).toMatch(
      /^<Point><altitudeMode>absolute<\/altitudeMode><coordinates>9\.1,48\.7,[\d.]+</,
    );
  });

  it.each([
    [{ overwrite: 'maybe' }, "Invalid overwrite 'maybe'"],
    [{ altitude_mode: 'clampToGround' }, "Invalid altitude_mode 'clampToGround'"],
    [{ interpolation: 'spline' }, "Invalid interpolation method 'spline'"],
    [{ locations: '1,2' }, "Unknown parameter 'locations'"],
  ])('answers 400 for %j', async (query, message) => {
    const response = await postFile(handlers, fixture('garmin.gpx'), query as Record<string, string>);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain(message);
  });

  it("answers 400 for an option given twice in the query: API Gateway would join them as 'true,false'", async () => {
    const response = await postFile(
      handlers,
      fixture('garmin.gpx'),
      { overwrite: 'true,false' },
      { rawQueryString: 'overwrite=true&overwrite=false' },
    );
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      "Query parameter 'overwrite' is given more than once; give it once.",
    );
  });

  it("fills the same file with key and jQuery's _ in the query", async () => {
    const [plain, added] = await Promise.all([
      postFile(handlers, fixture('garmin.gpx'), {}),
      postFile(handlers, fixture('garmin.gpx'), { key: 'None', _: '1733440000000' }),
    ]);
    expect(added.status).toBe(200);
    expect(added.body).toBe(plain.body);
  });

  it('answers 400 for an unknown dataset, before reading the file', async () => {
    const response = await postFile(
      handlers,
      Buffer.from('not a file'),
      {},
      {
        path: '/v1/nope/file',
        pathParameters: { dataset: 'nope' },
      },
    );
    expect(response.status).toBe(400);
  });

  it('answers 405 with Allow for GET', async () => {
    const response = await postFile(handlers, Buffer.from(''), {}, { method: 'GET', body: undefined });
    expect(response.status).toBe(405);
    expect(response.headers.allow).toBe('POST, OPTIONS');
  });
});

describe('POST /v1/{dataset}/file with a gx:Track', () => {
  it('fills gx:coord heights (space-separated), appending where missing, and leaves gx:angles alone', async () => {
    const kml = [
      '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>',
      '<gx:Track><when>2026-11-30T07:12:03Z</when><when>2026-11-30T07:13:03Z</when>',
      '<gx:coord>9.101177 48.742275 0</gx:coord><gx:coord>9.12 48.75</gx:coord>',
      '<gx:angles>1 2 3</gx:angles></gx:Track></Placemark></kml>',
    ].join('\n');
    const response = await postFile(handlers, Buffer.from(kml));
    expect(response.status).toBe(200);
    const template = kml
      .replace('9.101177 48.742275 0', '9.101177 48.742275 {{48.742275,9.101177}}')
      .replace('9.12 48.75<', '9.12 48.75 {{48.75,9.12}}<');
    expect(response.body).toBe(await expectedFile(template));
  });
});

describe('POST /v1/{dataset}/file keeps encoding details', () => {
  it('keeps a UTF-8 byte-order mark and CRLF line ends (Windows exports)', async () => {
    const windows = Buffer.concat([
      Buffer.from([0xef, 0xbb, 0xbf]),
      Buffer.from(fixture('google-earth.kml').toString('utf8').replace(/\n/g, '\r\n')),
    ]);
    const response = await postFile(handlers, windows);
    expect(response.status).toBe(200);
    const template = fixture('google-earth.expected.kml').toString('utf8').replace(/\n/g, '\r\n');
    expect(response.body).toBe(`\uFEFF${await expectedFile(template)}`);
  });
});

describe('POST /v1/{dataset}/file with a GeoJSON in UTM (a crs member, as ogr2ogr writes a projected layer)', () => {
  // `ogr2ogr -f GeoJSON -s_srs EPSG:4326 -t_srs EPSG:25832 utm32.geojson <the same points in WGS 84>` (GDAL 3.6):
  // the points are read through their crs, so each gets /v1's height at its WGS 84 position, written as a z.
  it('fills each position with the height of the place it names, leaving its coordinates as they were', async () => {
    const response = await postFile(handlers, fixture('utm32.geojson'));
    expect(response.status).toBe(200);
    expect(response.headers['x-elevation-filled']).toBe('4');
    expect(response.body).toBe(await expectedFile(fixture('utm32.expected.geojson').toString('utf8')));
  });

  it('takes the same points for a profile as the WGS 84 file (the line, without the Point)', async () => {
    const profile = (body: Buffer) => postProfile(handlers, body, { samples: '5' });
    const wgs84 = Buffer.from(
      JSON.stringify({
        type: 'LineString',
        coordinates: [
          [9.101177, 48.742275],
          [9.12, 48.75],
          [9.15, 48.77],
        ],
      }),
    );
    const [utm, plain] = await Promise.all([profile(fixture('utm32.geojson')), profile(wgs84)]);
    expect(utm.status).toBe(200);
    type Points = { points: { elevation: number; location: { lat: number; lng: number } }[] };
    const a = (utm.json as Points).points;
    const b = (plain.json as Points).points;
    expect(a.map((p) => p.location.lat)).toEqual(b.map((p) => expect.closeTo(p.location.lat, 7)));
    expect(a.map((p) => p.location.lng)).toEqual(b.map((p) => expect.closeTo(p.location.lng, 7)));
  });

  it('refuses a crs it cannot place, saying how to convert the file', async () => {
    const text = fixture('utm32.geojson').toString('utf8').replace('EPSG::25832', 'EPSG::2263');
    const response = await postFile(handlers, Buffer.from(text));
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error:
        "The GeoJSON file's crs 'urn:ogc:def:crs:EPSG::2263' is not measured in metres or degrees, so metre heights would not fit it: convert it with ogr2ogr -t_srs EPSG:4326 -lco RFC7946=YES out.geojson in.geojson.",
    });
  });
});

describe.each([
  ['google-earth.kml', 'google-earth.expected.kml', 'application/vnd.google-earth.kml+xml'],
  ['garmin.gpx', 'garmin.expected.gpx', 'application/gpx+xml'],
  ['garmin.tcx', 'garmin.expected.tcx', 'application/vnd.garmin.tcx+xml'],
  ['collection.geojson', 'collection.expected.geojson', 'application/geo+json'],
])('POST /v1/{dataset}/file with %s in UTF-16', (input, expected, contentType) => {
  // What PowerShell 5 writes (`Get-Content … > out`, Out-File): UTF-16LE with a BOM, the declaration left saying
  // UTF-8; Notepad's "Unicode big endian"; and UTF-16 without any mark.
  it.each<[string, 'utf-16le' | 'utf-16be', string, string]>([
    ['UTF-16LE with a BOM', 'utf-16le', '\uFEFF', 'utf-16'],
    ['UTF-16BE with a BOM', 'utf-16be', '\uFEFF', 'utf-16'],
    ['UTF-16LE without one', 'utf-16le', '', 'utf-16le'],
    ['UTF-16BE without one', 'utf-16be', '', 'utf-16be'],
  ])('answers %s in its own encoding, changed only in its heights', async (_, encoding, bom, charset) => {
    const utf16 = (text: string) => {
      const le = Buffer.from(bom + text, 'utf16le');
      return encoding === 'utf-16le' ? le : le.swap16();
    };
    const response = await postFile(handlers, utf16(fixture(input).toString('utf8')));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe(`${contentType}; charset=${charset}`);
    const answered = Buffer.from(response.body, 'base64');
    expect(answered.equals(utf16(await expectedFile(fixture(expected).toString('utf8'))))).toBe(true);
  });
});

describe('POST /v1/{dataset}/file with a UTF-16 file sent as text', () => {
  const utf16 = (name: string) => Buffer.from(`\uFEFF${fixture(name).toString('utf8')}`, 'utf16le');

  it('answers 400 when it lost bytes on the way (its BOM, any non-ASCII letter), saying how to send it', async () => {
    const text = utf16('google-earth.kml').toString('utf8'); // what a gateway makes of it with a text type
    expect(text.startsWith('\uFFFD\uFFFD<\0')).toBe(true);
    await assertLostAsText(postFile, text, 'UTF-16 file');
  });

  it('is read when it arrived whole (ASCII without a BOM: every byte survives UTF-8 decoding)', async () => {
    const bytes = utf16('garmin.gpx').subarray(2);
    const text = bytes.toString('utf8');
    expect(Buffer.from(text, 'utf8').equals(bytes)).toBe(true);
    const response = await postFile(handlers, Buffer.alloc(0), {}, { body: text, isBase64Encoded: false });
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gpx+xml; charset=utf-16le');
    const expected = Buffer.from(
      await expectedFile(fixture('garmin.expected.gpx').toString('utf8')),
      'utf16le',
    );
    expect(Buffer.from(response.body, 'base64').equals(expected)).toBe(true);
  });
});

describe('POST /v1/{dataset}/file with a UTF-8 file labelled UTF-16 (as .NET writes through a StringWriter)', () => {
  it('reads it as the UTF-8 it is and keeps the label', async () => {
    const relabel = (text: string) => text.replace('encoding="UTF-8"', 'encoding="utf-16"');
    const input = relabel(fixture('garmin.gpx').toString('utf8'));
    expect(input).toContain('encoding="utf-16"');
    const response = await postFile(handlers, Buffer.from(input));
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gpx+xml');
    expect(response.body).toBe(relabel(await expectedFile(fixture('garmin.expected.gpx').toString('utf8'))));
  });
});

// Excel saves "CSV" in Windows-1252 (on Windows, and on macOS for "Comma Separated Values"); a German one with
// semicolons, decimal commas and its column names. Every byte beyond ASCII must come back as it came.
describe('POST /v1/{dataset}/file with 8-bit text (Windows-1252, Latin-1)', () => {
  const latin1 = (text: string) => Buffer.from(text, 'latin1');
  // Windows-1252's own codes 0x80-0x9F too (here „Süd“ €), which Latin-1 leaves to control characters.
  const input = latin1('Name;Breite;Länge;Höhe\r\nMünchen \u0084Süd\u0093 \u0080;48,742275;9,101177;\r\n');

  it('fills a CSV and answers every other byte as it came, labelled as Excel writes it', async () => {
    expect(input.toString('latin1')).toContain('L\u00e4nge');
    const response = await postFile(handlers, input);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('text/csv; charset=windows-1252');
    const height = await expectedFile('{{48.742275,9.101177}}');
    const expected = Buffer.concat([
      input.subarray(0, -2),
      latin1(height.replace('.', ',')),
      input.subarray(-2),
    ]);
    expect(Buffer.from(response.body, 'base64').equals(expected)).toBe(true);
  });

  it('reads its path for a profile', async () => {
    const response = await postProfile(handlers, input, { samples: '2' });
    expect(response.status).toBe(200);
    const { points } = response.json as { points: { location: { lat: number; lng: number } }[] };
    // One place: a path of no length, answered as one point whatever `samples` asks.
    expect(points.map((p) => p.location)).toEqual([{ lat: 48.742275, lng: 9.101177 }]);
  });

  it('answers 400 when it arrived as text and lost those bytes, saying how to send it', async () => {
    const text = input.toString('utf8'); // what a gateway makes of it with a text type: U+FFFD for each
    expect(text).toContain('\uFFFD');
    await assertLostAsText(postFile, text, 'file in an 8-bit encoding (Windows-1252, Latin-1)');
  });

  it('fills a GPX whose declaration names ISO-8859-1, keeping its Latin-1 name', async () => {
    const declare = (text: string) =>
      text.replace('encoding="UTF-8"', 'encoding="ISO-8859-1"').replace('Morning run', 'Lauf über die Höhe');
    const gpx = latin1(declare(fixture('garmin.gpx').toString('utf8')));
    const response = await postFile(handlers, gpx);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/gpx+xml');
    const expected = latin1(declare(await expectedFile(fixture('garmin.expected.gpx').toString('utf8'))));
    expect(Buffer.from(response.body, 'base64').equals(expected)).toBe(true);
  });

  it('refuses the same GPX without the declaration, saying how to name its encoding', async () => {
    const gpx = latin1(fixture('garmin.gpx').toString('utf8').replace('Morning run', 'Lauf über die Höhe'));
    const response = await postFile(handlers, gpx);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error:
        'The GPX file is not valid UTF-8 text: save it as UTF-8, or name its encoding in its XML declaration (encoding="ISO-8859-1").',
    });
  });

  it('refuses a GeoJSON file that is not UTF-8 (RFC 8259), without the XML advice', async () => {
    const json = latin1(
      '{"type":"Feature","properties":{"name":"Höhe"},"geometry":{"type":"Point","coordinates":[9.1,48.7]}}',
    );
    const response = await postFile(handlers, json);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error: 'The GeoJSON file is not valid UTF-8 text: save it as UTF-8.',
    });
  });
});

describe('POST /v1/{dataset}/file with a KMZ', () => {
  const icon = new Uint8Array([0x89, 0x50, 0x4e, 0x47, 1, 2, 3, 4]);
  const kmz = (kmlName = 'doc.kml') =>
    Buffer.from(zipSync({ [kmlName]: fixture('google-earth.kml'), 'files/icon.png': [icon, { level: 0 }] }));

  it('answers 400 for a KMZ that arrived as text (bytes lost to UTF-8 decoding), saying how to send it', async () => {
    const text = kmz().toString('utf8'); // what a gateway makes of a zip sent with a text content type
    expect(text).toContain('\uFFFD');
    await assertLostAsText(postFile, text, 'KMZ');
  });

  it('answers a KMZ whose doc.kml is the filled KML and whose other files are unchanged', async () => {
    const response = await postFile(handlers, kmz());
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.google-earth.kmz');
    const entries = unzipSync(Buffer.from(response.body, 'base64'));
    expect(Object.keys(entries)).toEqual(['doc.kml', 'files/icon.png']);
    expect(Buffer.from(entries['doc.kml']).toString('utf8')).toBe(
      await expectedFile(fixture('google-earth.expected.kml').toString('utf8')),
    );
    expect(entries['files/icon.png']).toEqual(icon);
  });

  it('fills the first .kml when there is no doc.kml, in a folder too', async () => {
    const response = await postFile(handlers, kmz('walk.kml'), { report: 'json' });
    expect(response.json).toMatchObject({ format: 'kmz', coordinates: 7, filled: 6 });
    const nested = await postFile(handlers, kmz('files/doc.kml'), { report: 'json' });
    expect(nested.json).toMatchObject({ format: 'kmz', coordinates: 7, filled: 6 });
  });

  it('fills the first .kml in archive order, the one Google Earth shows, and leaves a later doc.kml as it was', async () => {
    const empty = Buffer.from('<kml xmlns="http://www.opengis.net/kml/2.2"><Document/></kml>');
    const twoKml = Buffer.from(zipSync({ 'a.kml': fixture('google-earth.kml'), 'doc.kml': empty }));
    const response = await postFile(handlers, twoKml);
    expect(response.status).toBe(200);
    const entries = unzipSync(Buffer.from(response.body, 'base64'));
    expect(Object.keys(entries)).toEqual(['a.kml', 'doc.kml']);
    expect(Buffer.from(entries['a.kml']).toString('utf8')).toBe(
      await expectedFile(fixture('google-earth.expected.kml').toString('utf8')),
    );
    expect(Buffer.from(entries['doc.kml'])).toEqual(empty);
  });

  it('answers 400, not heights of another place, for a KMZ whose stored doc.kml lost a bit on the way', async () => {
    const stored = Buffer.from(
      zipSync({
        'doc.kml': [fixture('google-earth.kml'), { level: 0 }],
        'files/icon.png': [icon, { level: 0 }],
      }),
    );
    expect((await postFile(handlers, stored, { report: 'json' })).status).toBe(200);
    const digit = stored.indexOf('<coordinates>') + '<coordinates>'.length;
    expect(String.fromCharCode(stored[digit])).toMatch(/[0-9]/);
    stored[digit] ^= 1; // one digit of the first longitude changes: still a well-formed KML
    const response = await postFile(handlers, stored);
    expect(response.status).toBe(400);
    expect(response.json).toMatchObject({
      error:
        "The KMZ entry 'doc.kml' is damaged: its CRC-32 does not match the archive's directory. Send the file again, or its doc.kml alone.",
    });
  });

  it('answers 400 for a zip without any KML', async () => {
    const response = await postFile(handlers, Buffer.from(zipSync({ 'readme.txt': icon })));
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain('The KMZ holds no .kml file');
  });
});

describe('POST /v1/{dataset}/file with a gzip-compressed file (activity.gpx.gz, as bulk exports write them)', () => {
  const gz = (name: string) => gzipSync(fixture(name));

  it.each([
    ['garmin.gpx', 'garmin.expected.gpx'],
    ['collection.geojson', 'collection.expected.geojson'],
  ])(
    'answers %s filled and gzip-compressed again, the same bytes as the plain file gets',
    async (input, expected) => {
      const response = await postFile(handlers, gz(input));
      expect(response.status).toBe(200);
      expect(response.headers['content-type']).toBe('application/gzip');
      const answer = gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8');
      expect(answer).toBe(await expectedFile(fixture(expected).toString('utf8')));
      expect(response.headers['x-elevation-filled']).toBe(
        (await postFile(handlers, fixture(input))).headers['x-elevation-filled'],
      );
    },
  );

  it('reports the format inside for report=json', async () => {
    const response = await postFile(handlers, gz('garmin.tcx'), { report: 'json' });
    expect(response.json).toMatchObject({ status: 'OK', format: 'tcx', coordinates: 8, filled: 7 });
  });

  it('answers 400, not heights of another place, for a file that lost a bit on the way', async () => {
    const damaged = gz('garmin.gpx');
    damaged[damaged.length - 8] ^= 1; // its CRC-32
    const response = await postFile(handlers, damaged);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      'The gzip file is damaged (incorrect data check): send it again, or uncompressed.',
    );
  });

  it('answers 413 for a file that unzips past MAX_KMZ_UNZIPPED_MB', async () => {
    const limited = await loadTrackHandlers({ MAX_KMZ_UNZIPPED_MB: '1' });
    const padded = Buffer.concat([fixture('garmin.gpx'), Buffer.alloc(1024 * 1024, 0x20)]);
    const response = await postFile(limited, gzipSync(padded));
    expect(response.status).toBe(413);
    expect((response.json as { error: string }).error).toMatch(/^The gzip file unzips to more than 1 MiB/);
    expect((await postFile(limited, gz('garmin.gpx'))).status).toBe(200);
  });

  it('answers 400 for a gzip file that arrived as text (bytes lost to UTF-8 decoding), saying how to send it', async () => {
    const text = gz('garmin.gpx').toString('utf8');
    await assertLostAsText(postFile, text, 'gzip file');
  });

  it('answers a profile along the same path as the plain file', async () => {
    const plain = await postProfile(handlers, fixture('garmin.gpx'), { samples: '5' });
    const zipped = await postProfile(handlers, gz('garmin.gpx'), { samples: '5' });
    expect(plain.status).toBe(200);
    expect(zipped.json).toEqual(plain.json);
  });
});

describe('a FIT file (what devices record)', () => {
  const POINTS: [number, number][] = [
    [48.742275, 9.101177],
    [48.75, 9.12],
    [48.77, 9.15],
  ];
  const fit = fitFile([null, ...POINTS]);
  const gpx = Buffer.from(
    `<gpx version="1.1"><trk><trkseg>${POINTS.map(([lat, lon]) => `<trkpt lat="${lat}" lon="${lon}"/>`).join('')}</trkseg></trk></gpx>`,
  );
  const elevationsOf = (json: unknown) =>
    (json as { points: { elevation: number }[] }).points.map((p) => p.elevation);

  it('answers a profile along its records, as for a GPX of the same points (FIT stores them to ~1 cm)', async () => {
    const [fromFit, fromGpx] = await Promise.all([
      postProfile(handlers, fit, { samples: '7' }),
      postProfile(handlers, gpx, { samples: '7' }),
    ]);
    expect(fromFit.status).toBe(200);
    const fromFitHeights = elevationsOf(fromFit.json);
    const fromGpxHeights = elevationsOf(fromGpx.json);
    expect(fromFitHeights).toHaveLength(7);
    fromFitHeights.forEach((h, i) => expect(h).toBeCloseTo(fromGpxHeights[i], 1));
  });

  it('answers a profile for a .fit.gz (as Strava’s bulk export holds them)', async () => {
    const [plain, zipped] = await Promise.all([
      postProfile(handlers, fit, { samples: '5' }),
      postProfile(handlers, gzipSync(fit), { samples: '5' }),
    ]);
    expect(zipped.status).toBe(200);
    expect(zipped.json).toEqual(plain.json);
  });

  it('gets its heights from /file, equal to /v1 at its records to FIT’s 0.2 m, plain or gzip-compressed', async () => {
    const response = await postFile(handlers, fit);
    expect(response.status).toBe(200);
    expect(response.headers['content-type']).toBe('application/vnd.ant.fit');
    expect(response.headers['x-elevation-coordinates']).toBe('3');
    expect(response.headers['x-elevation-filled']).toBe('3');
    const filled = Buffer.from(response.body, 'base64');
    const records = readFitMessages(filled, { messageNumbers: [20] }).messages; // both CRCs checked
    const heights = records.map((m) => {
      const f = m.fields.find((x) => x.fieldNumber === 78);
      const stored = f ? Buffer.from(f.bytes).readUInt32LE() : 0xffffffff;
      return stored === 0xffffffff ? null : stored / 5 - 500;
    });
    const v1 = await invoke(handlers.elevation, {
      path: '/v1/sample',
      pathParameters: { dataset: 'sample' },
      query: {
        locations: (await readTrackPath(fit, LIMITS)).locations.map((l) => `${l.lat},${l.lon}`).join('|'),
      },
    });
    const expected = (v1.json as { results: { elevation: number }[] }).results.map((r) => r.elevation);
    expect(heights[0]).toBeNull(); // the record before the first fix: no position, no height
    heights
      .slice(1)
      .forEach((h, i) => expect(Math.abs((h as number) - expected[i])).toBeLessThanOrEqual(0.1 + 1e-9));
    const zipped = await postFile(handlers, gzipSync(fit));
    expect(zipped.headers['content-type']).toBe('application/gzip');
    expect(gunzipSync(Buffer.from(zipped.body, 'base64'))).toEqual(filled);
    const report = await postFile(handlers, fit, { report: 'json' });
    expect(report.json).toMatchObject({ format: 'fit', coordinates: 3, filled: 3, nodata: 0 });
  });

  it('answers 400 for a FIT file that arrived as text (bytes lost), saying how to send it', async () => {
    const text = fit.toString('utf8');
    expect(text).toContain('\uFFFD');
    await assertLostAsText(postProfile, text, 'FIT file');
  });
});

describe('a CSV point list (a spreadsheet saved as CSV)', () => {
  it('answers a profile through its rows in order, as the same points given as locations', async () => {
    const csv = Buffer.from('name;lat;lon\r\nA;48,742275;9,101177\r\nB;48,75;9,12\r\nC;48,77;9,15\r\n');
    const [fromCsv, fromLocations] = await Promise.all([
      postProfile(handlers, csv, { samples: '7' }),
      invoke(handlers.profile, {
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: { locations: '48.742275,9.101177|48.75,9.12|48.77,9.15', samples: '7' },
      }),
    ]);
    expect(fromCsv.status).toBe(200);
    expect(fromCsv.json).toEqual(fromLocations.json);
  });

  it('is refused without a header row, saying to add one rather than guessing the columns', async () => {
    const response = await postFile(handlers, Buffer.from('48.742275,9.101177\n48.75,9.12\n'));
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(/^The CSV file has no header row/);
  });

  it('fills the rows that have coordinates and leaves a row without any (an address not geocoded) as it is', async () => {
    const csv = 'name,lat,lon\nhome,48.742275,9.101177\nshop,,\nwork,48.75,9.12\n';
    const report = await postFile(handlers, Buffer.from(csv), { report: 'json' });
    expect(report.json).toMatchObject({ coordinates: 2, filled: 2, nodata: 0 });
    const file = await postFile(handlers, Buffer.from(csv));
    expect(file.status).toBe(200);
    expect(file.body).toMatch(
      /^name,lat,lon,elevation\nhome,48\.742275,9\.101177,456\.889\nshop,,,\nwork,48\.75,9\.12,[\d.]+\n$/,
    );
  });

  it('is refused with a title line above the header, saying which line is the header', async () => {
    const response = await postFile(handlers, Buffer.from('My walk\nlat,lon\n48.742275,9.101177\n'));
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      "The CSV file's header must be its first line: line 2 'lat,lon' names the columns, below 'My walk'. Remove the line above the header.",
    );
  });

  it("is refused with X and Y columns (QGIS's AS_XY export), saying to rename them if they are degrees", async () => {
    const response = await postFile(handlers, Buffer.from('X,Y,name\n9.101177,48.742275,a\n'));
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(
      /^The CSV file's header 'X,Y,name' names no latitude .* rename X to lon and Y to lat\.$/,
    );
  });
});
