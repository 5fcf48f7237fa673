/**
 * GPX 1.0/1.1: every `<wpt>`, `<trkpt>` and `<rtept>` is a height slot (a waypoint off the path, track points on
 * it, route points too unless the file has a track). An existing `<ele>` gets its text replaced; a point without
 * one gets `<ele>` inserted as its first child, where the GPX schema puts it. Extensions, times and other namespaces are never touched.
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

const GPX_NAMESPACES = ['', 'http://www.topografix.com/GPX/1/1', 'http://www.topografix.com/GPX/1/0'];
const POINTS = new Set(['wpt', 'trkpt', 'rtept']);

interface PointState {
  element: XmlElement;
  /** The point's own <ele>: the element (a self-closed `<ele/>` is rewritten whole), its content and its end. */
  ele: { element: XmlElement; content: XmlContent; end: number } | null;
  firstChildStart: number | null;
}

export function readGpx(text: string, options: TrackReadOptions): ParsedTrack {
  const slots = new SlotCollector(options.maxCoordinates);
  let point: PointState | null = null;
  const routePoints = new Set<number>();
  let hasTrack = false;
  let isGpx = (_e: XmlElement) => false; // set at the root, the first element opened
  scanXml(text, {
    // Only a point's own <ele> has its text collected: so content in close() is always that <ele>'s.
    wantsText: (e) => point !== null && e.parent === point.element && e.local === 'ele' && isGpx(e),
    open(e) {
      if (e.parent === null) {
        if (e.local !== 'gpx') {
          throw new InvalidRequestError(`The file is not GPX: its root element is <${e.name}>, not <gpx>.`);
        }
        isGpx = formatNamespaces(GPX_NAMESPACES, e);
      }
      // The first element opened inside a point is its first child (a grandchild opens after it).
      if (point) point.firstChildStart ??= e.start;
      if (POINTS.has(e.local) && isGpx(e)) point = { element: e, ele: null, firstChildStart: null };
    },
    close(e, end, content) {
      if (point && content) {
        if (point.ele) throw moreThanOne(text, point.element, e);
        point.ele = { element: e, content, end };
      }
      if (point && e === point.element) {
        if (e.local === 'rtept') routePoints.add(slots.slots.length);
        hasTrack ||= e.local === 'trkpt';
        slots.add(pointSlot(text, point));
        point = null;
      }
    },
  });
  // A track and a route are two paths (often one way twice: recorded or detailed as a track, planned as a route);
  // joined, a profile would run one, jump back and run the other. The path is the track.
  const path = hasTrack
    ? slots.slots.map((s, i) => (routePoints.has(i) ? { ...s, onPath: false } : s))
    : slots.slots;
  return { slots: path, extraEdits: [] };
}

function pointSlot(text: string, { element, ele: own, firstChildStart }: PointState): HeightSlot {
  const where = () => `<${element.name}> at line ${lineAt(text, element.start)}`;
  const lat = attributeNumber(element, 'lat', where);
  const lon = attributeNumber(element, 'lon', where);
  const location = checkedLocation(lat, lon, where);
  const span = heightSpan(text, own?.content ?? null, () => `<ele> of ${where()}`);
  const existing =
    own &&
    textHeight(span, () => `<${own.element.name}> at line ${lineAt(text, own.element.start)} of ${where()}`);
  const tag = `${element.prefix ? `${element.prefix}:` : ''}ele`;
  return {
    location,
    height: existing,
    onPath: element.local !== 'wpt',
    write: (height: string): TextEdit => {
      if (own && span) return setContent(own.element, span, height);
      const element_ = `<${tag}>${height}</${tag}>`;
      if (element.selfClosing) {
        // The tag ends in '/>': cut it and the spaces before it without a regex (/\s*\/>$/ backtracked n² steps
        // over a long run of spaces in the tag: 3 s at 100,000).
        const open = `${text.slice(element.start, element.openEnd - 2).trimEnd()}>`;
        return {
          start: element.start,
          end: element.openEnd,
          replacement: `${open}${element_}</${element.name}>`,
        };
      }
      // The whitespace before the first child, so the new <ele> sits where that child does ('' without one).
      const before = text.slice(element.openEnd, firstChildStart ?? element.openEnd);
      const indent = before.slice(0, before.length - before.trimStart().length);
      return { start: element.openEnd, end: element.openEnd, replacement: `${indent}${element_}` };
    },
    // No data there: an <ele>0</ele> is the placeholder exports write when they know no height, not a height.
    clear: () => (own && isPlaceholderHeight(existing) ? removeElement(text, own.element, own.end) : null),
  };
}

function attributeNumber(element: XmlElement, name: string, where: () => string): number {
  const raw = element.attributes[name];
  const value = raw === undefined ? NaN : decimalNumber(raw);
  if (Number.isFinite(value)) return value;
  throw new InvalidRequestError(
    `${where()} has ${raw === undefined ? `no '${name}' attribute` : `an invalid '${name}' attribute '${excerpt(raw)}'`}: every GPX point needs decimal-degree lat and lon attributes.`,
  );
}
