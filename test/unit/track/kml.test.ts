/**
 * The KML reader: <coordinates> and <gx:coord> tuples are height slots, and with absoluteAltitude every
 * geometry's altitudeMode becomes `absolute` — replaced, converted from gx:altitudeMode, or inserted where the
 * schema puts it — so Google Earth shows the heights instead of clamping to the ground.
 */
import { InvalidRequestError, fillFileHeights, loadDatasetRegistry } from '../../../layers/elevation';
import { TooManyCoordinatesError } from '../../../layers/elevation/track/height-slot';
import { readKml } from '../../../layers/elevation/track/kml';
import { applicableEdits } from '../../../layers/elevation/track/parsed-track';
import { applyEdits } from '../../../layers/elevation/track/text-edits';
import { lineAt } from '../../../layers/elevation/track/xml-scan';
import type * as XmlScan from '../../../layers/elevation/track/xml-scan';

// The real lineAt, watched: how often a read computes a line number.
jest.mock('../../../layers/elevation/track/xml-scan', () => {
  const actual = jest.requireActual<typeof XmlScan>('../../../layers/elevation/track/xml-scan');
  return { ...actual, lineAt: jest.fn(actual.lineAt) };
});

const KML = (body: string) =>
  `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>${body}</Placemark></kml>`;
const absolute = (text: string) => {
  const track = readKml(text, { maxCoordinates: 100, absoluteAltitude: true });
  return applyEdits(
    text,
    applicableEdits(track, () => true),
  );
};

describe('readKml', () => {
  it("drops a tuple's placeholder 0 where there is no data; keeps a real height, and a gx:coord's three values", () => {
    const text = KML(
      '<LineString><coordinates>10,50,0 11,51,0.0\n12,52,305 13,53</coordinates></LineString>' +
        '<gx:Track><when>2026-01-01T00:00:00Z</when><gx:coord>12 52 0</gx:coord></gx:Track>',
    );
    const slots = readKml(text, { maxCoordinates: 100, absoluteAltitude: false }).slots;
    expect(slots.map((s) => s.height)).toEqual([0, 0, 305, null, 0]);
    expect(
      applyEdits(
        text,
        slots.flatMap((s) => s.clear() ?? []),
      ),
    ).toBe(
      KML(
        '<LineString><coordinates>10,50 11,51\n12,52,305 13,53</coordinates></LineString>' +
          '<gx:Track><when>2026-01-01T00:00:00Z</when><gx:coord>12 52 0</gx:coord></gx:Track>',
      ),
    );
  });

  it('reads <coordinates> tuples and <gx:coord> positions as slots', () => {
    const text = KML(
      '<LineString><coordinates>10,50,0 11,51</coordinates></LineString>' +
        '<gx:Track><when>2026-01-01T00:00:00Z</when><gx:coord>12 52 7</gx:coord></gx:Track>',
    );
    const slots = readKml(text, { maxCoordinates: 100, absoluteAltitude: false }).slots;
    expect(slots.map((s) => [s.location.lat, s.location.lon, s.height])).toEqual([
      [50, 10, 0],
      [51, 11, null],
      [52, 12, 7],
    ]);
  });

  it('sets an existing altitudeMode to absolute', () => {
    expect(
      absolute(
        KML('<Point><altitudeMode>clampToGround</altitudeMode><coordinates>10,50</coordinates></Point>'),
      ),
    ).toBe(KML('<Point><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></Point>'));
  });

  it('sets a self-closed <altitudeMode/> to absolute by writing it whole', () => {
    expect(absolute(KML('<Point><altitudeMode/><coordinates>10,50</coordinates></Point>'))).toBe(
      KML('<Point><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></Point>'),
    );
    const prefixed =
      '<k:kml xmlns:k="http://www.opengis.net/kml/2.2"><k:Placemark><k:Point><k:altitudeMode /><k:coordinates>10,50</k:coordinates></k:Point></k:Placemark></k:kml>';
    expect(absolute(prefixed)).toBe(
      prefixed.replace('<k:altitudeMode />', '<k:altitudeMode>absolute</k:altitudeMode>'),
    );
  });

  it('turns gx:altitudeMode (which has no absolute) into a plain altitudeMode', () => {
    expect(
      absolute(
        KML(
          '<LineString><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><coordinates>10,50</coordinates></LineString>',
        ),
      ),
    ).toBe(
      KML('<LineString><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></LineString>'),
    );
    // with a plain one beside it, the gx one is dropped
    expect(
      absolute(
        KML(
          '<Point><altitudeMode>clampToGround</altitudeMode><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><coordinates>10,50</coordinates></Point>',
        ),
      ),
    ).toBe(KML('<Point><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></Point>'));
  });

  it('inserts altitudeMode before <coordinates> with the file’s indentation, and once per Polygon (not its rings)', () => {
    expect(absolute(KML('<Point>\n  <coordinates>10,50</coordinates>\n</Point>'))).toBe(
      KML('<Point>\n  <altitudeMode>absolute</altitudeMode>\n  <coordinates>10,50</coordinates>\n</Point>'),
    );
    const polygon = KML(
      '<Polygon><outerBoundaryIs><LinearRing><coordinates>10,50 11,50 10,51 10,50</coordinates></LinearRing></outerBoundaryIs></Polygon>',
    );
    expect(absolute(polygon)).toBe(
      KML(
        '<Polygon><altitudeMode>absolute</altitudeMode><outerBoundaryIs><LinearRing><coordinates>10,50 11,50 10,51 10,50</coordinates></LinearRing></outerBoundaryIs></Polygon>',
      ),
    );
  });

  it('inserts altitudeMode before </…> in a geometry without coordinates, and leaves self-closed ones alone', () => {
    expect(absolute(KML('<Point><extrude>1</extrude></Point><LineString/>'))).toBe(
      KML('<Point><extrude>1</extrude><altitudeMode>absolute</altitudeMode></Point><LineString/>'),
    );
  });

  it('ignores coordinates, geometries and altitude modes of other namespaces', () => {
    const text = KML(
      '<x:LineString xmlns:x="urn:other"><x:coordinates>10,50</x:coordinates></x:LineString>' +
        '<LineString><x:altitudeMode xmlns:x="urn:other">relativeToGround</x:altitudeMode><coordinates>11,51</coordinates></LineString>',
    );
    const track = readKml(text, { maxCoordinates: 100, absoluteAltitude: true });
    expect(track.slots.map((s) => s.location)).toEqual([{ lat: 51, lon: 11 }]);
    // The KML LineString gets its own altitudeMode; the foreign one is left as it is.
    expect(
      applyEdits(
        text,
        applicableEdits(track, () => true),
      ),
    ).toBe(
      KML(
        '<x:LineString xmlns:x="urn:other"><x:coordinates>10,50</x:coordinates></x:LineString>' +
          '<LineString><x:altitudeMode xmlns:x="urn:other">relativeToGround</x:altitudeMode><altitudeMode>absolute</altitudeMode><coordinates>11,51</coordinates></LineString>',
      ),
    );
  });

  it('takes only a geometry’s own altitudeMode, not one deeper inside it', () => {
    const text = KML(
      '<Point><ExtendedData><altitudeMode>clampToGround</altitudeMode></ExtendedData><coordinates>10,50</coordinates></Point>',
    );
    expect(absolute(text)).toBe(
      KML(
        '<Point><ExtendedData><altitudeMode>clampToGround</altitudeMode></ExtendedData><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></Point>',
      ),
    );
  });

  it('gives a LinearRing of its own an altitudeMode, and none to the inner rings of a Polygon', () => {
    expect(absolute(KML('<LinearRing><coordinates>10,50 11,50 10,50</coordinates></LinearRing>'))).toBe(
      KML(
        '<LinearRing><altitudeMode>absolute</altitudeMode><coordinates>10,50 11,50 10,50</coordinates></LinearRing>',
      ),
    );
    const ring = '<LinearRing><coordinates>10,50 11,50 10,50</coordinates></LinearRing>';
    const polygon = KML(
      `<Polygon><outerBoundaryIs>${ring}</outerBoundaryIs><innerBoundaryIs>${ring}</innerBoundaryIs></Polygon>`,
    );
    expect(absolute(polygon)).toBe(
      KML(
        `<Polygon><altitudeMode>absolute</altitudeMode><outerBoundaryIs>${ring}</outerBoundaryIs><innerBoundaryIs>${ring}</innerBoundaryIs></Polygon>`,
      ),
    );
  });

  it('reads the KML 2.0 and 2.1 namespaces of older Google Earth files', () => {
    for (const ns of ['http://earth.google.com/kml/2.0', 'http://earth.google.com/kml/2.1']) {
      const text = `<kml xmlns="${ns}"><Placemark><Point><coordinates>10,50,3</coordinates></Point></Placemark></kml>`;
      expect(
        readKml(text, { maxCoordinates: 10, absoluteAltitude: false }).slots.map((s) => s.height),
      ).toEqual([3]);
    }
  });

  it.each([
    ['with a trailing slash, as some apps write it', 'http://www.opengis.net/kml/2.2/'],
    ['over https', 'https://www.opengis.net/kml/2.2'],
    ['of another vendor', 'urn:some-app:kml'],
  ])(
    'reads the geometries of a <kml> whose default namespace is one %s, as OGR and GPSBabel do, and gx: as gx:',
    (_what, namespace) => {
      const text =
        `<kml xmlns="${namespace}" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>` +
        '<LineString><coordinates>10,50,300 11,51</coordinates></LineString>' +
        '<gx:Track><gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode><when>2026-01-01T00:00:00Z</when>' +
        '<gx:coord>12 52 7</gx:coord></gx:Track></Placemark></kml>';
      const track = readKml(text, { maxCoordinates: 100, absoluteAltitude: true });
      expect(track.slots.map((s) => [s.location.lat, s.height, s.onPath])).toEqual([
        [50, 300, true],
        [51, null, true],
        [52, 7, true],
      ]);
      // The gx:Track's mode is read as gx:'s (a sea-floor group, never converted); the LineString gets one.
      expect(track.relativeGroups?.map((g) => g.reference)).toEqual(['seaFloor']);
      expect(absolute(text)).toContain(
        '<LineString><altitudeMode>absolute</altitudeMode><coordinates>10,50,300 11,51</coordinates>',
      );
    },
  );

  it('still takes no geometry of an extension namespace under a <kml> of an unusual one, nor gx:’s as KML’s', () => {
    const text =
      '<kml xmlns="http://www.opengis.net/kml/2.2/" xmlns:x="urn:other" xmlns:gx="http://www.google.com/kml/ext/2.2">' +
      '<Placemark><x:LineString><x:coordinates>10,50</x:coordinates></x:LineString>' +
      '<gx:LineString><gx:coordinates>11,51</gx:coordinates></gx:LineString>' +
      '<Point><coordinates>12,52,5</coordinates></Point></Placemark></kml>';
    const { slots } = readKml(text, { maxCoordinates: 100, absoluteAltitude: false });
    expect(slots.map((s) => [s.location.lat, s.height])).toEqual([[52, 5]]);
  });

  it.each([
    [
      'a <coordinates> tuple',
      '<LineString><coordinates>10,50,3\n11,51,1e400</coordinates></LineString>',
      'coordinate 2 at line 1',
      '1e400',
    ],
    [
      'a gx:coord',
      '<gx:Track>\n<gx:coord>12 52 -1e999</gx:coord></gx:Track>',
      'coordinate 1 at line 2',
      '-1e999',
    ],
  ])(
    'refuses %s whose height is beyond the double range (OGR and GPSBabel read it as inf), naming it and its line',
    (_what, body, where, value) => {
      const text = KML(body);
      const read = () => readKml(text, { maxCoordinates: 100, absoluteAltitude: false });
      expect(read).toThrow(InvalidRequestError);
      expect(read).toThrow(
        `The ${where} holds a height of ${value}, a number beyond any height readers can hold (OGR and GPSBabel read it as infinity): write the height it should have, or leave it out.`,
      );
    },
  );

  it('reads coordinates written as one CDATA section, and writes the heights inside it, as OGR and GPSBabel read them', () => {
    const text = KML(
      '<LineString><coordinates>\n<![CDATA[10,50,0 11,51]]>\n</coordinates></LineString>' +
        '<gx:Track><gx:coord><![CDATA[12 52 0]]></gx:coord></gx:Track>',
    );
    const { slots } = readKml(text, { maxCoordinates: 100, absoluteAltitude: false });
    expect(slots.map((s) => [s.location.lat, s.height])).toEqual([
      [50, 0],
      [51, null],
      [52, 0],
    ]);
    expect(
      applyEdits(
        text,
        slots.map((s) => s.write('7')),
      ),
    ).toBe(
      KML(
        '<LineString><coordinates>\n<![CDATA[10,50,7 11,51,7]]>\n</coordinates></LineString>' +
          '<gx:Track><gx:coord><![CDATA[12 52 7]]></gx:coord></gx:Track>',
      ),
    );
  });

  it.each([
    ['a root that is not <kml>', '<gpx version="1.1"/>', /its root element is <gpx>, not <kml>/],
    [
      'coordinates partly in a CDATA section',
      KML('<Point><coordinates>10,<![CDATA[50]]></coordinates></Point>'),
      /^The coordinates at line 1 contain markup \(a comment, entity reference, or more than one CDATA section or text beside one\): write them as plain text\.$/,
    ],
    [
      'markup inside coordinates',
      KML('<Point><coordinates>10,50<!-- x --></coordinates></Point>'),
      /contain markup/,
    ],
    [
      'a latitude out of range',
      KML('<Point><coordinates>10,95</coordinates></Point>'),
      /Invalid latitude 95 at coordinate 1 at line 1/,
    ],
  ])('refuses %s with a 400 saying what', (_what, text, message) => {
    expect(() => readKml(text, { maxCoordinates: 100, absoluteAltitude: false })).toThrow(
      InvalidRequestError,
    );
    expect(() => readKml(text, { maxCoordinates: 100, absoluteAltitude: false })).toThrow(message);
  });

  it('gives a gx:Track a plain altitudeMode, and a prefixed geometry a prefixed one', () => {
    expect(
      absolute(KML('<gx:Track><when>2026-01-01T00:00:00Z</when><gx:coord>12 52 7</gx:coord></gx:Track>')),
    ).toBe(
      KML(
        '<gx:Track><altitudeMode>absolute</altitudeMode><when>2026-01-01T00:00:00Z</when><gx:coord>12 52 7</gx:coord></gx:Track>',
      ),
    );
    const prefixed = (point: string) =>
      `<k:kml xmlns:k="http://www.opengis.net/kml/2.2"><k:Placemark>${point}</k:Placemark></k:kml>`;
    expect(absolute(prefixed('<k:Point><k:coordinates>10,50</k:coordinates></k:Point>'))).toBe(
      prefixed(
        '<k:Point><k:altitudeMode>absolute</k:altitudeMode><k:coordinates>10,50</k:coordinates></k:Point>',
      ),
    );
  });

  it("makes a geometry absolute only if each of its own points ends with a height, a Polygon's rings included", () => {
    const text = KML(
      '<Point><coordinates>10,50</coordinates></Point>' + // slot 0
        '<Polygon><outerBoundaryIs><LinearRing><coordinates>10,50 11,50 10,51 10,50</coordinates></LinearRing></outerBoundaryIs>' + // 1-4
        '<innerBoundaryIs><LinearRing><coordinates>10.1,50.1 10.2,50.1 10.1,50.1</coordinates></LinearRing></innerBoundaryIs></Polygon>' + // 5-7
        '<LineString><coordinates>10,50 11,51</coordinates></LineString>' + // 8-9
        '<gx:Track><gx:coord>10 50 0</gx:coord></gx:Track>', // 10
    );
    const track = readKml(text, { maxCoordinates: 100, absoluteAltitude: true });
    expect(track.slots).toHaveLength(11);
    const absoluteWithout = (missing: number[]) => {
      const out = applyEdits(
        text,
        applicableEdits(track, (i) => !missing.includes(i)),
      );
      return ['Point', 'Polygon', 'LineString', 'gx:Track'].filter((g) =>
        out.includes(`<${g}><altitudeMode>absolute</altitudeMode>`),
      );
    };
    expect(absoluteWithout([])).toEqual(['Point', 'Polygon', 'LineString', 'gx:Track']);
    expect(absoluteWithout([0])).toEqual(['Polygon', 'LineString', 'gx:Track']);
    expect(absoluteWithout([1])).toEqual(['Point', 'LineString', 'gx:Track']);
    expect(absoluteWithout([7])).toEqual(['Point', 'LineString', 'gx:Track']);
    expect(absoluteWithout([8])).toEqual(['Point', 'Polygon', 'gx:Track']);
    expect(absoluteWithout([9, 10])).toEqual(['Point', 'Polygon']);
  });

  it('through fillFileHeights, leaves a geometry whose point has no data and no height (or a 0) as it was', async () => {
    const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    // 49.9,10.1 is in plane-point; 0,0 is not.
    const text = KML(
      '<LineString><coordinates>10.1,49.9 0,0</coordinates></LineString>' +
        '<LineString><coordinates>10.1,49.9 0,0,0</coordinates></LineString>' +
        '<LineString><coordinates>10.1,49.9 0,0,350</coordinates></LineString>' +
        '<LineString><coordinates>10.1,49.9</coordinates></LineString>',
    );
    const filled = await fillFileHeights(
      new TextEncoder().encode(text),
      registry.get('plane-point'),
      { interpolation: 'nearest', overwrite: true, absoluteAltitude: true },
      { maxCoordinates: 100, maxUnzippedBytes: 1e6 },
    );
    const lines = new TextDecoder().decode(filled.bytes).match(/<LineString>.*?<\/LineString>/g);
    expect(lines).toEqual([
      '<LineString><coordinates>10.1,49.9,1036 0,0</coordinates></LineString>',
      '<LineString><coordinates>10.1,49.9,1036 0,0</coordinates></LineString>',
      '<LineString><altitudeMode>absolute</altitudeMode><coordinates>10.1,49.9,1036 0,0,350</coordinates></LineString>',
      '<LineString><altitudeMode>absolute</altitudeMode><coordinates>10.1,49.9,1036</coordinates></LineString>',
    ]);
  });

  it('converts a relativeToGround geometry whole (terrain + offset, absolute) or leaves it as it is', async () => {
    const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    // plane-point answers 1036 at 49.9,10.1; 0,0 has no data. The relative altitudes are metres above the ground.
    const text = KML(
      '<Point><altitudeMode>relativeToGround</altitudeMode><coordinates>10.1,49.9,50</coordinates></Point>' +
        '<Point><coordinates>0,0</coordinates></Point>' +
        '<LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>10.1,49.9,0 10.1,49.9</coordinates></LineString>' +
        '<Point><coordinates>10.1,49.9,350</coordinates></Point>' +
        '<LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>10.1,49.9,25 0,0,0</coordinates></LineString>' +
        '<Point><gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode><coordinates>10.1,49.9,30</coordinates></Point>' +
        '<Point><coordinates>10.1,49.9,0</coordinates></Point>',
    );
    for (const overwrite of [true, false]) {
      for (const absoluteAltitude of [false, true]) {
        const filled = await fillFileHeights(
          new TextEncoder().encode(text),
          registry.get('plane-point'),
          { interpolation: 'nearest', overwrite, absoluteAltitude },
          { maxCoordinates: 100, maxUnzippedBytes: 1e6 },
        );
        const geometries = new TextDecoder().decode(filled.bytes).match(/<(Point|LineString)>.*?<\/\1>/g);
        const mode = absoluteAltitude ? '<altitudeMode>absolute</altitudeMode>' : '';
        expect(geometries).toEqual([
          // Where Google Earth drew it: 50 m above the 1036 m terrain.
          '<Point><altitudeMode>absolute</altitudeMode><coordinates>10.1,49.9,1086</coordinates></Point>',
          '<Point><coordinates>0,0</coordinates></Point>',
          '<LineString><altitudeMode>absolute</altitudeMode><coordinates>10.1,49.9,1036 10.1,49.9,1036</coordinates></LineString>',
          // A height of the file's own, next to relative geometries: overwrite=false keeps it as usual.
          `<Point>${mode}<coordinates>10.1,49.9,${overwrite ? 1036 : 350}</coordinates></Point>`,
          // A point without data: the terrain under it is unknown, so the geometry stays relative, untouched.
          '<LineString><altitudeMode>relativeToGround</altitudeMode><coordinates>10.1,49.9,25 0,0,0</coordinates></LineString>',
          // Above the sea floor: the dataset gives the terrain, not the sea floor.
          '<Point><gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode><coordinates>10.1,49.9,30</coordinates></Point>',
          `<Point>${mode}<coordinates>10.1,49.9,1036</coordinates></Point>`,
        ]);
        expect(filled.report).toMatchObject(
          overwrite
            ? { coordinates: 9, filled: 5, nodata: 2, kept: 2 }
            : { coordinates: 9, filled: 4, nodata: 2, kept: 3 },
        );
      }
    }
  });

  it("gives a gx:Track without a mode of its own its gx:MultiTrack's mode (as Google's My Tracks wrote them)", async () => {
    const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    const track = (alt: number, mode = '') =>
      `<gx:Track>${mode}<when>2026-01-01T00:00:00Z</when><gx:coord>10.1 49.9 ${alt}</gx:coord></gx:Track>`;
    const text = KML(
      '<gx:MultiTrack><altitudeMode>relativeToGround</altitudeMode><gx:interpolate>1</gx:interpolate>' +
        // Inherits relativeToGround: 20 m above the 1036 m terrain, converted whole.
        track(20) +
        // Its own mode wins over the MultiTrack's: a height, filled as usual.
        track(500, '<altitudeMode>absolute</altitudeMode>') +
        '</gx:MultiTrack>' +
        // A MultiTrack's mode does not reach a Track that is not directly inside it, nor a Track after it.
        '<gx:MultiTrack><altitudeMode>clampToGround</altitudeMode>' +
        track(0) +
        '</gx:MultiTrack>' +
        track(0) +
        '<gx:MultiTrack><altitudeMode>relativeToGround</altitudeMode><Folder>' +
        track(0) +
        '</Folder></gx:MultiTrack>' +
        // A MultiTrack without a mode (or an empty, self-closed one): none to inherit, filled as usual.
        '<gx:MultiTrack>' +
        track(0) +
        '</gx:MultiTrack><gx:MultiTrack><altitudeMode/>' +
        track(0) +
        '</gx:MultiTrack>',
    );
    for (const absoluteAltitude of [false, true]) {
      const filled = await fillFileHeights(
        new TextEncoder().encode(text),
        registry.get('plane-point'),
        { interpolation: 'nearest', overwrite: true, absoluteAltitude },
        { maxCoordinates: 100, maxUnzippedBytes: 1e6 },
      );
      const mode = absoluteAltitude ? '<altitudeMode>absolute</altitudeMode>' : '';
      expect(new TextDecoder().decode(filled.bytes).match(/<gx:Track>.*?<\/gx:Track>/g)).toEqual([
        track(1056, '<altitudeMode>absolute</altitudeMode>'),
        track(1036, '<altitudeMode>absolute</altitudeMode>'),
        track(1036, mode),
        track(1036, mode),
        track(1036, mode),
        track(1036, mode),
        track(1036, mode),
      ]);
    }
    // Without the MultiTrack's mode, the first Track's 20 would have been taken for a height and overwritten.
    const inherited = readKml(text, { maxCoordinates: 100, absoluteAltitude: false });
    expect(inherited.relativeGroups?.map((g) => [g.slots, g.reference])).toEqual([[[0, 1], 'ground']]);
  });

  it("reads a geometry's mode from its gx:altitudeMode before its plain one, whatever their order or spacing", async () => {
    const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
    const text = KML(
      // gx's clampToSeaFloor wins over the plain relativeToGround after it: a clamping mode, filled as usual.
      '<Point><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><altitudeMode>relativeToGround</altitudeMode><coordinates>10.1,49.9,50</coordinates></Point>' +
        // A mode written on lines of its own is still relativeToGround.
        '<Point><altitudeMode>\n  relativeToGround\n</altitudeMode><coordinates>10.1,49.9,50</coordinates></Point>',
    );
    const filled = await fillFileHeights(
      new TextEncoder().encode(text),
      registry.get('plane-point'),
      { interpolation: 'nearest', overwrite: true, absoluteAltitude: false },
      { maxCoordinates: 100, maxUnzippedBytes: 1e6 },
    );
    expect(new TextDecoder().decode(filled.bytes).match(/<coordinates>.*?<\/coordinates>/g)).toEqual([
      '<coordinates>10.1,49.9,1036</coordinates>',
      '<coordinates>10.1,49.9,1086</coordinates>',
    ]);
  });

  it("does not take a gx:LatLonQuad's corners for points (an overlay's corners have no altitude)", () => {
    const text =
      '<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><GroundOverlay>' +
      '<gx:LatLonQuad><coordinates>10,50 11,50 11,51 10,51</coordinates></gx:LatLonQuad></GroundOverlay></kml>';
    expect(readKml(text, { maxCoordinates: 100, absoluteAltitude: true }).slots).toEqual([]);
  });

  it('keeps one altitudeMode of several gx:altitudeModes', () => {
    expect(
      absolute(
        KML(
          '<Point><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><gx:altitudeMode>clampToSeaFloor</gx:altitudeMode><coordinates>10,50</coordinates></Point>',
        ),
      ),
    ).toBe(KML('<Point><altitudeMode>absolute</altitudeMode><coordinates>10,50</coordinates></Point>'));
  });

  it('inserts altitudeMode before the geometry’s own close tag when another close tag follows at once', () => {
    expect(absolute(KML('<Point><extrude>1</extrude></Point>'))).toBe(
      KML('<Point><extrude>1</extrude><altitudeMode>absolute</altitudeMode></Point>'),
    );
  });

  it('indents an inserted altitudeMode as the child it goes before, not as the first line of the geometry', () => {
    expect(absolute(KML('<Point><extrude>1</extrude>\n      <coordinates>10,50</coordinates></Point>'))).toBe(
      KML(
        '<Point><extrude>1</extrude>\n      <altitudeMode>absolute</altitudeMode>\n      <coordinates>10,50</coordinates></Point>',
      ),
    );
  });
});

describe('line numbers are for error messages only', () => {
  beforeEach(() => jest.mocked(lineAt).mockClear());

  // Each is a scan from the file's start: one per <coordinates> made a KML of 10,000 placemarks take seconds.
  it('reads a well-formed KML of many placemarks without computing one', () => {
    const placemarks = Array.from(
      { length: 50 },
      (_, i) =>
        `<Placemark><LineString><coordinates>10,${i % 80},0 11,${i % 80}</coordinates></LineString></Placemark>\n`,
    );
    const text = `<kml xmlns="http://www.opengis.net/kml/2.2"><Document>\n${placemarks.join('')}</Document></kml>`;
    expect(readKml(text, { maxCoordinates: 1000, absoluteAltitude: false }).slots).toHaveLength(100);
    expect(lineAt).not.toHaveBeenCalled();
  });

  it('computes the line of coordinates it cannot read, for the message', () => {
    const text = `<kml xmlns="http://www.opengis.net/kml/2.2">\n<Placemark><Point>\n<coordinates>ten,fifty</coordinates></Point></Placemark></kml>`;
    expect(() => readKml(text, { maxCoordinates: 10, absoluteAltitude: false })).toThrow(
      "Unable to parse the coordinates at line 3: 'ten,fifty'.",
    );
    expect(lineAt).toHaveBeenCalledTimes(1);
  });
});

describe('the coordinate limit', () => {
  const KML_OF = (coordinates: string) =>
    `<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><LineString><coordinates>${coordinates}</coordinates></LineString></Placemark></kml>`;

  it('stops a <coordinates> at the first tuple over it, before reading the rest of its text', () => {
    const text = KML_OF('1,1 2,2 3,3 garbage');
    expect(() => readKml(text, { maxCoordinates: 2, absoluteAltitude: false })).toThrow(
      new TooManyCoordinatesError(2),
    );
    expect(() => readKml(text, { maxCoordinates: 3, absoluteAltitude: false })).toThrow(
      /^Unable to parse the coordinates at line 1/,
    );
  });

  it('counts the tuples of every <coordinates> against it', () => {
    const text = KML_OF('1,1 2,2').replace(
      '</Placemark>',
      '</Placemark><Placemark><Point><coordinates>3,3</coordinates></Point></Placemark>',
    );
    expect(readKml(text, { maxCoordinates: 3, absoluteAltitude: false }).slots).toHaveLength(3);
    expect(() => readKml(text, { maxCoordinates: 2, absoluteAltitude: false })).toThrow(
      new TooManyCoordinatesError(2),
    );
  });
});
