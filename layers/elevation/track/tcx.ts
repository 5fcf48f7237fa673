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
import { lineAt, scanXml, type XmlContent, type XmlElement } from './xml-scan';

const TCX_NAMESPACES = new Set([
  '',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v1',
]);
const POINTS = new Set(['Trackpoint', 'CoursePoint']);
const DEGREES = new Set(['LatitudeDegrees', 'LongitudeDegrees']);

const isTcx = (e: XmlElement) => TCX_NAMESPACES.has(e.uri);

interface PointState {
  element: XmlElement;
  position: XmlElement | null;
  /** Offset just past `</Position>` (where a new AltitudeMeters goes), and the whitespace before `<Position>`. */
  positionEnd: number | null;
  indent: string;
  degrees: Partial<Record<string, XmlContent>>;
  altitude: { element: XmlElement; content: XmlContent } | null;
}

export function readTcx(text: string, options: TrackReadOptions): ParsedTrack {
  const slots = new SlotCollector(options.maxCoordinates);
  let point: PointState | null = null;
  scanXml(text, {
    // Only a point's own AltitudeMeters and its Position's degrees have their text collected.
    wantsText: (e) =>
      point !== null &&
      isTcx(e) &&
      ((e.parent === point.element && e.local === 'AltitudeMeters') ||
        (point.position !== null && e.parent === point.position && DEGREES.has(e.local))),
    open(e) {
      if (e.parent === null && e.local !== 'TrainingCenterDatabase') {
        throw new InvalidRequestError(
          `The file is not TCX: its root element is <${e.name}>, not <TrainingCenterDatabase>.`,
        );
      }
      if (point && e.parent === point.element && e.local === 'Position' && isTcx(e)) {
        const before = text.slice(0, e.start);
        point.position = e;
        point.indent = before.slice(before.trimEnd().length);
      }
      if (POINTS.has(e.local) && isTcx(e)) {
        point = { element: e, position: null, positionEnd: null, indent: '', degrees: {}, altitude: null };
      }
    },
    close(e, end, content) {
      if (!point) return;
      if (content && e.local === 'AltitudeMeters') point.altitude = { element: e, content };
      else if (content) point.degrees[e.local] = content;
      if (e === point.position) point.positionEnd = end;
      if (e === point.element) {
        if (point.position) slots.add(pointSlot(text, point));
        point = null;
      }
    },
  });
  return { slots: slots.slots, extraEdits: [] };
}

function pointSlot(text: string, point: PointState): HeightSlot {
  const { element, altitude, positionEnd, indent } = point;
  const where = () => `<${element.name}> at line ${lineAt(text, element.start)}`;
  const lat = degrees(point, 'LatitudeDegrees', where);
  const lon = degrees(point, 'LongitudeDegrees', where);
  const location = checkedLocation(lat, lon, where);
  const own = altitude?.content ?? null;
  if (own && /[<&]/.test(text.slice(own.start, own.end))) {
    throw new InvalidRequestError(
      `The <AltitudeMeters> of ${where()} contains markup: write the height as plain text.`,
    );
  }
  const existing = own === null || own.text.trim() === '' ? NaN : Number(own.text);
  const prefix = point.position?.prefix ? `${point.position.prefix}:` : '';
  return {
    location,
    height: Number.isFinite(existing) ? existing : null,
    write: (height: string): TextEdit => {
      if (altitude?.element.selfClosing) {
        // `<AltitudeMeters/>`: no room between tags, so the element is written whole.
        const name = altitude.element.name;
        return {
          start: altitude.element.start,
          end: altitude.element.openEnd,
          replacement: `<${name}>${height}</${name}>`,
        };
      }
      if (own) return { start: own.start, end: own.end, replacement: height };
      const at = positionEnd as number; // a slot is made only for a point whose Position closed
      return {
        start: at,
        end: at,
        replacement: `${indent}<${prefix}AltitudeMeters>${height}</${prefix}AltitudeMeters>`,
      };
    },
    clear: () => null,
  };
}

function degrees(point: PointState, name: string, where: () => string): number {
  const content = point.degrees[name];
  const raw = content?.text.trim();
  const value = raw === undefined || raw === '' ? NaN : Number(raw);
  if (Number.isFinite(value)) return value;
  throw new InvalidRequestError(
    `${where()} has ${raw === undefined ? `no <${name}>` : `an invalid <${name}> '${raw}'`} in its <Position>: every TCX position needs decimal-degree LatitudeDegrees and LongitudeDegrees.`,
  );
}
