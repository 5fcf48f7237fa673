/**
 * The GeoJSON reader: which positions are height slots (every geometry kind, collections, features without a
 * geometry), how a height is written (replaced, or inserted with the file's own separator), and the 400 a
 * malformed file gets, naming where.
 */
import {
  InvalidRequestError,
  PayloadTooLargeError,
  fillFileHeights,
  loadDatasetRegistry,
} from '../../../layers/elevation';
import { TooManyCoordinatesError } from '../../../layers/elevation/track/height-slot';
import { readGeoJson } from '../../../layers/elevation/track/geojson';
import { applyEdits } from '../../../layers/elevation/track/text-edits';

const options = { maxCoordinates: 100, absoluteAltitude: false };
const locations = (text: string) =>
  readGeoJson(text, options).slots.map((s) => [s.location.lat, s.location.lon]);

describe('readGeoJson', () => {
  it('finds the positions of every geometry kind, in collections and features, in document order', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', geometry: { type: 'Point', coordinates: [10, 50] }, properties: {} },
        { type: 'Feature', geometry: null, properties: { note: 'no geometry' } },
        {
          type: 'Feature',
          geometry: {
            type: 'GeometryCollection',
            geometries: [
              {
                type: 'LineString',
                coordinates: [
                  [11, 51],
                  [12, 52],
                ],
              },
              {
                type: 'MultiPolygon',
                coordinates: [
                  [
                    [
                      [13, 53],
                      [14, 54],
                      [13, 53],
                    ],
                  ],
                ],
              },
            ],
          },
        },
        'not an object',
      ],
    });
    expect(locations(text)).toEqual([
      [50, 10],
      [51, 11],
      [52, 12],
      [53, 13],
      [54, 14],
      [53, 13],
    ]);
  });

  it('replaces an existing z, and inserts a missing one with the file’s separator', () => {
    const text = '{"type": "LineString", "coordinates": [[10, 50, 7], [11,51]]}';
    const track = readGeoJson(text, options);
    expect(track.slots.map((s) => s.height)).toEqual([7, null]);
    const edits = track.slots.map((s, i) => s.write(String(100 + i)));
    expect(applyEdits(text, edits)).toBe(
      '{"type": "LineString", "coordinates": [[10, 50, 100], [11,51,101]]}',
    );
  });

  it('drops a placeholder z of 0 where there is no data, and keeps a real one', () => {
    const text = '{"type": "MultiPoint", "coordinates": [[10, 50, 0], [11, 51, 9]]}';
    const [zero, nine] = readGeoJson(text, options).slots;
    expect(
      applyEdits(
        text,
        [zero.clear()].filter((e) => e !== null),
      ),
    ).toBe('{"type": "MultiPoint", "coordinates": [[10, 50], [11, 51, 9]]}');
    expect(nine.clear()).toBeNull();
  });

  it.each([
    ['not JSON', '{"type": ', /The file is not valid JSON/],
    [
      'GeoJSON Text Sequences (RFC 8142: a record separator before each object)',
      '\u001e{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[9.1,48.7]}}\n\u001e{"type":"Feature","properties":{},"geometry":null}\n',
      /^The file is a GeoJSON Text Sequence \(RFC 8142, \.geojsons: one object after each record separator\), which is not read: send one FeatureCollection holding the features, e\.g\. made by ogr2ogr -f GeoJSON out\.geojson in\.geojsons\.$/,
    ],
    [
      'newline-delimited GeoJSON (one object a line)',
      '{"type":"Feature","properties":{},"geometry":{"type":"Point","coordinates":[9.1,48.7]}}\r\n{"type":"Feature","properties":{},"geometry":null}\n',
      /^The file is newline-delimited GeoJSON \(\.geojsonl, \.ndjson: one object a line\), which is not read: send one FeatureCollection holding the features, e\.g\. made by ogr2ogr -f GeoJSON out\.geojson in\.geojsonl\.$/,
    ],
    ['not an object with a type', '[1, 2]', /expected an object with a "type" member/],
    ['coordinates that are not an array', '{"type": "Point", "coordinates": "10,50"}', /is not an array/],
    [
      'a position of one number',
      '{"type": "Point", "coordinates": [10]}',
      /is not a position \[longitude, latitude\]/,
    ],
    ['a position of strings', '{"type": "Point", "coordinates": ["10", "50"]}', /is not a position/],
    [
      'a position with a string latitude',
      '{"type": "Point", "coordinates": [10, "50"]}',
      /is not a position/,
    ],
    [
      'a position with a null height',
      '{"type": "Point", "coordinates": [10, 50, null]}',
      /is not a position/,
    ],
    [
      'coordinates nested too deep',
      '{"type": "MultiPolygon", "coordinates": [[[[[10, 50]]]]]}',
      /nested deeper than any geometry allows/,
    ],
    [
      'a latitude out of range',
      '{"type": "Point", "coordinates": [10, 95]}',
      /Invalid latitude 95 at the position \[10,95\]/,
    ],
    [
      'a longitude JSON reads as Infinity, named as the file writes it (not null)',
      '{"type": "Point", "coordinates": [1e400, 48.7]}',
      /^Invalid longitude Infinity at the position \[1e400,48\.7\] \(offset 33\)/,
    ],
    [
      // Kept under overwrite=false, it was counted as a height the file has; OGR refuses the file.
      'a height JSON reads as Infinity, naming the position as the file writes it',
      '{"type":"LineString","coordinates":[[9.1,48.7,0],[ 9.12 , 48.72 , 1e400 ]]}',
      /^The GeoJSON position \[9\.12,48\.72,1e400\] \(offset 49\) has a height of 1e400, beyond any number JSON readers hold \(they read it as Infinity\): write the height it should have, or leave it out\.$/,
    ],
    [
      'a height of -1e999',
      '{"type":"Point","coordinates":[9.1,48.7,-1e999]}',
      /^The GeoJSON position \[9\.1,48\.7,-1e999\] \(offset 30\) has a height of -1e999, beyond/,
    ],
    [
      'collections nested 17 deep',
      '{"type":"GeometryCollection","geometries":['.repeat(17) +
        '{"type":"Point","coordinates":[1,1]}' +
        ']}'.repeat(17),
      /nests objects too deeply/,
    ],
  ])('refuses %s with a 400 saying what', (_what, text, message) => {
    expect(() => readGeoJson(text, options)).toThrow(InvalidRequestError);
    expect(() => readGeoJson(text, options)).toThrow(message);
  });

  it.each([
    ['a type that is not text', '{"type": 5}'],
    ['null', 'null'],
    ['a string', '"Point"'],
    ['an array that holds a "type" pair', '[["type", "Point"], ["coordinates", [9.1, 48.7]]]'],
  ])('refuses %s as not GeoJSON', (_what, text) => {
    expect(() => readGeoJson(text, options)).toThrow(
      new InvalidRequestError('The file is not GeoJSON: expected an object with a "type" member.'),
    );
  });

  it('reads collections nested 16 deep, the most it allows', () => {
    const text =
      '{"type":"GeometryCollection","geometries":['.repeat(16) +
      '{"type":"Point","coordinates":[1,2]}' +
      ']}'.repeat(16);
    expect(readGeoJson(text, options).slots.map((s) => s.location)).toEqual([{ lat: 2, lon: 1 }]);
  });

  it('has no positions, and no error, for a feature without geometry or a geometry without coordinates', () => {
    const text = JSON.stringify({
      type: 'FeatureCollection',
      features: [
        { type: 'Feature', properties: {} },
        { type: 'Feature', geometry: null },
        { type: 'Feature', geometry: { type: 'Point' } },
        { type: 'Feature', geometry: { type: 'Point', coordinates: [3, 4] } },
      ],
    });
    expect(readGeoJson(text, options).slots.map((s) => s.location)).toEqual([{ lat: 4, lon: 3 }]);
  });

  it('reads a 16-deep nesting through features and their geometries too, and refuses one level more', () => {
    const nest = (levels: number) => {
      let node: object = { type: 'Point', coordinates: [1, 2] };
      for (let i = 0; i < levels; i++) {
        node =
          i % 3 === 0
            ? { type: 'Feature', geometry: node }
            : i % 3 === 1
              ? { type: 'FeatureCollection', features: [node] }
              : { type: 'GeometryCollection', geometries: [node] };
      }
      return JSON.stringify(node);
    };
    expect(readGeoJson(nest(16), options).slots).toHaveLength(1);
    expect(() => readGeoJson(nest(17), options)).toThrow(
      new InvalidRequestError('The GeoJSON file nests objects too deeply.'),
    );
  });

  it('answers "nested too deeply" for arrays too deep to walk, which JSON.parse accepts', () => {
    const text = `{"type":"Point","coordinates":${'['.repeat(100_000)}${']'.repeat(100_000)}}`;
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 100_000 })).toThrow(
      new InvalidRequestError('The GeoJSON file is nested too deeply.'),
    );
  });

  it('has no positions, and no error, for empty coordinates and collections without members', () => {
    for (const text of [
      '{"type": "LineString", "coordinates": []}',
      '{"type": "MultiLineString", "coordinates": [[], []]}',
      '{"type": "FeatureCollection"}',
      '{"type": "GeometryCollection"}',
      '{"type": "FeatureCollection", "features": [1, null, [["coordinates", [9.1, 48.7]]]]}',
      '{"type": "GeometryCollection", "geometries": ["Point", [["type", "Point"], ["coordinates", [9.1, 48.7]]]]}',
    ]) {
      expect(readGeoJson(text, options).slots).toEqual([]);
    }
  });

  it('keeps a z of 0 followed by a fourth value (it is not a placeholder there)', () => {
    const [slot] = readGeoJson('{"type": "Point", "coordinates": [9.1, 48.7, 0, 7]}', options).slots;
    expect(slot.height).toBe(0);
    expect(slot.clear()).toBeNull();
  });

  it('inserts a height after a latitude separated by a newline and indentation, as the file has it', () => {
    const text = '{"type": "Point", "coordinates": [\n  9.1,\n  48.7\n]}';
    const [slot] = readGeoJson(text, options).slots;
    expect(applyEdits(text, [slot.write('512')])).toBe(
      '{"type": "Point", "coordinates": [\n  9.1,\n  48.7,\n  512\n]}',
    );
  });

  it('stops at the coordinate limit', () => {
    const text = JSON.stringify({ type: 'MultiPoint', coordinates: Array.from({ length: 5 }, () => [1, 1]) });
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 4 })).toThrow(
      new TooManyCoordinatesError(4),
    );
    expect(readGeoJson(text, { ...options, maxCoordinates: 5 }).slots).toHaveLength(5);
  });
});

describe('readGeoJson: only RFC 7946’s types', () => {
  it.each([
    ['{"type":"Topology","objects":{},"arcs":[[[9.1,48.7]]]}', '{"type":"Topology"', 'has type "Topology"'],
    [
      '{"type":"Feature","geometry":{"type":"Linestring","coordinates":[[9.1,48.7]]}}',
      '{"type":"Linestring"',
      'has type "Linestring"',
    ],
    ['{"type":"Feature","geometry":{"coordinates":[9.1,48.7]}}', '{"coordinates"', 'has no type'],
  ])('refuses %s, whose coordinates would be left without heights unsaid', (text, object, what) => {
    expect(() => readGeoJson(text, options)).toThrow(
      new InvalidRequestError(
        `The GeoJSON object at offset ${text.indexOf(object)} ${what}, none of RFC 7946's: Feature, FeatureCollection, GeometryCollection, Point, MultiPoint, LineString, MultiLineString, Polygon, MultiPolygon.`,
      ),
    );
  });

  it.each([
    [
      '{"type":"Feature","geometry":{"type":"Point","coordinates":[9.1,48.7]},"geometry":{"type":"Point","coordinates":[9.2,48.8]}}',
      '"geometry"',
      '"geometry":{',
    ],
    ['{"type":"Point","coordinates":[9.1,48.7],"coordinates":[9.2,48.8]}', '"coordinates"', '"coordinates"'],
    ['{"type":"FeatureCollection","features":[],"features":[]}', '"features"', '"features"'],
    ['{"type":"Point","type":"LineString","coordinates":[9.1,48.7]}', '"type"', '"type"'],
  ])(
    'refuses %s: JSON readers keep the last of a repeated member, so which is meant is unclear',
    (text, key, member) => {
      const first = text.indexOf(member);
      const second = text.indexOf(member, first + 1);
      expect(() => readGeoJson(text, options)).toThrow(
        new InvalidRequestError(
          `The GeoJSON object at offset 0 has the member ${key} twice, at offsets ${first} and ${second}: JSON readers keep only one of them, so which is meant is unclear.`,
        ),
      );
    },
  );

  it('reads a repeated member it does not read (in properties, a foreign member)', () => {
    const text =
      '{"type":"Feature","properties":{"a":1,"a":2},"x":1,"x":2,"geometry":{"type":"Point","coordinates":[9.1,48.7]}}';
    expect(locations(text)).toHaveLength(1);
  });

  it('reads a Feature without geometry (null) as no coordinates', () => {
    expect(readGeoJson('{"type":"Feature","geometry":null,"properties":{}}', options).slots).toEqual([]);
  });
});

describe('readGeoJson’s bounds, checked before the file is parsed', () => {
  const feature = (coordinates: unknown) => ({
    type: 'Feature',
    bbox: [0, 0, 1, 1],
    properties: { ids: [1, 2], name: 'a' },
    geometry: { type: 'MultiLineString', coordinates },
  });
  const lines = [
    [
      [9.1, 48.7],
      [9.2, 48.8],
    ],
    [[9.3, 48.9, 300]],
  ];

  it('counts positions in coordinates only, at every depth: bbox and properties’ number arrays are not positions', () => {
    const text = JSON.stringify({ type: 'FeatureCollection', features: [feature(lines), feature(lines)] });
    expect(readGeoJson(text, { ...options, maxCoordinates: 6 }).slots).toHaveLength(6);
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 5 })).toThrow(
      new TooManyCoordinatesError(5),
    );
  });

  it.each([
    ['a root array of positions', '[[1,1],[2,2],[3,3]]'],
    ['a root number', '5'],
  ])('refuses %s as not GeoJSON, not as too many coordinates', (_, text) => {
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 2 })).toThrow(
      new InvalidRequestError('The file is not GeoJSON: expected an object with a "type" member.'),
    );
  });

  it('does not count a coordinates member inside properties: it is free data, not a geometry', () => {
    const text = JSON.stringify({
      ...feature(lines),
      properties: { coordinates: [[1, 2]], route: { coordinates: [[3, 4]] } },
    });
    expect(readGeoJson(text, { ...options, maxCoordinates: 3 }).slots).toHaveLength(3);
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 2 })).toThrow(
      new TooManyCoordinatesError(2),
    );
  });

  it('refuses a file of more JSON values than 32 per coordinate with a 413, however few its positions', () => {
    const text = JSON.stringify({ ...feature([[[9.1, 48.7]]]), properties: { samples: Array(300).fill(0) } });
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 9 })).toThrow(PayloadTooLargeError);
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 9 })).toThrow(
      'The GeoJSON file has more than 288 JSON values (numbers, strings, objects, arrays …), the most read for MAX_FILE_COORDINATES=9 (32 per coordinate): drop the properties it does not need, or split it.',
    );
    expect(readGeoJson(text, { ...options, maxCoordinates: 10 }).slots).toHaveLength(1); // 320: enough
  });

  // A Point (5 values: the object, its type, the coordinates array and two numbers) with properties {"a": [...]}
  // (2 more): 7 + n values, where 32 (MAX_FILE_COORDINATES = 1) are read.
  const pointWith = (item: string, n: number) =>
    `{"type":"Point","coordinates":[9.1,48.7],"properties":{"a":[${Array(n).fill(item).join(',')}]}}`;

  it.each([
    ['arrays', '[]'],
    ['objects', '{}'],
    ['numbers', '0'],
    ['strings', '"x"'],
  ])('counts %s as values: exactly 32 per coordinate are read, one more is a 413', (_, item) => {
    const one = { ...options, maxCoordinates: 1 };
    expect(readGeoJson(pointWith(item, 25), one).slots).toHaveLength(1);
    expect(() => readGeoJson(pointWith(item, 26), one)).toThrow(PayloadTooLargeError);
  });

  it('counts only arrays of numbers as positions: one of strings is not a position, whatever the limit', () => {
    const text = '{"type":"MultiPoint","coordinates":[["a","b"],["c","d"]]}';
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 1 })).toThrow(/is not a position/);
  });

  it('refuses a position over the limit before it meets a syntax error further on', () => {
    const text = `{"type":"MultiPoint","coordinates":[[1,1],[2,2],[3,3] oops`;
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 2 })).toThrow(
      new TooManyCoordinatesError(2),
    );
    expect(() => readGeoJson(text, { ...options, maxCoordinates: 3 })).toThrow(/^The file is not valid JSON/);
  });
});

describe('a GeoJSON bbox gets the heights its positions end up with (RFC 7946 section 5)', () => {
  const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
  // plane-point answers 1036 at 49.9,10.1 and 1078 at 49.8,10.2 (nearest); 0,0 has no data.
  const fill = async (geojson: unknown, overwrite = true) =>
    new TextDecoder().decode(
      (
        await fillFileHeights(
          new TextEncoder().encode(JSON.stringify(geojson)),
          registry.get('plane-point'),
          { interpolation: 'nearest', overwrite, absoluteAltitude: false },
          { maxCoordinates: 100, maxUnzippedBytes: 1e6 },
        )
      ).bytes,
    );
  const line = (coordinates: number[][], bbox?: number[]) => ({
    type: 'Feature',
    ...(bbox ? { bbox } : {}),
    properties: {},
    geometry: { type: 'LineString', coordinates },
  });

  it('makes a 2D bbox 3D with the lowest and highest height, a 3D one rewritten, each over its own positions', async () => {
    const text = await fill({
      type: 'FeatureCollection',
      bbox: [10.1, 49.8, 10.2, 49.9],
      features: [
        line(
          [
            [10.1, 49.9],
            [10.2, 49.8],
          ],
          [10.1, 49.8, 0, 10.2, 49.9, 0],
        ),
        line([[10.1, 49.9, 0]]),
      ],
    });
    expect(JSON.parse(text)).toMatchObject({
      bbox: [10.1, 49.8, 1036, 10.2, 49.9, 1078],
      features: [
        {
          bbox: [10.1, 49.8, 1036, 10.2, 49.9, 1078],
          geometry: {
            coordinates: [
              [10.1, 49.9, 1036],
              [10.2, 49.8, 1078],
            ],
          },
        },
        { geometry: { coordinates: [[10.1, 49.9, 1036]] } },
      ],
    });
  });

  it('counts kept heights and leaves out positions without one; a bbox with no height under it is left', async () => {
    const text = await fill(
      {
        type: 'FeatureCollection',
        features: [
          line(
            [
              [10.1, 49.9, 2000],
              [0, 0, 0],
            ],
            [0, 0, 10.1, 49.9],
          ),
          line([[0, 0]], [0, 0, 0, 0]),
          line([[10.2, 49.8]], [1, 2, 3]), // not a bbox RFC 7946 knows: left
          line([[10.2, 49.8]], [1, 2, '3', 4] as unknown as number[]),
          { ...line([[10.2, 49.8]]), bbox: 'x' },
          { ...line([[10.2, 49.8]]), bbox: { w: 1, s: 2, e: 3, n: 4 } },
          { type: 'Feature', bbox: [1, 2, 3, 4], properties: {}, geometry: null },
        ],
      },
      false,
    );
    const features = (JSON.parse(text) as { features: { bbox: number[] }[] }).features;
    expect(features.map((f) => f.bbox)).toEqual([
      [0, 0, 2000, 10.1, 49.9, 2000],
      [0, 0, 0, 0],
      [1, 2, 3],
      [1, 2, '3', 4],
      'x',
      { w: 1, s: 2, e: 3, n: 4 },
      [1, 2, 3, 4],
    ]);
    expect(text).toContain('"bbox":[0,0,2000,10.1,49.9,2000]'); // the file's own separator: none
  });
});
