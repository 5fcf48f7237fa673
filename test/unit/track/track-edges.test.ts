/**
 * The edges of reading a track file that a user meets: the file route's options and their 400s, coordinates out
 * of range, the format sniffed from the first bytes, a byte-order mark kept, tuples that run together, and the
 * edits that write heights back.
 */
import { strToU8, zipSync } from 'fflate';
import { InvalidRequestError, readTrackLocations } from '../../../layers/elevation';
import {
  tryParseCoordinateTuples,
  parseCoordinateTuples,
} from '../../../layers/elevation/track/coordinate-text';
import { parseFileOptions, tryParseBoolean } from '../../../layers/elevation/track/file-options';
import { checkedLocation } from '../../../layers/elevation/track/height-slot';
import { applyEdits } from '../../../layers/elevation/track/text-edits';
import { readTrackText } from '../../../layers/elevation/track/track-text';
import { detectTrackFormat, tryDetectTrackFormat } from '../../../layers/elevation/track/track-format';

const LIMITS = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };
const gpx = (lat: number, lon: number) =>
  `<gpx version="1.1"><trk><trkseg><trkpt lat="${lat}" lon="${lon}"/></trkseg></trk></gpx>`;

describe('file route options', () => {
  it('defaults to overwriting heights, relative altitude mode, the file as the answer, no datum', () => {
    expect(parseFileOptions({})).toEqual({
      interpolation: 'bilinear',
      overwrite: true,
      absoluteAltitude: false,
      reportOnly: false,
      datum: null,
    });
  });

  it('reads each option, in any case and with spaces around it', () => {
    expect(
      parseFileOptions({
        interpolation: 'cubic',
        overwrite: ' FALSE ',
        altitude_mode: ' Absolute',
        report: 'JSON ',
        datum: 'egm96',
      }),
    ).toEqual({
      interpolation: 'cubic',
      overwrite: false,
      absoluteAltitude: true,
      reportOnly: true,
      datum: 'egm96',
    });
    expect(parseFileOptions({ overwrite: '0' }).overwrite).toBe(false);
    expect(parseFileOptions({ overwrite: '1' }).overwrite).toBe(true);
    expect(parseFileOptions({ overwrite: 'true' }).overwrite).toBe(true);
    expect(parseFileOptions({ overwrite: ' ', altitude_mode: '', report: '  ' })).toMatchObject({
      overwrite: true,
      absoluteAltitude: false,
      reportOnly: false,
    });
  });

  it("ignores key and jQuery's _ as /v1 does", () => {
    expect(parseFileOptions({ report: 'json', key: 'None', _: '1733440000000' })).toEqual(
      parseFileOptions({ report: 'json' }),
    );
  });

  it.each([
    [
      { colour: 'red' },
      "Unknown parameter 'colour': supported are interpolation, overwrite, altitude_mode, report, datum.",
    ],
    [{ overwrite: 'yes' }, "Invalid overwrite 'yes': use true or false."],
    [
      { altitude_mode: 'clampToGround' },
      "Invalid altitude_mode 'clampToGround': use absolute, or leave it out.",
    ],
    [{ report: 'xml' }, "Invalid report 'xml': use json, or leave it out."],
  ])('refuses %j, saying what it takes', (params, message) => {
    expect(() => parseFileOptions(params)).toThrow(InvalidRequestError);
    expect(() => parseFileOptions(params)).toThrow(message);
  });

  it('tells true from false from anything else', () => {
    expect([' True', '1', 'FALSE ', '0', 'yes', '', undefined].map(tryParseBoolean)).toEqual([
      true,
      true,
      false,
      false,
      null,
      null,
      null,
    ]);
  });
});

describe('coordinates read from a file', () => {
  const where = () => 'coordinate 3 at line 7';

  it('accepts the poles and the antimeridian', () => {
    expect(checkedLocation(90, 180, where)).toEqual({ lat: 90, lon: 180 });
    expect(checkedLocation(-90, -180, where)).toEqual({ lat: -90, lon: -180 });
  });

  it.each([
    [90.0001, 0, 'Invalid latitude 90.0001 at coordinate 3 at line 7: latitude must be between -90 and 90.'],
    [-90.5, 0, 'Invalid latitude -90.5 at coordinate 3 at line 7'],
    [NaN, 0, 'Invalid latitude NaN at coordinate 3 at line 7'],
    [
      0,
      180.25,
      'Invalid longitude 180.25 at coordinate 3 at line 7: longitude must be between -180 and 180.',
    ],
    [0, -181, 'Invalid longitude -181 at coordinate 3 at line 7'],
    [0, Infinity, 'Invalid longitude Infinity at coordinate 3 at line 7'],
  ])('refuses lat %p lon %p, saying where', (lat, lon, message) => {
    expect(() => checkedLocation(lat, lon, where)).toThrow(InvalidRequestError);
    expect(() => checkedLocation(lat, lon, where)).toThrow(message);
  });

  it('refuses a file point out of range with a 400 naming it', () => {
    const file = (lat: number, lon: number) => strToU8(gpx(lat, lon));
    expect(readTrackLocations(file(48.7, 9.1), LIMITS).locations).toEqual([{ lat: 48.7, lon: 9.1 }]);
    expect(() => readTrackLocations(file(48.7, 190), LIMITS)).toThrow(/Invalid longitude 190 at /);
    expect(() => readTrackLocations(file(95, 9.1), LIMITS)).toThrow(/Invalid latitude 95 at /);
  });
});

describe('track format and text', () => {
  it('takes a zip for a KMZ only by its whole signature', () => {
    expect(tryDetectTrackFormat(Uint8Array.from([0x50, 0x4b, 0x03, 0x04, 0]))).toBe('kmz');
    expect(tryDetectTrackFormat(Uint8Array.from([0x50, 0x4b, 0x05, 0x06, 0]))).toBeNull();
    expect(tryDetectTrackFormat(strToU8('P'))).toBeNull();
  });

  it('sniffs past a BOM, declarations, comments and a doctype to the root element', () => {
    const head = '\uFEFF<?xml version="1.0"?><!DOCTYPE gpx><!-- a > comment? -->\n<gpx version="1.1"/>';
    expect(tryDetectTrackFormat(strToU8(head))).toBe('gpx');
    expect(tryDetectTrackFormat(strToU8('<?xml version="1.0"?><kml/>'))).toBe('kml');
    expect(tryDetectTrackFormat(strToU8('<?xml version="1.0"?><!-- was <kml> --><gpx/>'))).toBe('gpx');
    expect(tryDetectTrackFormat(strToU8('\uFEFF{"type": "Point"}'))).toBe('geojson');
    const utf16le = (text: string) => Buffer.from(text, 'utf16le');
    expect(tryDetectTrackFormat(utf16le('\uFEFF<?xml version="1.0"?>\r\n<gpx/>'))).toBe('gpx');
    expect(tryDetectTrackFormat(utf16le('<TrainingCenterDatabase/>').swap16())).toBe('tcx');
    expect(tryDetectTrackFormat(utf16le('\uFEFF{"type": "Point"}').swap16())).toBe('geojson');
    expect(tryDetectTrackFormat(strToU8('<gpxfile/>'))).toBeNull();
    expect(tryDetectTrackFormat(strToU8('kml <kml/>'))).toBeNull();
    expect(() => detectTrackFormat(strToU8('hello'))).toThrow(
      'Unrecognised file: send a KML (<kml> root), KMZ (zip holding a .kml), GPX (<gpx> root), TCX (<TrainingCenterDatabase> root) or GeoJSON (JSON object) document, a CSV with a header row naming its lat and lon columns, or a FIT file, as the request body, plain or gzip-compressed (.gpx.gz).',
    );
  });

  it('keeps a byte-order mark apart from the text, and names the format of a file that is not UTF-8', () => {
    const read = readTrackText(strToU8(`\uFEFF${gpx(1, 2)}`), 'gpx', {
      maxCoordinates: 10,
      absoluteAltitude: false,
    });
    expect(read.bom).toBe('\uFEFF');
    expect(read.text).toBe(gpx(1, 2));
    expect(read.track.slots.map((s) => s.location)).toEqual([{ lat: 1, lon: 2 }]);
    const plain = readTrackText(strToU8(gpx(1, 2)), 'gpx', { maxCoordinates: 10, absoluteAltitude: false });
    expect(plain.bom).toBe('');
    expect(() =>
      readTrackText(Uint8Array.from([0x3c, 0xff, 0xfe]), 'kml', {
        maxCoordinates: 10,
        absoluteAltitude: false,
      }),
    ).toThrow(/KML file/);
  });

  it('stops reading locations at the coordinate limit', () => {
    const three = strToU8(
      '<kml><Placemark><LineString><coordinates>9.1,48.7 9.2,48.8 9.3,48.9</coordinates></LineString></Placemark></kml>',
    );
    expect(readTrackLocations(three, { ...LIMITS, maxCoordinates: 3 }).locations).toHaveLength(3);
    expect(() => readTrackLocations(three, { ...LIMITS, maxCoordinates: 2 })).toThrow(InvalidRequestError);
  });

  it('reads the locations of a KMZ from its main document', () => {
    const kml =
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>9.1,48.7,0 9.2,48.8,0</coordinates></LineString></Placemark></kml>';
    const kmz = zipSync({ 'doc.kml': strToU8(kml) });
    expect(readTrackLocations(kmz, LIMITS)).toEqual({
      format: 'kmz',
      locations: [
        { lat: 48.7, lon: 9.1 },
        { lat: 48.8, lon: 9.2 },
      ],
    });
  });
});

describe('the path of a track file (for a profile)', () => {
  const TCX_NS = 'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2';
  const tcxPos = (lat: number, lon: number, name = 'Position') =>
    `<${name}><LatitudeDegrees>${lat}</LatitudeDegrees><LongitudeDegrees>${lon}</LongitudeDegrees></${name}>`;
  const pathOf = (text: string) =>
    readTrackLocations(strToU8(text), LIMITS).locations.map((l) => [l.lat, l.lon]);

  it.each([
    [
      'GPX: waypoints are left out of its track, and so is a route beside a track (another path)',
      '<gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/></rte><trk><trkseg><trkpt lat="3" lon="3"/>' +
        '<trkpt lat="4" lon="4"/></trkseg></trk><wpt lat="5" lon="5"/><rte><rtept lat="6" lon="6"/></rte></gpx>',
      [
        [3, 3],
        [4, 4],
      ],
    ],
    [
      'GPX: waypoints are left out of its routes when it has no track',
      '<gpx><wpt lat="1" lon="1"/><rte><rtept lat="2" lon="2"/><rtept lat="3" lon="3"/></rte>' +
        '<rte><rtept lat="4" lon="4"/></rte><wpt lat="5" lon="5"/></gpx>',
      [
        [2, 2],
        [3, 3],
        [4, 4],
      ],
    ],
    [
      'KML: Points are left out of its LineStrings and gx:Tracks',
      '<kml xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark><Point><coordinates>1,1</coordinates></Point></Placemark>' +
        '<Placemark><LineString><coordinates>2,2 3,3</coordinates></LineString></Placemark>' +
        '<Placemark><MultiGeometry><Point><coordinates>4,4</coordinates></Point>' +
        '<gx:Track><gx:coord>5 5 0</gx:coord></gx:Track></MultiGeometry></Placemark></kml>',
      [
        [2, 2],
        [3, 3],
        [5, 5],
      ],
    ],
    [
      'GeoJSON: Points, MultiPoints and Polygons are left out of its lines',
      JSON.stringify({
        type: 'FeatureCollection',
        features: [
          { type: 'Feature', geometry: { type: 'Point', coordinates: [1, 1] }, properties: {} },
          {
            type: 'Feature',
            geometry: {
              type: 'LineString',
              coordinates: [
                [2, 2],
                [3, 3],
              ],
            },
            properties: {},
          },
          { type: 'Feature', geometry: { type: 'MultiPoint', coordinates: [[4, 4]] }, properties: {} },
          {
            type: 'Feature',
            geometry: {
              type: 'Polygon',
              coordinates: [
                [
                  [5, 5],
                  [6, 5],
                  [5, 5],
                ],
              ],
            },
            properties: {},
          },
          { type: 'Feature', geometry: { type: 'MultiLineString', coordinates: [[[7, 7]]] }, properties: {} },
        ],
      }),
      [
        [2, 2],
        [3, 3],
        [7, 7],
      ],
    ],
    [
      "KML: a Polygon's rings and a lone LinearRing are left out of its LineStrings",
      '<kml><Placemark><Polygon><outerBoundaryIs><LinearRing><coordinates>1,1 2,1 1,1</coordinates></LinearRing>' +
        '</outerBoundaryIs></Polygon></Placemark><Placemark><LineString><coordinates>3,3 4,4</coordinates></LineString>' +
        '</Placemark><Placemark><LinearRing><coordinates>5,5 6,5 5,5</coordinates></LinearRing></Placemark></kml>',
      [
        [3, 3],
        [4, 4],
      ],
    ],
    [
      'GeoJSON of a Polygon only: its outline is the path',
      '{"type":"Polygon","coordinates":[[[5,5],[6,5],[5,5]]]}',
      [
        [5, 5],
        [5, 6],
        [5, 5],
      ],
    ],
    [
      "TCX: a course's lap ends and course points are left out of its track",
      `<TrainingCenterDatabase xmlns="${TCX_NS}"><Courses><Course><Lap><TotalTimeSeconds>1</TotalTimeSeconds>` +
        `<DistanceMeters>1</DistanceMeters>${tcxPos(1, 1, 'BeginPosition')}${tcxPos(4, 4, 'EndPosition')}</Lap>` +
        `<Track><Trackpoint>${tcxPos(2, 2)}</Trackpoint><Trackpoint>${tcxPos(3, 3)}</Trackpoint></Track>` +
        `<CoursePoint>${tcxPos(5, 5)}</CoursePoint></Course></Courses></TrainingCenterDatabase>`,
      [
        [2, 2],
        [3, 3],
      ],
    ],
    [
      'GPX of waypoints only: they are the path, in document order',
      '<gpx><wpt lat="3" lon="3"/><wpt lat="1" lon="1"/></gpx>',
      [
        [3, 3],
        [1, 1],
      ],
    ],
    [
      'KML of Points only: they are the path',
      '<kml><Placemark><Point><coordinates>1,1</coordinates></Point></Placemark>' +
        '<Placemark><Point><coordinates>2,2</coordinates></Point></Placemark></kml>',
      [
        [1, 1],
        [2, 2],
      ],
    ],
    [
      'TCX of course points only: they are the path',
      `<TrainingCenterDatabase xmlns="${TCX_NS}"><Courses><Course><CoursePoint>${tcxPos(1, 1)}</CoursePoint>` +
        `<CoursePoint>${tcxPos(2, 2)}</CoursePoint></Course></Courses></TrainingCenterDatabase>`,
      [
        [1, 1],
        [2, 2],
      ],
    ],
  ])('%s', (_, text, path) => {
    expect(pathOf(text)).toEqual(path);
  });

  it.each([
    ['GPX', '<gpx version="1.1"><metadata><name>empty</name></metadata></gpx>'],
    ['KML', '<kml><Document><name>empty</name></Document></kml>'],
    ['GeoJSON', '{"type":"FeatureCollection","features":[]}'],
    [
      'TCX',
      `<TrainingCenterDatabase xmlns="${TCX_NS}"><Activities><Activity><Lap><Track><Trackpoint><Time>t</Time></Trackpoint></Track></Lap></Activity></Activities></TrainingCenterDatabase>`,
    ],
  ])('refuses a %s file without coordinates with a 400 naming it', (format, text) => {
    expect(() => pathOf(text)).toThrow(
      new InvalidRequestError(
        `The ${format} file has no coordinates: a profile needs at least one point (a track, route, line or place).`,
      ),
    );
  });

  it('refuses a KMZ whose KML has no coordinates, naming the KMZ', () => {
    const kmz = zipSync({ 'doc.kml': strToU8('<kml><Document/></kml>') });
    expect(() => readTrackLocations(kmz, LIMITS)).toThrow(/^The KMZ file has no coordinates/);
  });
});

describe('coordinate tuples', () => {
  it('needs whitespace between tuples', () => {
    expect(tryParseCoordinateTuples('9.1,48.7,0 9.2,48.8,0', 'kml')).toHaveLength(2);
    expect(tryParseCoordinateTuples('9.1,48.7,09.2,48.8', 'kml')).toBeNull();
    expect(tryParseCoordinateTuples('9.1,48.7+9.2,48.8', 'kml')).toBeNull();
    expect(tryParseCoordinateTuples('9.1 48.7-9.2 48.8', 'gx')).toBeNull();
    expect(tryParseCoordinateTuples('9.1 48.7 0\t9.2 48.8', 'gx')).toHaveLength(2);
  });

  it('reads the last tuple up to the end of the text', () => {
    const tuples = tryParseCoordinateTuples('  9.1,48.7', 'kml');
    expect(tuples).toEqual([{ lon: 9.1, lat: 48.7, latEnd: 10, alt: null, end: 10 }]);
  });

  it('shows the offending text trimmed, whole up to 60 characters', () => {
    const sixty = `9.1,${'x'.repeat(56)}`;
    expect(() => parseCoordinateTuples(`  ${sixty}\n`, 'kml', () => 'line 2')).toThrow(
      `Unable to parse the coordinates at line 2: '${sixty}'.`,
    );
    expect(() => parseCoordinateTuples(`${sixty}y`, 'kml', () => 'line 2')).toThrow(
      `'${sixty.slice(0, 57)}...'`,
    );
  });
});

describe('edits that write heights', () => {
  const text = '0123456789';

  it('applies edits in document order whatever order they come in, inserting where start = end', () => {
    const edits = [
      { start: 8, end: 10, replacement: 'Z' },
      { start: 2, end: 4, replacement: 'ab' },
      { start: 2, end: 2, replacement: '+' },
    ];
    expect(applyEdits(text, edits)).toBe('01+ab4567Z');
  });

  it.each([
    [
      [
        { start: 2, end: 5, replacement: '' },
        { start: 4, end: 6, replacement: '' },
      ],
      'Overlapping or invalid edit [4, 6) at cursor 5.',
    ],
    [[{ start: 5, end: 4, replacement: '' }], 'Overlapping or invalid edit [5, 4) at cursor 0.'],
    [[{ start: 9, end: 11, replacement: '' }], 'Overlapping or invalid edit [9, 11) at cursor 0.'],
  ])('refuses overlapping or out-of-range edits %j (a bug, never a corrupted file)', (edits, message) => {
    expect(() => applyEdits(text, edits)).toThrow(new RangeError(message));
  });

  it('allows an edit that starts where the last ended', () => {
    const edits = [
      { start: 0, end: 5, replacement: 'a' },
      { start: 5, end: 10, replacement: 'b' },
    ];
    expect(applyEdits(text, edits)).toBe('ab');
  });
});
