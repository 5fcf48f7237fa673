/**
 * The KML reader: <coordinates> and <gx:coord> tuples are height slots, and with absoluteAltitude every
 * geometry's altitudeMode becomes `absolute` — replaced, converted from gx:altitudeMode, or inserted where the
 * schema puts it — so Google Earth shows the heights instead of clamping to the ground.
 */
import { InvalidRequestError } from '../../../layers/elevation';
import { readKml } from '../../../layers/elevation/track/kml';
import { applyEdits } from '../../../layers/elevation/track/text-edits';

const KML = (body: string) =>
  `<kml xmlns="http://www.opengis.net/kml/2.2" xmlns:gx="http://www.google.com/kml/ext/2.2"><Placemark>${body}</Placemark></kml>`;
const absolute = (text: string) => {
  const track = readKml(text, { maxCoordinates: 100, absoluteAltitude: true });
  return applyEdits(text, track.extraEdits);
};

describe('readKml', () => {
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
          '<Point><altitudeMode>relativeToGround</altitudeMode><gx:altitudeMode>relativeToSeaFloor</gx:altitudeMode><coordinates>10,50</coordinates></Point>',
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

  it.each([
    ['a root that is not <kml>', '<gpx version="1.1"/>', /its root element is <gpx>, not <kml>/],
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
});
