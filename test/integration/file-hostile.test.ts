/**
 * Hostile files against `POST /v1/{dataset}/file`: each is a clear 4xx, none a 5xx, and none costs more
 * memory than the limits allow (XXE, billion laughs, a 1 GiB zip bomb with honest and lying headers, 10 MB of
 * coordinates, too many coordinates, malformed and deeply nested XML, invalid UTF-8).
 */
import { gzipSync } from 'node:zlib';
import { invoke, type EventOptions } from './support/api-gateway';
import {
  BILLION_LAUGHS_GPX,
  UNDECLARED_ENTITY_KML,
  XXE_KML,
  coordinatesKml,
  deepKml,
  zipBomb,
} from './support/hostile-files';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** What a hostile request may add to the process's memory: far below the bomb, above the 32 MiB KMZ limit. */
const MAX_MEMORY_GROWTH_BYTES = 200 * 1024 * 1024;
const ONE_GIB_IN_MIB = 1024;

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

const post = (body: Buffer | string, extra: Partial<EventOptions> = {}) =>
  invoke(handlers.file, {
    method: 'POST',
    path: '/v1/sample/file',
    pathParameters: { dataset: 'sample' },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
    ...extra,
  });

/** Posts the file and answers the response with how much the process's RSS grew over it (after a GC before). */
async function postMeasured(body: Buffer) {
  global.gc?.();
  const before = process.memoryUsage().rss;
  const response = await post(body);
  return { response, growth: process.memoryUsage().rss - before };
}

const errorOf = (response: { json: unknown }) => (response.json as { status: string; error: string }).error;

describe('hostile files', () => {
  it('answers 400 for an external entity (XXE) and never reads the file it names', async () => {
    const response = await post(XXE_KML);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('DOCTYPE');
    expect(response.body).not.toContain('root:');
  });

  it('answers 400 for a billion-laughs entity bomb without expanding it', async () => {
    const response = await post(BILLION_LAUGHS_GPX);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('DTDs are not accepted');
  });

  it('answers 400 for an entity reference that no DTD declares', async () => {
    const response = await post(UNDECLARED_ENTITY_KML);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/not well-formed XML: .*undefined entity/i);
  });

  it.each([
    ['honest headers', undefined],
    ['headers claiming 1000 bytes', 1000],
  ])('answers 413 for a KMZ that unzips to 1 GiB (%s), in bounded memory', async (_label, declared) => {
    const bomb = zipBomb(ONE_GIB_IN_MIB, declared);
    expect(bomb.length).toBeLessThan(2 * 1024 * 1024);
    const { response, growth } = await postMeasured(bomb);
    expect(response.status).toBe(413);
    expect(errorOf(response)).toContain('MAX_KMZ_UNZIPPED_MB');
    expect(growth).toBeLessThan(MAX_MEMORY_GROWTH_BYTES);
  });

  it('answers 413 for 10 MB of coordinates, naming the limit', async () => {
    const response = await post(coordinatesKml(10 * 1024 * 1024));
    expect(response.status).toBe(413);
    expect(errorOf(response)).toContain('MAX_FILE_BYTES');
  });

  it.each([0, 1, 2])(
    'measures the limit on the decoded file, not its base64 text: exactly MAX_FILE_BYTES passes (%i padding bytes)',
    async (shortBy) => {
      const limit = 4 * 1024 * 1024 - shortBy; // 4 MiB: the default MAX_FILE_BYTES
      const gpx = `<gpx version="1.1"><wpt lat="48.8" lon="9.2"/></gpx>`;
      const file = Buffer.alloc(limit, ' ');
      file.write(gpx, 0);
      const atLimit = await invoke((await loadTrackHandlers({ MAX_FILE_BYTES: String(limit) })).file, {
        method: 'POST',
        path: '/v1/sample/file',
        pathParameters: { dataset: 'sample' },
        query: { report: 'json' },
        body: file.toString('base64'),
        isBase64Encoded: true,
      });
      expect(atLimit.status).toBe(200);
      const over = await post(
        Buffer.concat([file, Buffer.from(' '), Buffer.alloc(4 * 1024 * 1024 - limit, ' ')]),
      );
      expect(over.status).toBe(413);
    },
  );

  it('answers 400 for more coordinates than MAX_FILE_COORDINATES, within the size limit', async () => {
    const response = await post(coordinatesKml(3 * 1024 * 1024)); // ~150,000 tuples > 100,000
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('more than 100000 coordinates');
  });

  /** A .gz of 32 MiB (MAX_KMZ_UNZIPPED_MB): the shortest coordinates, eight million of them, in ~33 KB sent. */
  const gzip32 = (head: string, unit: string, tail: string) =>
    gzipSync(
      head +
        unit.repeat(Math.floor((32 * 1024 * 1024 - 64 - head.length - tail.length) / unit.length)) +
        tail,
    );

  it.each([
    ['CSV rows', gzip32('lat,lon\n', '1,1\n', '')],
    ['GeoJSON positions', gzip32('{"type":"LineString","coordinates":[', '[1,1],', '[1,1]]}')],
    [
      'KML tuples',
      gzip32(
        '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>',
        '1,1 ',
        '</coordinates></LineString></Placemark></kml>',
      ),
    ],
  ])(
    'answers 400 for a .gz of eight million %s, stopping at the coordinate limit (it once held 0.9-3.5 GB)',
    async (_label, file) => {
      expect(file.length).toBeLessThan(64 * 1024);
      const { response, growth } = await postMeasured(file);
      expect(response.status).toBe(400);
      expect(errorOf(response)).toContain('more than 100000 coordinates');
      expect(growth).toBeLessThan(MAX_MEMORY_GROWTH_BYTES);
    },
  );

  it.each([
    ['an unclosed element', '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark></kml>'],
    ['a truncated document', '<?xml version="1.0"?><gpx version="1.1"><trk><trkseg><trkpt lat="48.7" lon='],
    ['two roots', '<gpx></gpx><gpx></gpx>'],
    ['an attribute without quotes', '<gpx><wpt lat=48.7 lon=9.1/></gpx>'],
  ])('answers 400 for malformed XML: %s', async (_label, xml) => {
    const response = await post(xml);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toMatch(/not well-formed XML: \d+:\d+/);
  });

  it('answers 400 for elements nested deeper than 100 levels', async () => {
    const response = await post(deepKml(10_000));
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('deeper than 100 levels');
  });

  it('answers 400 for GeoJSON nested 100,000 arrays deep', async () => {
    const json = `{"type":"Point","coordinates":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    const response = await post(json);
    expect(response.status).toBe(400);
  });

  it.each([
    [
      'invalid UTF-8',
      Buffer.from([0x3c, 0x6b, 0x6d, 0x6c, 0x3e, 0xff, 0xfe, 0x3c, 0x2f, 0x6b, 0x6d, 0x6c, 0x3e]),
      'not valid UTF-8',
    ],
    [
      'a Shift_JIS declaration',
      '<?xml version="1.0" encoding="Shift_JIS"?><gpx></gpx>',
      "encoding 'Shift_JIS'",
    ],
    ['plain text', 'hello', 'Unrecognised file'],
    ['a PNG', Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a]), 'Unrecognised file'],
    ['a zip that is cut short', Buffer.from('PK\u0003\u0004garbage'), 'KMZ'],
    [
      'out-of-range coordinates',
      '<kml><Placemark><Point><coordinates>9.1,95,0</coordinates></Point></Placemark></kml>',
      'Invalid latitude 95',
    ],
    [
      'unparseable coordinates',
      '<kml><Point><coordinates>nine,forty-eight</coordinates></Point></kml>',
      'Unable to parse the coordinates at line 1',
    ],
    ['a GPX point without lon', '<gpx><wpt lat="48.7"/></gpx>', "no 'lon' attribute"],
    ['a GeoJSON position of strings', '{"type":"Point","coordinates":["9.1","48.7"]}', 'is not a position'],
    ['JSON that is not GeoJSON', '{"hello":1}', 'not GeoJSON'],
  ])('answers 400 for %s', async (_label, body, message) => {
    const response = await post(body);
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain(message);
  });

  it('answers 400 with a how-to for an empty body', async () => {
    const response = await post('', { body: '' });
    expect(response.status).toBe(400);
    expect(errorOf(response)).toContain('--data-binary');
  });
});
