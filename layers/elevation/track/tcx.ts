/**
 * Garmin TCX (Training Center XML, v1 and v2: what Garmin Connect, Strava and TrainingPeaks export): every
 * `<Trackpoint>` and `<CoursePoint>` with a `<Position>` is a height slot. An existing `<AltitudeMeters>` gets its
 * text replaced; a point without one gets it inserted right after `</Position>`, where the TCX schema's sequence
 * puts it (Time, Position, AltitudeMeters, DistanceMeters, …). A track point without a position (a pause, an
 * indoor ride) is no slot and is left as it is; times, heart rate, cadence and extensions are never touched.
 */
import { InvalidRequestError } from '../errors';
import { SlotCollector, checkedLocation, type HeightSlot } from './height-slot';
import type { ParsedTrack, TrackReadOptions } from './parsed-track';
import type { TextEdit } from './text-edits';
import { lineAt, scanXml, setContent, textHeight, type XmlContent, type XmlElement } from './xml-scan';

const TCX_NAMESPACES = new Set([
  '',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v1',
]);
const POINTS = new Set(['Trackpoint', 'CoursePoint']);
const DEGREES = new Set(['LatitudeDegrees', 'LongitudeDegrees']);

const isTcx = (e: XmlElement) => TCX_NAMESPACES.has(e.uri);

interface PositionState {
  element: XmlElement;
  /** The whitespace before `<Position>`: a new AltitudeMeters after it is indented the same. */
  indent: string;
  /** Offset just past `</Position>`, where a new AltitudeMeters goes (null until it closes). */
  end: number | null;
  degrees: Partial<Record<string, XmlContent>>;
}

interface PointState {
  element: XmlElement;
  position: PositionState | null;
  altitude: { element: XmlElement; content: XmlContent } | null;
}

export function readTcx(text: string, options: TrackReadOptions): ParsedTrack {
  const slots = new SlotCollector(options.maxCoordinates);
  let point: PointState | null = null;
  const ownAltitude = (e: XmlElement, p: PointState) =>
    e.local === 'AltitudeMeters' && e.parent === p.element && isTcx(e);
  const positionDegrees = (e: XmlElement, p: PointState) =>
    DEGREES.has(e.local) && e.parent === p.position?.element && isTcx(e);
  scanXml(text, {
    // Only a point's own AltitudeMeters and its Position's degrees have their text collected, so content in
    // close() is always one of those.
    wantsText: (e) => point !== null && (ownAltitude(e, point) || positionDegrees(e, point)),
    open(e) {
      if (e.parent === null && e.local !== 'TrainingCenterDatabase') {
        throw new InvalidRequestError(
          `The file is not TCX: its root element is <${e.name}>, not <TrainingCenterDatabase>.`,
        );
      }
      if (point && e.local === 'Position' && e.parent === point.element && isTcx(e)) {
        const before = text.slice(0, e.start);
        point.position = {
          element: e,
          indent: before.slice(before.trimEnd().length),
          end: null,
          degrees: {},
        };
      }
      if (POINTS.has(e.local) && isTcx(e)) point = { element: e, position: null, altitude: null };
    },
    close(e, end, content) {
      if (!point) return;
      if (content && e.local === 'AltitudeMeters') point.altitude = { element: e, content };
      else if (content && point.position) point.position.degrees[e.local] = content;
      if (e === point.position?.element) point.position.end = end;
      if (e === point.element) {
        if (point.position) slots.add(pointSlot(text, point.element, point.position, point.altitude));
        point = null;
      }
    },
  });
  return { slots: slots.slots, extraEdits: [] };
}

function pointSlot(
  text: string,
  element: XmlElement,
  position: PositionState,
  altitude: PointState['altitude'],
): HeightSlot {
  const where = () => `<${element.name}> at line ${lineAt(text, element.start)}`;
  const lat = degrees(position, 'LatitudeDegrees', where);
  const lon = degrees(position, 'LongitudeDegrees', where);
  const location = checkedLocation(lat, lon, where);
  const existing = textHeight(text, altitude?.content ?? null, () => `<AltitudeMeters> of ${where()}`);
  const tag = `${position.element.prefix ? `${position.element.prefix}:` : ''}AltitudeMeters`;
  return {
    location,
    height: existing,
    write: (height: string): TextEdit => {
      if (altitude) return setContent(altitude.element, altitude.content, height);
      const at = position.end as number; // the point closed after its Position did
      return { start: at, end: at, replacement: `${position.indent}<${tag}>${height}</${tag}>` };
    },
    clear: () => null,
  };
}

function degrees(position: PositionState, name: string, where: () => string): number {
  const raw = position.degrees[name]?.text.trim();
  const value = raw ? Number(raw) : NaN;
  if (Number.isFinite(value)) return value;
  throw new InvalidRequestError(
    `${where()} has ${raw === undefined ? `no <${name}>` : `an invalid <${name}> '${raw}'`} in its <Position>: every TCX position needs decimal-degree LatitudeDegrees and LongitudeDegrees.`,
  );
}
