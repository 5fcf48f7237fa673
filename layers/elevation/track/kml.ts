/**
 * KML: every geometry's `<coordinates>` tuple ("lon,lat[,alt]") and every `<gx:coord>` ("lon lat [alt]") is a
 * height slot (a LineString's and a gx:Track's on the path, a Point's and a ring's off it); a gx:LatLonQuad's corners
 * are not (an overlay's corners have no altitude). With `absoluteAltitude`, each geometry's altitudeMode becomes
 * `absolute` (inserted where the schema puts it when missing), because Google Earth clamps to the ground otherwise
 * and never shows the heights; a geometry with a point left without a height keeps its mode, or that point would
 * be drawn at sea level. A `relativeToGround` or `gx:relativeToSeaFloor` geometry's altitudes are offsets, not
 * heights: it is a RelativeGroup (parsed-track.ts), converted whole or left as it is.
 */
import { InvalidRequestError } from '../errors';
import { parseCoordinateTuples, type CoordinateTuple, type TupleSyntax } from './coordinate-text';
import {
  HeightOverflowError,
  SlotCollector,
  checkedLocation,
  isPlaceholderHeight,
  type HeightSlot,
} from './height-slot';
import type { ExtraEdit, ParsedTrack, RelativeGroup, TrackReadOptions } from './parsed-track';
import type { TextEdit } from './text-edits';
import {
  characterSpan,
  formatNamespaces,
  lineAt,
  scanXml,
  setContent,
  type XmlContent,
  type XmlElement,
} from './xml-scan';

const KML_NAMESPACES = [
  '',
  'http://www.opengis.net/kml/2.2',
  'http://earth.google.com/kml/2.0',
  'http://earth.google.com/kml/2.1',
  'http://earth.google.com/kml/2.2',
];
const GX = 'http://www.google.com/kml/ext/2.2';
const GEOMETRIES = new Set(['Point', 'LineString', 'LinearRing', 'Polygon', 'Track']);
/** The elements whose <coordinates> are a geometry's points (a gx:LatLonQuad's are an overlay's corners). */
const COORDINATE_PARENTS = new Set(['Point', 'LineString', 'LinearRing']);
/** altitudeMode goes before these children in the KML schema's element order. */
const AFTER_ALTITUDE_MODE = new Set(['coordinates', 'outerBoundaryIs', 'innerBoundaryIs', 'when', 'coord']);

const isGx = (e: XmlElement) => e.uri === GX;

interface GeometryState {
  element: XmlElement;
  insertAt: number | null;
  indent: string;
  modes: { element: XmlElement; end: number; content: XmlContent; gx: boolean }[];
  /** Its first slot: the geometry's slots are [firstSlot, the count when it closes). */
  firstSlot: number;
  /** The enclosing gx:MultiTrack's modes, for a gx:Track directly inside one: they apply when it has none. */
  inherited: AltitudeMode[];
}

type AltitudeMode = GeometryState['modes'][number];

export function readKml(text: string, options: TrackReadOptions): ParsedTrack {
  const slots = new SlotCollector(options.maxCoordinates);
  const extraEdits: ExtraEdit[] = [];
  const relativeGroups: RelativeGroup[] = [];
  const geometries: GeometryState[] = [];
  // Each gx:MultiTrack's altitudeModes (they come before its gx:Tracks in the schema's order).
  const multiTrackModes = new Map<XmlElement, AltitudeMode[]>();
  let isKml = (_e: XmlElement) => false; // set at the root, the first element opened
  const slotSyntax = (e: XmlElement): TupleSyntax | null =>
    e.local === 'coordinates' && isKml(e) && COORDINATE_PARENTS.has(e.parent?.local ?? '')
      ? 'kml'
      : e.local === 'coord' && isGx(e)
        ? 'gx'
        : null;
  const isMode = (e: XmlElement) => e.local === 'altitudeMode' && (isKml(e) || isGx(e));
  scanXml(text, {
    wantsText: (e) => slotSyntax(e) !== null || isMode(e),
    open(e) {
      if (e.parent === null) {
        if (e.local !== 'kml') {
          throw new InvalidRequestError(`The file is not KML: its root element is <${e.name}>, not <kml>.`);
        }
        isKml = formatNamespaces(KML_NAMESPACES, e, [GX]); // gx: stays Google's extension (gx:Track, gx:coord)
      }
      const geometry = geometries[geometries.length - 1];
      if (
        geometry &&
        geometry.insertAt === null &&
        e.parent === geometry.element &&
        AFTER_ALTITUDE_MODE.has(e.local)
      ) {
        geometry.insertAt = e.start;
        // The whitespace right before that child: the inserted altitudeMode is indented as the child is.
        const before = text.slice(geometry.element.openEnd, e.start);
        geometry.indent = before.slice(before.trimEnd().length);
      }
      if (e.local === 'MultiTrack' && isGx(e)) multiTrackModes.set(e, []);
      if (isGeometry(e, isKml)) {
        const inherited = (e.parent && multiTrackModes.get(e.parent)) ?? [];
        geometries.push({
          element: e,
          insertAt: null,
          indent: '',
          modes: [],
          firstSlot: slots.slots.length,
          inherited,
        });
      }
    },
    close(e, end, content) {
      const syntax = slotSyntax(e);
      if (syntax && content) addTuples(text, content, syntax, slots, isLine(e.parent));
      const geometry = geometries[geometries.length - 1];
      if (geometry && isMode(e) && content && e.parent === geometry.element) {
        geometry.modes.push({ element: e, end, content, gx: isGx(e) });
      }
      if (isMode(e) && content && e.parent)
        multiTrackModes.get(e.parent)?.push({ element: e, end, content, gx: isGx(e) });
      if (geometry && geometry.element === e) {
        geometries.pop();
        const range = [geometry.firstSlot, slots.slots.length] as const;
        const reference = relativeReference(geometry);
        const modeEdits = () => altitudeModeEdits(geometry, text.lastIndexOf('</', end - 1));
        // (A 'seaFloor' group is never converted, so its modeEdits are never applied.)
        if (reference) relativeGroups.push({ slots: range, reference, modeEdits: modeEdits() });
        else if (options.absoluteAltitude) {
          // Only if every point of the geometry ends up with a height: KML reads a missing altitude as 0, which
          // `absolute` would draw at sea level; such a geometry keeps the altitudeMode it had.
          for (const edit of modeEdits()) extraEdits.push({ edit, needsHeights: range });
        }
      }
    },
  });
  return { slots: slots.slots, extraEdits, relativeGroups };
}

/**
 * Whether coordinates under this parent are a line a profile can follow (a LineString, a gx:Track's gx:coords),
 * not a place (a Point) or an area's outline (a LinearRing).
 */
function isLine(parent: XmlElement | null): boolean {
  return parent !== null && (parent.local === 'Track' ? isGx(parent) : parent.local === 'LineString');
}

/**
 * What a geometry's altitudes are measured from when they are not heights above sea level: 'ground' for
 * relativeToGround, 'seaFloor' for gx:relativeToSeaFloor; null for absolute and the clamping modes (whose
 * altitudes are ignored). A gx:altitudeMode, Google's extension, wins over a plain one when both are given. A
 * gx:Track without a mode of its own has its gx:MultiTrack's (Google's My Tracks wrote the mode only there).
 */
function relativeReference(geometry: GeometryState): RelativeGroup['reference'] | null {
  const modes = geometry.modes.length > 0 ? geometry.modes : geometry.inherited;
  const gx = modes.filter((m) => m.gx).at(-1);
  const mode = (gx ?? modes.at(-1))?.content.text.trim();
  return mode === 'relativeToGround' ? 'ground' : mode === 'relativeToSeaFloor' ? 'seaFloor' : null;
}

function isGeometry(e: XmlElement, isKml: (e: XmlElement) => boolean): boolean {
  if (!GEOMETRIES.has(e.local) || !(e.local === 'Track' ? isGx(e) : isKml(e)) || e.selfClosing) return false;
  // A Polygon's rings follow the Polygon's altitudeMode.
  return !(e.local === 'LinearRing' && e.parent && /BoundaryIs$/.test(e.parent.local));
}

function altitudeModeEdits(geometry: GeometryState, closeStart: number): TextEdit[] {
  const { element, modes } = geometry;
  const tag = `${element.prefix && element.local !== 'Track' ? `${element.prefix}:` : ''}altitudeMode`;
  const plain = modes.filter((m) => !m.gx);
  const edits: TextEdit[] = plain.map((m) => setContent(m.element, m.content, 'absolute'));
  modes
    .filter((m) => m.gx)
    .forEach((m, i) => {
      // gx:altitudeMode has no 'absolute'; it becomes a plain altitudeMode unless the geometry has one already.
      const replacement = plain.length === 0 && i === 0 ? `<${tag}>absolute</${tag}>` : '';
      edits.push({ start: m.element.start, end: m.end, replacement });
    });
  if (modes.length === 0) {
    const at = geometry.insertAt ?? closeStart;
    edits.push({ start: at, end: at, replacement: `<${tag}>absolute</${tag}>${geometry.indent}` });
  }
  return edits;
}

function addTuples(
  text: string,
  content: XmlContent,
  syntax: TupleSyntax,
  slots: SlotCollector,
  onPath: boolean,
): void {
  const where = () => `line ${lineAt(text, content.start)}`; // computed only for an error message
  // Plain text, or one CDATA section: the heights are written inside it.
  const span = characterSpan(text, content);
  if (span === null) {
    throw new InvalidRequestError(
      `The coordinates at ${where()} contain markup (a comment, entity reference, or more than one CDATA section or text beside one): write them as plain text.`,
    );
  }
  const raw = text.slice(span.start, span.end);
  const tuples = parseCoordinateTuples(raw, syntax, where, slots.remaining); // one more than fits is refused below
  const separator = syntax === 'kml' ? ',' : ' ';
  tuples.forEach((tuple, i) => {
    const at = () => `coordinate ${i + 1} at ${where()}`;
    const { alt } = tuple;
    if (alt && !Number.isFinite(alt.value)) {
      // Decimal text beyond the double range (1e400): a damaged number, not a height (HeightOverflowError).
      throw new HeightOverflowError(`The ${at()} holds a height of ${raw.slice(alt.start, alt.end)}`);
    }
    slots.add(tupleSlot(tuple, span.start, separator, onPath, at));
  });
}

function tupleSlot(
  tuple: CoordinateTuple,
  base: number,
  separator: string,
  onPath: boolean,
  where: () => string,
): HeightSlot {
  const location = checkedLocation(tuple.lat, tuple.lon, where);
  const { alt } = tuple;
  return {
    location,
    height: alt?.value ?? null,
    onPath,
    write: (height: string): TextEdit =>
      alt
        ? { start: base + alt.start, end: base + alt.end, replacement: height }
        : { start: base + tuple.latEnd, end: base + tuple.latEnd, replacement: `${separator}${height}` },
    // No data there: a tuple's 0 is the placeholder exports write (Google Earth's paths), not a height, and a
    // <coordinates> tuple may go without one. A gx:coord keeps it: it always has three values.
    clear: () =>
      alt && isPlaceholderHeight(alt.value) && separator === ','
        ? { start: base + tuple.latEnd, end: base + alt.end, replacement: '' }
        : null,
  };
}
