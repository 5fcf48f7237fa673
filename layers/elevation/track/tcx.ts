/**
 * Garmin TCX (Training Center XML, v1 and v2: what Garmin Connect, Strava and TrainingPeaks export): every
 * `<Trackpoint>` and `<CoursePoint>` with a `<Position>` is a height slot, and so are a course lap's
 * `<BeginPosition>` and `<EndPosition>`. An existing `<AltitudeMeters>` (`<BeginAltitudeMeters>`,
 * `<EndAltitudeMeters>`) gets its text replaced; a position without one gets it inserted right after the
 * position's end tag, where the TCX schema's sequence puts it (Time, Position, AltitudeMeters, DistanceMeters, …;
 * BeginPosition, BeginAltitudeMeters, EndPosition, EndAltitudeMeters, …). A track point without a position (a
 * pause, an indoor ride) is no slot and is left as it is; times, heart rate, cadence and extensions are never
 * touched.
 */
import { InvalidRequestError, excerpt } from '../errors';
import { decimalNumber } from '../request/decimal';
import { SlotCollector, checkedLocation, isPlaceholderHeight, type HeightSlot } from './height-slot';
import type { ParsedTrack, TrackReadOptions } from './parsed-track';
import type { TextEdit } from './text-edits';
import {
  lineAt,
  moreThanOne,
  removeElement,
  scanXml,
  heightSpan,
  setContent,
  textHeight,
  type XmlContent,
  type XmlElement,
  formatNamespaces,
} from './xml-scan';

const TCX_NAMESPACES = [
  '',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v2',
  'http://www.garmin.com/xmlschemas/TrainingCenterDatabase/v1',
];
/**
 * The elements that hold heights, and for each its position elements and the height element that follows each
 * one in the schema's sequence. A course's `<Lap>` (CourseLap_t) has a begin and an end position, each with its
 * own height; an activity's `<Lap>` has neither.
 */
const HOLDERS: Readonly<Record<string, Readonly<Record<string, string>>>> = {
  Trackpoint: { Position: 'AltitudeMeters' },
  CoursePoint: { Position: 'AltitudeMeters' },
  Lap: { BeginPosition: 'BeginAltitudeMeters', EndPosition: 'EndAltitudeMeters' },
};
const DEGREES = new Set(['LatitudeDegrees', 'LongitudeDegrees']);

interface PositionState {
  element: XmlElement;
  /** The whitespace before the position: a new height element after it is indented the same. */
  indent: string;
  /** Offset just past its end tag, where a new height element goes (null until it closes). */
  end: number | null;
  degrees: Partial<Record<string, XmlContent>>;
}

interface HolderState {
  element: XmlElement;
  /** Its positions in document order (the last is the one open, if any). */
  positions: PositionState[];
  /** Its own height elements by name. */
  heights: Map<string, { element: XmlElement; content: XmlContent; end: number }>;
}

export function readTcx(text: string, options: TrackReadOptions): ParsedTrack {
  const slots = new SlotCollector(options.maxCoordinates);
  let holder: HolderState | null = null;
  let isTcx = (_e: XmlElement) => false; // set at the root, the first element opened
  const isHolder = (e: XmlElement) =>
    Object.hasOwn(HOLDERS, e.local) && isTcx(e) && (e.local !== 'Lap' || e.parent?.local === 'Course');
  const heightNames = (h: HolderState) => Object.values(HOLDERS[h.element.local]);
  const ownHeight = (e: XmlElement, h: HolderState) =>
    e.parent === h.element && heightNames(h).includes(e.local) && isTcx(e);
  const positionDegrees = (e: XmlElement, h: HolderState) =>
    DEGREES.has(e.local) && e.parent === h.positions[h.positions.length - 1]?.element && isTcx(e);
  scanXml(text, {
    // Only a holder's own height elements and its positions' degrees have their text collected, so content in
    // close() is always one of those.
    wantsText: (e) => holder !== null && (ownHeight(e, holder) || positionDegrees(e, holder)),
    open(e) {
      if (e.parent === null) {
        if (e.local !== 'TrainingCenterDatabase') {
          throw new InvalidRequestError(
            `The file is not TCX: its root element is <${e.name}>, not <TrainingCenterDatabase>.`,
          );
        }
        isTcx = formatNamespaces(TCX_NAMESPACES, e);
      }
      if (
        holder &&
        e.parent === holder.element &&
        Object.hasOwn(HOLDERS[holder.element.local], e.local) &&
        isTcx(e)
      ) {
        if (holder.positions.some((p) => p.element.local === e.local)) {
          // Two would share one height element, and their edits would overlap.
          throw moreThanOne(text, holder.element, e);
        }
        const before = text.slice(0, e.start);
        holder.positions.push({
          element: e,
          indent: before.slice(before.trimEnd().length),
          end: null,
          degrees: {},
        });
      }
      if (isHolder(e)) holder = { element: e, positions: [], heights: new Map() };
    },
    close(e, end, content) {
      if (!holder) return;
      const position = holder.positions[holder.positions.length - 1];
      if (content && ownHeight(e, holder)) {
        if (holder.heights.has(e.local)) throw moreThanOne(text, holder.element, e);
        holder.heights.set(e.local, { element: e, content, end });
      } else if (content && position) {
        if (position.degrees[e.local] !== undefined) throw moreThanOne(text, position.element, e);
        position.degrees[e.local] = content;
      }
      if (e === position?.element) position.end = end;
      if (e === holder.element) {
        for (const p of holder.positions) slots.add(heightSlot(text, holder, p));
        holder = null;
      }
    },
  });
  return { slots: slots.slots, extraEdits: [] };
}

function heightSlot(text: string, holder: HolderState, position: PositionState): HeightSlot {
  const { element } = holder;
  const where = () => `<${element.name}> at line ${lineAt(text, element.start)}`;
  const lat = degrees(position, 'LatitudeDegrees', where);
  const lon = degrees(position, 'LongitudeDegrees', where);
  const location = checkedLocation(lat, lon, where);
  const name = HOLDERS[element.local][position.element.local];
  const own = holder.heights.get(name) ?? null;
  const span = heightSpan(text, own?.content ?? null, () => `<${name}> of ${where()}`);
  const existing =
    own &&
    textHeight(span, () => `<${own.element.name}> at line ${lineAt(text, own.element.start)} of ${where()}`);
  const tag = `${position.element.prefix ? `${position.element.prefix}:` : ''}${name}`;
  return {
    location,
    height: existing,
    // A track point is on the path; a course point (a summit, a water stop) and a lap's ends are places on it.
    onPath: element.local === 'Trackpoint',
    write: (height: string): TextEdit => {
      if (own && span) return setContent(own.element, span, height);
      const at = position.end as number; // the holder closed after its position did
      return { start: at, end: at, replacement: `${position.indent}<${tag}>${height}</${tag}>` };
    },
    // No data there: a 0 is the placeholder exports write when they know no height (the schema lets it be absent).
    clear: () => (own && isPlaceholderHeight(existing) ? removeElement(text, own.element, own.end) : null),
  };
}

function degrees(position: PositionState, name: string, where: () => string): number {
  const raw = position.degrees[name]?.text.trim();
  const value = raw ? decimalNumber(raw) : NaN;
  if (Number.isFinite(value)) return value;
  const of = position.element.local;
  throw new InvalidRequestError(
    `${where()} has ${raw === undefined ? `no <${name}>` : `an invalid <${name}> '${excerpt(raw)}'`} in its <${of}>: every TCX position needs decimal-degree LatitudeDegrees and LongitudeDegrees.`,
  );
}
