/**
 * CSV point lists, as spreadsheets, survey tools and GPS Visualizer write them: comma-, semicolon-, tab- or
 * pipe-separated (or as an Excel `sep=` first line says), with a header row that names the latitude column (`lat`,
 * `latitude`; `Breite`, `latitud` …) and the longitude column (`lon`, `lng`, `long`, `longitude`; `Länge`,
 * `longitud` …), in any case. Every data row is a height slot, in file order and on the path (a profile runs
 * through the rows one after another). Lines end with LF, CRLF, or CR in a file without LF (Excel for Mac).
 *
 * An elevation column (`ele`, `elev`, `elevation`, `alt`, `altitude`, `height`; `Höhe`, `altitud`, `hoogte` …,
 * optionally with ` (m)` or `_m`) has its cells replaced; a file without one gets `elevation` appended to its header and a cell to every row, a
 * row with fewer cells than the header padded first, so the heights land in their column. Everything else, quotes,
 * line ends, blank lines, the other columns, comes back byte for byte. A semicolon- or tab-separated file may
 * write decimal commas (`48,7;9,1`, as a German or French spreadsheet does): they are read, and the heights are
 * written with a decimal comma too when the coordinates have one.
 *
 * Nothing is guessed: a file without a header row, a header without both columns, a row whose latitude or
 * longitude is not a number, or (when a column is appended) a row with more cells than the header is a 400 naming
 * the line. Cells are found by the small RFC 4180 scanner below, because each edit needs its cell's offsets in the
 * text, which the CSV parsers on npm (csv-parse, papaparse) do not report.
 */
import { InvalidRequestError, excerpt } from '../errors';
import {
  HeightOverflowError,
  SlotCollector,
  checkedLocation,
  isPlaceholderHeight,
  type HeightSlot,
} from './height-slot';
import type { ExtraEdit, ParsedTrack, TrackReadOptions } from './parsed-track';
import type { TextEdit } from './text-edits';

const DELIMITERS = [',', ';', '\t', '|'] as const;
type Delimiter = (typeof DELIMITERS)[number];

// English, and the names German, Spanish, Italian and Dutch spreadsheets give the columns (French and Portuguese
// ones use the English words); compared in lower case, NFC-normalised (a decomposed "Länge" matches too). A name may
// say its unit: degrees (or WGS 84's, whose degrees they are) for a coordinate, metres for a height; any other unit
// (`lat (rad)`, `height (ft)`) names no column, so it is never read as degrees or metres.
const IN_DEGREES = String.raw`(\s*[([](°|deg|degrees|dd|decimal degrees|wgs[\s-]?84)[)\]]|_deg)?`;
const LATITUDE = new RegExp(
  `^(lat|latitude|breite|breitengrad|latitud|latitudine|breedtegraad)${IN_DEGREES}$`,
);
const LONGITUDE = new RegExp(
  `^(lon|lng|long|longitude|länge|laenge|längengrad|laengengrad|longitud|longitudine|lengtegraad)${IN_DEGREES}$`,
);
const ELEVATION =
  /^(ele|elev|elevation|alt|altitude|height|höhe|hoehe|altitud|altura|elevación|elevacion|altitudine|hoogte)(\s*[([]m[)\]]|_m)?$/;

/** One cell: its span in the text (with its quotes, if quoted) and its value (unquoted). */
interface Cell {
  start: number;
  end: number;
  value: string;
  quoted: boolean;
}

/** One record: its cells, where it ends (before its line end) and the line it starts on. */
interface CsvRecord {
  cells: Cell[];
  end: number;
  line: number;
}

interface HeaderLine {
  delimiter: Delimiter;
  lat: number;
  lon: number;
  elevation: number | null;
  /** Why the header cannot be read (two latitude columns …), or null. */
  ambiguous: string | null;
}

interface Header {
  delimiter: Delimiter;
  lat: number;
  lon: number;
  /** The elevation column, or null: one is appended. */
  elevation: number | null;
  record: CsvRecord;
}

/**
 * Whether the text starts like a CSV point list (a header row naming a latitude and a longitude column), or like a
 * CSV of bare numbers (`48.7,9.1`), which readCsv then refuses with a message asking for a header.
 *
 * @example
 * ```ts
 * assert.equal(looksLikeCsv('name;Latitude;Longitude\nA;48,7;9,1\n'), true);
 * assert.equal(looksLikeCsv('48.7,9.1\n48.8,9.2\n'), true); // no header: readCsv says it needs one
 * assert.equal(looksLikeCsv('sep=;\nBreite;Länge\n'), true); // Excel's delimiter hint first
 * assert.equal(looksLikeCsv('hello, world'), false);
 * ```
 */
export function looksLikeCsv(head: string): boolean {
  const { line, next, sep } = csvStart(head);
  if (sep !== null) return true; // Excel's hint says CSV; readCsv names what else is wrong
  if (line === undefined) return false;
  // namesACoordinate holds for every header findHeader reads (it needs a latitude and a longitude name).
  if (
    headerlessDelimiter(line, next) !== null ||
    namesXAndY(line) ||
    namesWkt(line) ||
    namesACoordinate(line) ||
    bothCoordinatesColumn(line) !== undefined
  )
    return true;
  return headerBelow(head) !== null; // a title line above the header: readCsv says to remove it
}

/** Lines after the first where a header is looked for, to name it in the 400 (a report's title lines above it). */
const HEADER_SEARCH_LINES = 4;

/** A header line among the few after the first (its line number and text), or null. */
function headerBelow(text: string): { number: number; line: string } | null {
  let at = firstLine(text, 0);
  for (let i = 0; at && i < HEADER_SEARCH_LINES; i++) {
    at = firstLine(text, at.next);
    if (at && findHeader(at.line) !== null) {
      return { number: text.slice(0, at.next).split(crOnly(text) ? '\r' : '\n').length - 1, line: at.line };
    }
  }
  return null;
}

/** A header line's cell names, lower case, unquoted (split at any delimiter: only for recognising names). */
function headerNames(line: string): Set<string> {
  const cells = line.split(/[,;\t|]/, MAX_CSV_CELLS + 1); // bounded: a line may be 30 MiB of delimiters
  return new Set(cells.map((c) => c.replace(/"/g, '').trim().normalize('NFC').toLowerCase()));
}

/** A column name that starts like a coordinate's but says another unit (`lat (rad)`, `lon_rad`): not read. */
const COORDINATE_IN_OTHER_UNIT = /^(lat|latitude|lon|lng|long|longitude)[\s_(].+/;

/** Whether a delimited header line names a latitude or a longitude (one without the other: readCsv says which). */
function namesACoordinate(line: string): boolean {
  return (
    /[,;\t|]/.test(line) &&
    [...headerNames(line)].some(
      (n) => LATITUDE.test(n) || LONGITUDE.test(n) || COORDINATE_IN_OTHER_UNIT.test(n),
    )
  );
}

/** A column name for both coordinates in one cell (`latlng`, `lat/lon`, `coordinates`): not read, readCsv says why. */
const BOTH_COORDINATES =
  /^(lat(itude)?[\s_/-]*(lon|lng|long|longitude)|(lon|lng|long|longitude)[\s_/-]*lat(itude)?|coordinates?|coords?)$/;

/** The header's column (lower case) that names both coordinates, or undefined. */
function bothCoordinatesColumn(line: string): string | undefined {
  return [...headerNames(line)].find((n) => BOTH_COORDINATES.test(n));
}

/** Whether a header line has X and Y columns (QGIS's GEOMETRY=AS_XY export): a CSV, whose 400 says why not read. */
function namesXAndY(line: string): boolean {
  const cells = headerNames(line);
  return cells.has('x') && cells.has('y');
}

/** Whether a header line has a WKT column (QGIS's and ogr2ogr's GEOMETRY=AS_WKT export): a CSV, told why not read. */
function namesWkt(line: string): boolean {
  return /[,;\t|]/.test(line) && headerNames(line).has('wkt');
}

/**
 * Excel's hint on a CSV's first line naming its delimiter (`sep=;`), which exporters write so that Excel splits the
 * columns whatever the computer's list separator; it is kept as it is.
 */
const SEP_LINE = /^"?sep=(.)"?$/i;

/** The header line, the line after it, and the delimiter a `sep=` line before it names (null without one). */
function csvStart(text: string): { line: string | undefined; next: string | undefined; sep: string | null } {
  const first = firstLine(text, 0);
  if (!first) return { line: undefined, next: undefined, sep: null };
  const sep = SEP_LINE.exec(first.line)?.[1] ?? null;
  const header = sep === null ? first : firstLine(text, first.next);
  return { line: header?.line, next: header && firstLine(text, header.next)?.line, sep };
}

/**
 * The first line from `from` on with something besides delimiters and spaces (rows like `,,,` are a
 * spreadsheet's empty rows), and where the next one starts; found line by line: the text may be 32 MiB of them.
 */
function firstLine(text: string, from: number): { line: string; next: number } | undefined {
  const lineEnd = crOnly(text) ? '\r' : '\n';
  for (let start = from; start < text.length;) {
    const newline = text.indexOf(lineEnd, start);
    const end = newline === -1 ? text.length : newline;
    const line = text.slice(start, end > start && text[end - 1] === '\r' ? end - 1 : end);
    if (line.replace(/[,;\t|]/g, '').trim() !== '') return { line, next: end + 1 };
    start = end + 1;
  }
  return undefined;
}

/**
 * Whether the text's lines end with a lone CR, as Excel for Mac's "CSV (Macintosh)" and classic Mac OS tools write
 * them: only when it has no LF at all. In a file with LF line ends a stray CR stays inside its cell, never a row of
 * its own (splitting there could move a cell into another column).
 */
function crOnly(text: string): boolean {
  return text.includes('\r') && !text.includes('\n');
}

/**
 * Rows are read one at a time and each becomes a slot at once, so a file of more rows than MAX_FILE_COORDINATES
 * is refused at the first one over (a 32 MiB `.csv.gz` of `1,1` rows once held 3.5 GB before it was refused).
 */
export function readCsv(text: string, options: TrackReadOptions): ParsedTrack {
  const { line, next, sep } = csvStart(text);
  if (sep !== null && !isDelimiter(sep)) {
    throw new InvalidRequestError(
      `The CSV file's first line names '${sep}' as its delimiter (sep=${sep}): the delimiters read are comma, semicolon, tab and |.`,
    );
  }
  if (line === undefined) {
    throw new InvalidRequestError('The CSV file is empty: it needs a header row and a row per point.');
  }
  const found = findHeader(line, sep);
  if (!found) throw headerError(line, next, sep === null ? headerBelow(text) : null);
  if (found.ambiguous !== null) throw new InvalidRequestError(found.ambiguous);
  const records = scanRecords(text, found.delimiter);
  if (sep !== null) nextNonBlank(records); // the sep= line
  const header: Header = { ...found, record: nextNonBlank(records) as CsvRecord };
  // Heights are written with a decimal comma when any row's coordinates have one; the writes come after the read.
  const decimalComma = { seen: false };
  const slots = new SlotCollector(options.maxCoordinates);
  const extraEdits: ExtraEdit[] = header.elevation === null ? [{ edit: appendedHeader(header) }] : [];
  for (let row = nextNonBlank(records); row; row = nextNonBlank(records)) {
    checkRowWidth(row, header);
    if (unplaced(row, header)) {
      // A place without coordinates (an address list's row nobody geocoded): no point, left as it is; an
      // appended column still gets its empty cell, so the row's later columns line up.
      if (header.elevation === null) extraEdits.push({ edit: padding(row, header) });
      continue;
    }
    if (!decimalComma.seen && header.delimiter !== ',') {
      const { cells } = row;
      decimalComma.seen = [header.lat, header.lon].some((c) => cells[c]?.value.includes(','));
    }
    slots.add(rowSlot(row, header, decimalComma));
  }
  return { slots: slots.slots, extraEdits };
}

/** Whether a row has neither a latitude nor a longitude (both cells empty or missing). */
function unplaced(row: CsvRecord, header: Header): boolean {
  return [header.lat, header.lon].every((c) => (row.cells[c]?.value.trim() ?? '') === '');
}

/** A row with more cells than the header cannot get an appended column that lines up. */
function checkRowWidth(row: CsvRecord, header: Header): void {
  const columns = header.record.cells.length;
  if (header.elevation === null && row.cells.length > columns) {
    throw new InvalidRequestError(
      `The CSV file's line ${row.line} has ${row.cells.length} cells, the header ${columns}: the elevation column ` +
        'appended after the last would not line up. Give every row the header’s cells, or add an elevation column.',
    );
  }
}

/**
 * The height's cell at the end of a row without one (the appended column's, or an elevation column a short row
 * lacks), holding `height`: after the empty cells the row needs first, so the height lands in its column.
 */
function padding(row: CsvRecord, header: Header, height = ''): TextEdit {
  const column = header.elevation ?? header.record.cells.length;
  const pad = header.delimiter.repeat(Math.max(0, column - row.cells.length + 1));
  return { start: row.end, end: row.end, replacement: pad + height };
}

function nextNonBlank(records: Iterator<CsvRecord>): CsvRecord | undefined {
  for (let next = records.next(); !next.done; next = records.next())
    if (!isBlank(next.value)) return next.value;
  return undefined;
}

function headerError(
  line: string,
  next: string | undefined,
  below: { number: number; line: string } | null,
): InvalidRequestError {
  if (below !== null) {
    return new InvalidRequestError(
      `The CSV file's header must be its first line: line ${below.number} '${excerpt(below.line)}' names the ` +
        `columns, below '${excerpt(line)}'. Remove the line${below.number > 2 ? 's' : ''} above the header.`,
    );
  }
  if (headerlessDelimiter(line, next) !== null) {
    return new InvalidRequestError(
      `The CSV file has no header row: its first line '${excerpt(line)}' is data. Add a header naming the columns, ` +
        "e.g. 'lat,lon', so latitude and longitude are not guessed.",
    );
  }
  const both = bothCoordinatesColumn(line);
  if (both !== undefined) {
    return new InvalidRequestError(
      `The CSV file's header '${excerpt(line)}' has one column '${excerpt(both)}' for both coordinates: split it ` +
        "into a latitude column and a longitude column, named lat and lon (a number each), as a spreadsheet's " +
        '"Text to Columns" does.',
    );
  }
  const names = [...headerNames(line)];
  const [lat, lon] = [LATITUDE, LONGITUDE].map((pattern) => names.some((n) => pattern.test(n)));
  const otherUnit = names.find(
    (n) => COORDINATE_IN_OTHER_UNIT.test(n) && !LATITUDE.test(n) && !LONGITUDE.test(n),
  );
  const unitNote =
    otherUnit === undefined
      ? ''
      : ` '${excerpt(otherUnit)}' names no column: after a coordinate's name only a unit in degrees may follow, ` +
        '(°), (deg), (dd), (WGS84) or _deg.';
  if (lat !== lon) {
    return new InvalidRequestError(
      `The CSV file's header '${excerpt(line)}' names a ${lat ? 'latitude' : 'longitude'} column but no ` +
        `${lat ? 'longitude' : 'latitude'} column: name it ${lat ? 'lon (or lng, long, longitude)' : 'lat (or latitude)'}.` +
        unitNote,
    );
  }
  return new InvalidRequestError(
    `The CSV file's header '${excerpt(line)}' names no latitude and longitude columns: name them lat (or latitude) ` +
      'and lon (or lng, long, longitude).' +
      unitNote +
      (namesXAndY(line)
        ? ' Columns X and Y are not read, since they may hold any CRS: if they are WGS84 degrees (as QGIS exports ' +
          'an EPSG:4326 layer with GEOMETRY=AS_XY), rename X to lon and Y to lat.'
        : '') +
      (namesWkt(line)
        ? ' A WKT column is not read: export the points as columns (GEOMETRY=AS_XY in QGIS or ogr2ogr, from an ' +
          'EPSG:4326 layer) and name them lat and lon.'
        : ''),
  );
}

/**
 * The delimiter and columns of a header line, trying each delimiter in turn (only `sep`, when a `sep=` line named
 * one); null when none names both.
 */
function findHeader(line: string, sep: Delimiter | null = null): HeaderLine | null {
  for (const delimiter of sep === null ? DELIMITERS : [sep]) {
    if (!line.includes(delimiter)) continue;
    let values: string[];
    try {
      values = (scanRecords(line, delimiter).next().value as CsvRecord).cells.map((c) => c.value);
    } catch (error) {
      if (error instanceof TooManyCellsError) throw error;
      values = line.split(delimiter, MAX_CSV_CELLS + 1); // an unclosed quote: readCsv's full scan names its line
    }
    // ` "lat" ` (a space before the quote) is not quoted by RFC 4180, but it names the column all the same.
    const names = values.map((v) =>
      v
        .trim()
        .replace(/^"(.*)"$/, '$1')
        .normalize('NFC')
        .toLowerCase(),
    );
    const columns = (pattern: RegExp) => names.flatMap((n, i) => (pattern.test(n) ? [i] : []));
    const [lat, lon, elevation] = [columns(LATITUDE), columns(LONGITUDE), columns(ELEVATION)];
    if (lat.length > 0 && lon.length > 0) {
      const twice = [
        ['latitude', lat],
        ['longitude', lon],
        ['elevation', elevation],
      ].find(([, found]) => found.length > 1) as [string, number[]] | undefined;
      return {
        delimiter,
        lat: lat[0],
        lon: lon[0],
        elevation: elevation[0] ?? null,
        // Two columns that could be the one read (or written) are refused rather than one picked.
        ambiguous: twice
          ? `The CSV file's header names more than one ${twice[0]} column (${twice[1].map((i) => `'${values[i].trim()}'`).join(', ')}): keep one, or rename the others.`
          : null,
      };
    }
  }
  return null;
}

function isDelimiter(text: string): text is Delimiter {
  return (DELIMITERS as readonly string[]).includes(text);
}

/**
 * The delimiter of a data row as the first line (a file without a header), or null: two or more numbers, or (as
 * GPSBabel's `csv` writes `lat, lon, name`) two numbers or more among text cells when the next line has as many
 * cells with numbers in the same columns; a header of years (`name,2020,2021`) has no such line under it.
 */
function headerlessDelimiter(line: string, next: string | undefined): Delimiter | null {
  for (const delimiter of DELIMITERS) {
    const numeric = numberColumns(line, delimiter);
    if (numeric.cells >= 2 && numeric.columns.length === numeric.cells) return delimiter;
    if (numeric.columns.length < 2 || next === undefined) continue;
    const below = numberColumns(next, delimiter);
    if (below.cells === numeric.cells && numeric.columns.every((c) => below.columns.includes(c)))
      return delimiter;
  }
  return null;
}

/** How many cells a line splits into at `delimiter` (at most MAX_CSV_CELLS + 1), and which hold a number. */
function numberColumns(line: string, delimiter: Delimiter): { cells: number; columns: number[] } {
  const cells = line.split(delimiter, MAX_CSV_CELLS + 1).map((c) => c.trim());
  const columns = cells.flatMap((c, i) => (parseNumber(c, delimiter !== ',') !== null ? [i] : []));
  return { cells: cells.length, columns };
}

function rowSlot(row: CsvRecord, header: Header, decimalComma: { readonly seen: boolean }): HeightSlot {
  const where = () => `line ${row.line}`;
  const { delimiter } = header;
  const lat = coordinate(row, header.lat, 'latitude', delimiter);
  const lon = coordinate(row, header.lon, 'longitude', delimiter);
  const location = checkedLocation(lat, lon, where);
  // The elevation column's cell; without that column (or in a row short of it) the height goes at the row's end.
  const cell = header.elevation === null ? undefined : (row.cells[header.elevation] as Cell | undefined);
  // A height takes the file's quoting: quoted where its cell was, or (a new cell) where every cell of the row is.
  const quoted = cell ? cell.quoted : row.cells.every((c) => c.quoted); // a row has a cell at least
  const quote = (text: string) => (quoted ? `"${text}"` : text);
  const format = (height: string) => quote(decimalComma.seen ? height.replace('.', ',') : height);
  const existing = cell ? parseNumber(cell.value.trim(), delimiter !== ',') : null;
  if (cell && header.elevation !== null && (existing === Infinity || existing === -Infinity)) {
    // Decimal text beyond the double range (1e400): a damaged number, not a height (HeightOverflowError).
    const column = header.record.cells[header.elevation].value.trim();
    throw new HeightOverflowError(
      `The CSV file's line ${row.line} has ${column} '${excerpt(cell.value.trim())}'`,
      { readers: 'OGR reads', fix: 'leave the cell empty' },
    );
  }
  return {
    location,
    height: existing,
    onPath: true,
    write: (height: string): TextEdit =>
      cell
        ? { start: cell.start, end: cell.end, replacement: format(height) }
        : padding(row, header, format(height)),
    // A 0 (the placeholder exports write when they know no height) is emptied, any other height left as it is;
    // an appended column still gets its (empty) cell, so later columns line up.
    clear: (): TextEdit | null =>
      cell
        ? isPlaceholderHeight(existing)
          ? { start: cell.start, end: cell.end, replacement: quote('') }
          : null
        : padding(row, header),
  };
}

function coordinate(row: CsvRecord, column: number, name: string, delimiter: Delimiter): number {
  const raw = row.cells[column]?.value.trim() ?? '';
  const value = parseNumber(raw, delimiter !== ',');
  if (value === null) {
    throw new InvalidRequestError(
      raw === ''
        ? `The CSV file's line ${row.line} has no ${name}.`
        : `The CSV file's line ${row.line} has ${name} '${excerpt(raw)}', not a number in decimal degrees.`,
    );
  }
  return value;
}

/** `elevation` after the header's last cell, quoted if that cell is. */
function appendedHeader({ delimiter, record }: Header): TextEdit {
  const last = record.cells[record.cells.length - 1];
  const name = last.quoted ? '"elevation"' : 'elevation';
  return { start: record.end, end: record.end, replacement: delimiter + name };
}

const NUMBER = /^[+-]?(\d+(?:\.\d*)?|\.\d+)([eE][+-]?\d+)?$/;
const DECIMAL_COMMA = /^[+-]?\d+,\d+$/;

/** A decimal number, or with a decimal comma where the delimiter allows one; null otherwise. */
function parseNumber(text: string, commaAllowed: boolean): number | null {
  if (NUMBER.test(text)) return Number(text);
  if (commaAllowed && DECIMAL_COMMA.test(text)) return Number(text.replace(',', '.'));
  return null;
}

/** An empty line, or one of delimiters only (`,,,`: a spreadsheet's empty row). */
function isBlank(record: CsvRecord): boolean {
  return record.cells.every((c) => !c.quoted && c.value.trim() === '');
}

/**
 * RFC 4180 records: a cell in double quotes may hold the delimiter, line ends and `""` (one quote); a quote inside
 * an unquoted cell is taken as it is, as spreadsheets read it. Lines end with LF or CRLF, or with CR in a file
 * without LF (crOnly).
 */
function* scanRecords(text: string, delimiter: Delimiter): Generator<CsvRecord, void, undefined> {
  const cr = crOnly(text);
  let line = 1;
  let i = 0;
  while (i <= text.length) {
    const record: CsvRecord = { cells: [], end: i, line };
    for (;;) {
      const start = i;
      let value: string;
      let quoted = false;
      if (text[i] === '"') {
        quoted = true;
        const parts: string[] = [];
        let from = i + 1;
        for (;;) {
          const close = text.indexOf('"', from);
          if (close === -1) {
            throw new InvalidRequestError(`The CSV file's quoted cell at line ${line} has no closing quote.`);
          }
          parts.push(text.slice(from, close));
          if (text[close + 1] === '"') {
            parts.push('"');
            from = close + 2;
          } else {
            i = close + 1;
            break;
          }
        }
        // Whatever follows the closing quote up to the next delimiter is part of the cell, as spreadsheets read it.
        const afterQuote = i;
        while (i < text.length && text[i] !== delimiter && !lineEndAt(text, i, cr)) i++;
        value = parts.join('') + text.slice(afterQuote, i);
        line += countLines(value, cr ? '\r' : '\n');
      } else {
        while (i < text.length && text[i] !== delimiter && !lineEndAt(text, i, cr)) i++;
        value = text.slice(start, i);
      }
      if (record.cells.push({ start, end: i, value, quoted }) > MAX_CSV_CELLS)
        throw new TooManyCellsError(line);
      if (text[i] === delimiter) {
        i++;
        continue;
      }
      break;
    }
    record.end = i;
    yield record;
    if (i >= text.length) break;
    i += isCrLf(text, i) ? 2 : 1;
    line++;
    if (i === text.length) break; // a final line end ends the last record; it does not start another
  }
}

/**
 * Cells one row may hold: a logger's CSV has a few dozen columns. Each cell is an object of its own, so 30 MiB of
 * commas (a 30 KB gzip upload) made 15 million and ran a worker, once serverless-offline itself, out of memory (a
 * helper's probe).
 */
export const MAX_CSV_CELLS = 1024;

class TooManyCellsError extends InvalidRequestError {
  constructor(line: number) {
    super(
      `The CSV file's line ${line} has more than ${MAX_CSV_CELLS} cells: a row of a track holds its coordinates and a few more columns.`,
    );
  }
}

/** Whether a line ends at i: LF or CRLF, or CR in a file whose lines end with CR (crOnly). */
function lineEndAt(text: string, i: number, cr: boolean): boolean {
  return cr ? text[i] === '\r' : text[i] === '\n' || isCrLf(text, i);
}

function isCrLf(text: string, i: number): boolean {
  return text[i] === '\r' && text[i + 1] === '\n';
}

function countLines(text: string, lineBreak: '\n' | '\r'): number {
  let n = 0;
  for (const c of text) if (c === lineBreak) n++;
  return n;
}
