/**
 * GeoJSON (RFC 7946): every position under a geometry's `coordinates` is a height slot. The document is
 * checked with JSON.parse (strict JSON) and read with jsonc-parser's syntax tree, whose nodes carry offsets,
 * so a height is written by replacing or inserting exactly one number. A position without data keeps a
 * non-zero z and loses a z of 0 (RFC 7946 lets a position omit its altitude; a 0 there is a placeholder). A
 * legacy `crs` member (geojson-crs.ts) is honoured: positions are converted to WGS84 to be sampled, and written
 * back as they were.
 */
// The ESM build: the package's main is a UMD bundle whose internal requires esbuild cannot follow.
import { getNodeValue, parseTree, visit, type Node } from 'jsonc-parser/lib/esm/main';
import { InvalidRequestError, PayloadTooLargeError, excerpt } from '../errors';
import { crsConversion, type ToWgs84 } from './geojson-crs';
import {
  SlotCollector,
  TooManyCoordinatesError,
  checkedLocation,
  isPlaceholderHeight,
  type HeightSlot,
} from './height-slot';
import type { HeightExtent, ParsedTrack, TrackReadOptions } from './parsed-track';
import type { TextEdit } from './text-edits';

/** MultiPolygon is the deepest geometry: positions 3 arrays below `coordinates`. */
const MAX_COORDINATE_DEPTH = 3;
/** Features in GeometryCollections in …: bounds the walk; RFC 7946 discourages nesting collections at all. */
const MAX_OBJECT_DEPTH = 16;

/**
 * JSON values (numbers, strings, booleans, nulls, objects, arrays) read per coordinate MAX_FILE_COORDINATES allows:
 * a position with a height is 4, a Point Feature with ten properties ~20. The syntax tree holds ~140 bytes a
 * value, so 3.2 million (the default) bound it to ~450 MB.
 */
export const GEOJSON_VALUES_PER_COORDINATE = 32;

export function readGeoJson(text: string, options: TrackReadOptions): ParsedTrack {
  checkSize(text, options.maxCoordinates);
  try {
    JSON.parse(text);
  } catch (error) {
    throw new InvalidRequestError(
      sequenceMessage(text) ?? `The file is not valid JSON: ${(error as Error).message}.`,
    );
  }
  // JSON.parse has accepted the text: no comments or trailing commas for the lenient parser to allow.
  const root = nestingChecked(() => parseTree(text));
  if (!root || root.type !== 'object' || typeof property(root, 'type')?.value !== 'string') {
    throw new InvalidRequestError('The file is not GeoJSON: expected an object with a "type" member.');
  }
  const slots = new SlotCollector(options.maxCoordinates);
  const extents: HeightExtent[] = [];
  visitObject(text, root, { slots, extents, toWgs84: null }, 0);
  return { slots: slots.slots, extraEdits: [], extents };
}

/**
 * What to say of a file that is not one JSON value but a sequence of GeoJSON objects (RFC 8142's Text Sequences, a
 * record separator before each; or one object a line, as `.geojsonl` and `.ndjson` write them), or null. They are
 * not read: the answer would have to keep their framing, and ogr2ogr makes one FeatureCollection of them.
 */
function sequenceMessage(text: string): string | null {
  const send =
    'which is not read: send one FeatureCollection holding the features, e.g. made by ogr2ogr -f GeoJSON';
  if (text.trimStart().startsWith('\u001e')) {
    return `The file is a GeoJSON Text Sequence (RFC 8142, .geojsons: one object after each record separator), ${send} out.geojson in.geojsons.`;
  }
  const newline = text.indexOf('\n');
  if (
    newline === -1 ||
    !text
      .slice(newline + 1)
      .trimStart()
      .startsWith('{')
  )
    return null;
  try {
    JSON.parse(text.slice(0, newline)); // the first line alone is a JSON value
  } catch {
    return null;
  }
  return `The file is newline-delimited GeoJSON (.geojsonl, .ndjson: one object a line), ${send} out.geojson in.geojsonl.`;
}

/**
 * Counts the file's JSON values and positions (arrays of numbers under a `coordinates` member) in one pass that
 * builds nothing, and refuses it at the first value or position over the bound, before JSON.parse and the syntax
 * tree hold it all (a 32 MiB `.geojson.gz` of `[1,1]` positions once held 2.4 GB before it was refused).
 */
function checkSize(text: string, maxCoordinates: number): void {
  const maxValues = GEOJSON_VALUES_PER_COORDINATE * maxCoordinates;
  let values = 0;
  let positions = 0;
  let key: string | undefined; // the member whose value comes next
  // Per open array or object: whether it is (in) a coordinates value, whether it is (in) a properties value
  // (free data: a `coordinates` member there is no geometry's), and whether it holds a number itself.
  const open: { coordinates: boolean; properties: boolean; number: boolean }[] = [];
  const countValue = () => {
    if (++values > maxValues) throw tooManyValues(maxValues, maxCoordinates);
  };
  const begin = (array: boolean) => {
    countValue();
    const parent = open[open.length - 1];
    const properties = key === 'properties' || (parent?.properties ?? false);
    open.push({
      coordinates: array && !properties && (key === 'coordinates' || (parent?.coordinates ?? false)),
      properties,
      number: false,
    });
    key = undefined;
  };
  const end = () => {
    const frame = open.pop();
    if (frame?.coordinates && frame.number && ++positions > maxCoordinates) {
      throw new TooManyCoordinatesError(maxCoordinates);
    }
  };
  nestingChecked(() =>
    visit(text, {
      onObjectBegin: () => begin(false),
      onArrayBegin: () => begin(true),
      onObjectEnd: end,
      onArrayEnd: end,
      onObjectProperty: (property) => {
        key = property;
      },
      onLiteralValue: (value) => {
        countValue();
        const parent = open[open.length - 1];
        if (parent && typeof value === 'number') parent.number = true;
        key = undefined;
      },
    }),
  );
}

/** One of jsonc-parser's walks, which recurse: absurd nesting (JSON.parse accepts it) overflows the stack. */
function nestingChecked<T>(walk: () => T): T {
  try {
    return walk();
  } catch (error) {
    if (error instanceof RangeError) throw new InvalidRequestError('The GeoJSON file is nested too deeply.');
    throw error;
  }
}

function tooManyValues(maxValues: number, maxCoordinates: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The GeoJSON file has more than ${maxValues} JSON values (numbers, strings, objects, arrays …), the most read ` +
      `for MAX_FILE_COORDINATES=${maxCoordinates} (${GEOJSON_VALUES_PER_COORDINATE} per coordinate): drop the ` +
      'properties it does not need, or split it.',
  );
}

/**
 * An object's member the reading depends on. Given twice (`"geometry"` twice in a Feature), it is a 400: JSON.parse
 * and most readers keep the last, so filling the first would hand back heights where other tools do not look.
 */
function property(node: Node, key: string): Node | undefined {
  const members = node.children?.filter((p) => p.children?.[0]?.value === key) ?? [];
  if (members.length > 1) {
    throw new InvalidRequestError(
      `The GeoJSON object at offset ${node.offset} has the member "${key}" twice, at offsets ` +
        `${members.map((m) => m.offset).join(' and ')}: JSON readers keep only one of them, so which is meant is unclear.`,
    );
  }
  return members[0]?.children?.[1];
}

/** Where slots (and bboxes) go, and how the positions of the object being read become WGS84 (null: they are). */
interface Reading {
  slots: SlotCollector;
  extents: HeightExtent[];
  toWgs84: ToWgs84 | null;
}

function visitObject(text: string, node: Node, outer: Reading, depth: number): void {
  if (node.type !== 'object') return;
  if (depth > MAX_OBJECT_DEPTH) throw new InvalidRequestError('The GeoJSON file nests objects too deeply.');
  // A crs member (GeoJSON 2008, as GDAL writes it) holds for the object and everything in it.
  const crs = property(node, 'crs');
  const reading = crs ? { ...outer, toWgs84: crsConversion(getNodeValue(crs)) } : outer;
  const type = property(node, 'type')?.value;
  const from = reading.slots.slots.length;
  visitMembers(text, node, type, reading, depth);
  const bbox = property(node, 'bbox');
  if (bbox) addBboxExtent(text, bbox, [from, reading.slots.slots.length], reading.extents);
}

function visitMembers(text: string, node: Node, type: unknown, reading: Reading, depth: number): void {
  const children = (key: string) => property(node, key)?.children ?? [];
  if (type === 'FeatureCollection')
    children('features').forEach((f) => visitObject(text, f, reading, depth + 1));
  else if (type === 'Feature') {
    const geometry = property(node, 'geometry');
    if (geometry) visitObject(text, geometry, reading, depth + 1);
  } else if (type === 'GeometryCollection')
    children('geometries').forEach((g) => visitObject(text, g, reading, depth + 1));
  else if (GEOMETRY_TYPES.includes(String(type))) {
    const coordinates = property(node, 'coordinates');
    // A line's positions are a path a profile can follow; a Point's are places, a Polygon's an area's outline.
    const onPath = type === 'LineString' || type === 'MultiLineString';
    if (coordinates) visitCoordinates(text, coordinates, { ...reading, onPath }, 0);
  } else {
    // Not RFC 7946's (TopoJSON's "Topology", a typo): its coordinates would be left without heights, unsaid.
    throw new InvalidRequestError(
      `The GeoJSON object at offset ${node.offset} has ${type === undefined ? 'no type' : `type ${excerpt(JSON.stringify(type))}`}, ` +
        `none of RFC 7946's: Feature, FeatureCollection, GeometryCollection, ${GEOMETRY_TYPES.join(', ')}.`,
    );
  }
}

/**
 * An object's `bbox` (RFC 7946 section 5: [west, south, east, north], or with the lowest and highest height
 * [west, south, low, east, north, high]) gets the heights its positions end up with: a 2D one becomes 3D as they
 * do, a 3D one's heights (often the 0 of an export that knew none) are rewritten. One of another shape is left.
 */
function addBboxExtent(text: string, bbox: Node, slots: [number, number], extents: HeightExtent[]): void {
  const values = bbox.children; // an array's items, an object's members, none for a string or number
  if (!values || values.some((v) => v.type !== 'number')) return;
  const end = (v: Node) => v.offset + v.length;
  const replace = (v: Node, height: number): TextEdit => ({
    start: v.offset,
    end: end(v),
    replacement: String(height),
  });
  if (values.length === 6) {
    extents.push({ slots, edits: (low, high) => [replace(values[2], low), replace(values[5], high)] });
  } else if (values.length === 4) {
    const separator = text.slice(end(values[0]), values[1].offset); // ", " or ",", as the file writes it
    const insert = (v: Node, height: number): TextEdit => ({
      start: end(v),
      end: end(v),
      replacement: `${separator}${height}`,
    });
    extents.push({ slots, edits: (low, high) => [insert(values[1], low), insert(values[3], high)] });
  }
}

const GEOMETRY_TYPES = ['Point', 'MultiPoint', 'LineString', 'MultiLineString', 'Polygon', 'MultiPolygon'];

function visitCoordinates(
  text: string,
  node: Node,
  into: Reading & { onPath: boolean },
  depth: number,
): void {
  if (node.type !== 'array') throw invalidCoordinates(node, 'is not an array');
  const items = node.children ?? [];
  if (items.length > 0 && items[0].type !== 'array') {
    into.slots.add(positionSlot(text, node, items, into));
    return;
  }
  if (depth >= MAX_COORDINATE_DEPTH)
    throw invalidCoordinates(node, 'is nested deeper than any geometry allows');
  for (const item of items) visitCoordinates(text, item, into, depth + 1);
}

function positionSlot(
  text: string,
  node: Node,
  items: Node[],
  { onPath, toWgs84 }: { onPath: boolean; toWgs84: ToWgs84 | null },
): HeightSlot {
  if (items.length < 2 || items.some((n) => n.type !== 'number')) {
    throw invalidCoordinates(
      node,
      'is not a position [longitude, latitude] or [longitude, latitude, height]',
    );
  }
  const [lonNode, latNode, zNode] = items;
  const [x, y] = [lonNode.value as number, latNode.value as number];
  const [lon, lat] = toWgs84 ? toWgs84(x, y) : [x, y];
  // The file's own numbers: JSON.stringify would write 1e400 (Infinity to JSON.parse) as null.
  const written = () => excerpt(text.slice(node.offset, node.offset + node.length).replace(/\s/g, ''));
  const location = checkedLocation(
    lat,
    lon,
    () => `the position ${written()} (offset ${node.offset}${toWgs84 ? ', converted from its crs' : ''})`,
  );
  if (zNode && !Number.isFinite(zNode.value)) {
    // Not a height anyone measured: kept (overwrite=false) it was counted as one, and OGR refuses the file.
    throw new InvalidRequestError(
      `The GeoJSON position ${written()} (offset ${node.offset}) has a height of ${text.slice(zNode.offset, zNode.offset + zNode.length)}, ` +
        'beyond any number JSON readers hold (they read it as Infinity): write the height it should have, or leave it out.',
    );
  }
  const latEnd = latNode.offset + latNode.length;
  // An added height is separated as the file separates longitude and latitude (", " or ","): strict JSON has
  // only the comma and whitespace there.
  const separator = text.slice(lonNode.offset + lonNode.length, latNode.offset);
  const existing = zNode ? (zNode.value as number) : null;
  return {
    location,
    height: existing,
    onPath,
    write: (height: string): TextEdit =>
      zNode
        ? { start: zNode.offset, end: zNode.offset + zNode.length, replacement: height }
        : { start: latEnd, end: latEnd, replacement: `${separator}${height}` },
    clear: () =>
      zNode && isPlaceholderHeight(existing) && items.length === 3
        ? { start: latEnd, end: zNode.offset + zNode.length, replacement: '' }
        : null,
  };
}

function invalidCoordinates(node: Node, problem: string): InvalidRequestError {
  return new InvalidRequestError(
    `The GeoJSON 'coordinates' value at offset ${node.offset} ${problem}: see RFC 7946, section 3.1.`,
  );
}
