/**
 * The text of a KML `<coordinates>` element ("lon,lat[,alt] lon,lat[,alt] …", tuples separated by whitespace)
 * and of a `<gx:coord>` ("lon lat [alt]"), as tuples with the offsets of their parts, so a height can be
 * replaced or appended without touching the longitude, latitude, spacing or precision around it.
 */
import { InvalidRequestError } from '../errors';

export interface CoordinateTuple {
  lon: number;
  lat: number;
  /** Offsets (relative to the parsed text) where the latitude ends and the altitude starts/ends. */
  latEnd: number;
  alt: { value: number; start: number; end: number } | null;
  /** Offset just past the tuple. */
  end: number;
}

const NUMBER = String.raw`[+-]?(?:\d+(?:\.\d*)?|\.\d+)(?:[eE][+-]?\d+)?`;
/** KML tuples: commas between the parts; spaces around commas are tolerated (seen in hand-written files). */
const KML_TUPLE = new RegExp(String.raw`(${NUMBER})\s*,\s*(${NUMBER})(?:(\s*,\s*)(${NUMBER}))?`, 'y');
/** gx:coord: the parts separated by whitespace. */
const GX_TUPLE = new RegExp(String.raw`(${NUMBER})\s+(${NUMBER})(?:(\s+)(${NUMBER}))?`, 'y');
const SPACE = /\s+/y;

export type TupleSyntax = 'kml' | 'gx';

/**
 * The tuples of the text, or null when it is not a list of tuples in that syntax. At most `maxTuples` + 1 are read:
 * a caller that takes `maxTuples` refuses the text at the one more without its parts being held (a 32 MiB
 * `<coordinates>` of `1,1` tuples once held 850 MB before it was refused).
 */
export function tryParseCoordinateTuples(
  text: string,
  syntax: TupleSyntax,
  maxTuples = Infinity,
): CoordinateTuple[] | null {
  const tuple = syntax === 'kml' ? KML_TUPLE : GX_TUPLE;
  const tuples: CoordinateTuple[] = [];
  let at = 0;
  while (at < text.length && tuples.length <= maxTuples) {
    SPACE.lastIndex = at;
    if (SPACE.test(text)) at = SPACE.lastIndex;
    if (at >= text.length) break;
    if (tuples.length > 0 && at === tuples[tuples.length - 1].end) return null; // tuples need whitespace between
    tuple.lastIndex = at;
    const match = tuple.exec(text);
    if (!match) return null;
    const latEnd = at + match[0].length - (match[4] === undefined ? 0 : match[3].length + match[4].length);
    const altStart = latEnd + (match[3]?.length ?? 0);
    tuples.push({
      lon: Number(match[1]),
      lat: Number(match[2]),
      latEnd,
      alt: match[4] === undefined ? null : { value: Number(match[4]), start: altStart, end: tuple.lastIndex },
      end: tuple.lastIndex,
    });
    at = tuple.lastIndex;
  }
  return tuples;
}

/**
 * The tuples of a coordinates text (at most `maxTuples` + 1, as tryParseCoordinateTuples); a 400 naming `where()`
 * (called only then: a line number costs a scan) if it is not one.
 */
export function parseCoordinateTuples(
  text: string,
  syntax: TupleSyntax,
  where: () => string,
  maxTuples = Infinity,
): CoordinateTuple[] {
  const tuples = tryParseCoordinateTuples(text, syntax, maxTuples);
  if (tuples) return tuples;
  const example = syntax === 'kml' ? '9.10,48.74,0 9.11,48.75,0' : '9.10 48.74 0';
  throw new InvalidRequestError(
    `Unable to parse the coordinates at ${where()}: '${truncate(text.trim())}'. Expected tuples like '${example}'.`,
  );
}

function truncate(text: string): string {
  return text.length > 60 ? `${text.slice(0, 57)}...` : text;
}
