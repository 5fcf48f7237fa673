/**
 * CSV point lists: which rows are height slots, where a height is written (an existing elevation column, or one
 * appended and padded), what stays byte for byte (quotes, line ends, blank rows, other columns), decimal commas,
 * and the 400 every malformed file gets, naming the line. Property: a height written reads back as written, at
 * its own row, whatever the quoting and delimiters.
 */
import fc from 'fast-check';
import { gzipSync, gunzipSync } from 'node:zlib';
import {
  InvalidRequestError,
  fillFileHeights,
  loadDatasetRegistry,
  readTrackPath,
  tryDetectTrackFormat,
} from '../../../layers/elevation';
import { looksLikeCsv, MAX_CSV_CELLS, readCsv } from '../../../layers/elevation/track/csv';
import { TooManyCoordinatesError } from '../../../layers/elevation/track/height-slot';
import { applyEdits } from '../../../layers/elevation/track/text-edits';

const OPTIONS = { maxCoordinates: 100, absoluteAltitude: false };

/** Each row gets 100 + its index (a height landing on another row is caught); `nodata` rows get cleared instead. */
function fill(text: string, nodata: ReadonlySet<number> = new Set()): string {
  const { slots, extraEdits } = readCsv(text, OPTIONS);
  const edits = slots.flatMap((slot, i) => {
    const edit = nodata.has(i) ? slot.clear() : slot.write(String(100 + i + 0.25));
    return edit ? [edit] : [];
  });
  return applyEdits(text, [...edits, ...extraEdits.map((e) => e.edit)]);
}

const locations = (text: string) => readCsv(text, OPTIONS).slots.map((s) => [s.location.lat, s.location.lon]);

describe('readCsv: a point without data', () => {
  it('empties a placeholder 0 in the elevation column and keeps a real height', () => {
    expect(fill('name,lat,lon,ele\nA,48.5,9.5,0\nB,48.6,9.6,512.5\nC,48.7,9.7,\n', new Set([0, 1, 2]))).toBe(
      'name,lat,lon,ele\nA,48.5,9.5,\nB,48.6,9.6,512.5\nC,48.7,9.7,\n',
    );
    expect(fill('Name;Breite;Länge;Höhe\r\nA;48,5;9,5;0,0\r\n', new Set([0]))).toBe(
      'Name;Breite;Länge;Höhe\r\nA;48,5;9,5;\r\n',
    );
  });
});

// Each cell is an object: 30 MiB of commas (a 30 KB gzip upload) made 15 million and ran a worker, once
// serverless-offline itself, out of memory (a helper's probe). A row is bounded instead.
describe('readCsv: the cells of a row are bounded', () => {
  const commas = (n: number) => ','.repeat(n - 1);
  it(`reads a row of ${MAX_CSV_CELLS} cells and refuses one more, naming the line`, () => {
    const header = `lat,lon,elevation${commas(MAX_CSV_CELLS - 2)}`;
    expect(readCsv(`${header}\n48.7,9.1,${commas(MAX_CSV_CELLS - 2)}\n`, OPTIONS).slots).toHaveLength(1);
    expect(() => readCsv(`${header}\n48.7,9.1,${commas(MAX_CSV_CELLS - 1)}\n`, OPTIONS)).toThrow(
      `The CSV file's line 2 has more than ${MAX_CSV_CELLS} cells: a row of a track holds its coordinates and a few more columns.`,
    );
  });

  it('refuses a header of millions of cells at once, whatever follows', () => {
    const refusal = () => readCsv(`lat,lon${commas(3_000_000)}\n48.7,9.1\n`, OPTIONS);
    expect(refusal).toThrow(InvalidRequestError);
    expect(refusal).toThrow(`The CSV file's line 1 has more than ${MAX_CSV_CELLS} cells`);
    expect(() => readCsv(`name${commas(3_000_000)}\n48.7,9.1\n`, OPTIONS)).toThrow(InvalidRequestError);
  });
});

describe('readCsv: the header', () => {
  it.each([
    ['lat,lon', ','],
    ['Latitude;Longitude', ';'],
    ['LAT\tLNG', '\t'],
    ['latitude|long', '|'],
    [' "lat" , "lon" ', ','],
    ['Breite;Länge', ';'], // German
    ['BREITENGRAD;LÄNGENGRAD', ';'],
    ['breite;laenge', ';'],
    ['Latitud;Longitud', ';'], // Spanish
    ['latitudine;longitudine', ';'], // Italian
    ['Breedtegraad;Lengtegraad', ';'], // Dutch
    ['Breite;La\u0308nge', ';'], // a decomposed ä, as macOS file names and some exports write it
    ['Latitude (°),Longitude (°)', ','], // a unit in degrees
    ['lat [deg],lon_deg', ','],
    ['Latitude (WGS84);Longitude (WGS 84)', ';'],
    ['Breite (dd);Länge (dd)', ';'],
    ['latitude (decimal degrees)\tlongitude (degrees)', '\t'],
  ])('finds the columns of %j (delimiter %j), in any case and quoting', (header, delimiter) => {
    const text = `${header}\n48.5${delimiter}9.5\n`;
    expect(locations(text)).toEqual([[48.5, 9.5]]);
  });

  it('reads the delimiter an Excel "sep=" first line names, and keeps that line', () => {
    expect(fill('sep=;\r\nName;lat;lon\r\nA;48,5;9,5\r\n')).toBe(
      'sep=;\r\nName;lat;lon;elevation\r\nA;48,5;9,5;100,25\r\n',
    );
    expect(fill('"sep=,"\n\nlat,lon\n48.5,9.5\n')).toBe('"sep=,"\n\nlat,lon,elevation\n48.5,9.5,100.25\n');
    expect(fill('SEP=\t\nlat\tlon\n48.5\t9.5\n')).toBe('SEP=\t\nlat\tlon\televation\n48.5\t9.5\t100.25\n');
    // Only the delimiter it names: a header that would be read with another is not.
    expect(() => readCsv('sep=;\nlat,lon\n48.5,9.5\n', OPTIONS)).toThrow(
      "The CSV file's header 'lat,lon' names no latitude and longitude columns",
    );
    expect(() => readCsv('sep=;\nlat;lon\n48,5;x\n', OPTIONS)).toThrow(
      "The CSV file's line 3 has longitude 'x'",
    );
    expect(tryDetectTrackFormat(Buffer.from('sep=;\nlat;lon\n'))).toBe('csv');
  });

  it('refuses a "sep=" line naming a delimiter it does not read, or nothing after it', () => {
    expect(tryDetectTrackFormat(Buffer.from('sep=:\nlat:lon\n'))).toBe('csv');
    expect(() => readCsv('sep=:\nlat:lon\n1:2\n', OPTIONS)).toThrow(
      "The CSV file's first line names ':' as its delimiter (sep=:): the delimiters read are comma, semicolon, tab and |.",
    );
    expect(() => readCsv('sep=;\n;;\n', OPTIONS)).toThrow('The CSV file is empty');
  });

  it('finds the columns wherever they stand, longitude first too', () => {
    expect(locations('id,lng,name,lat\n1,9.5,A,48.5\n')).toEqual([[48.5, 9.5]]);
  });

  it('appends elevation after the last header cell, quoted when that cell is quoted', () => {
    expect(fill('name,lat,lon\nA,48.5,9.5\n')).toBe('name,lat,lon,elevation\nA,48.5,9.5,100.25\n');
    expect(fill('"lat";"lon"\n48,5;9,5\n')).toBe('"lat";"lon";"elevation"\n48,5;9,5;100,25\n');
  });

  it.each([
    [
      'lat (rad),lon (rad)',
      /names no latitude and longitude columns: .* 'lat \(rad\)' names no column: after a coordinate's name only a unit in degrees may follow, \(°\), \(deg\), \(dd\), \(WGS84\) or _deg\.$/,
    ], // radians, or any unit but degrees, are not read as degrees
    ['Latitude (UTM),Longitude (UTM)', /names no latitude and longitude columns/],
    [
      'lat (deg) x,lon',
      /names a longitude column but no latitude column: name it lat \(or latitude\)\. 'lat \(deg\) x' names no column/,
    ],
    [
      'name,lon',
      /^The CSV file's header 'name,lon' names a longitude column but no latitude column: name it lat \(or latitude\)\.$/,
    ],
  ])('finds no columns in %j', (header, message) => {
    expect(looksLikeCsv(`${header}\n`)).toBe(true); // a CSV, whose 400 says what its header lacks
    expect(() => readCsv(`${header}\n0.85,0.16\n`, OPTIONS)).toThrow(message);
  });

  it('leaves a height column in another unit alone and appends one in metres', () => {
    expect(fill('lat,lon,Height (ft)\n48.5,9.5,1200\n')).toBe(
      'lat,lon,Height (ft),elevation\n48.5,9.5,1200,100.25\n',
    );
  });

  it.each([
    ...['ele', 'Elev', 'ELEVATION', 'alt', 'Altitude (m)', 'altitude(m)', 'height_m', 'Height', 'Höhe [m]'],
    ...['Höhe', 'Höhe (m)', 'hoehe', 'Altitud', 'altura', 'Elevación', 'elevacion', 'altitudine', 'Hoogte'],
  ])('fills an existing %j column in place', (name) => {
    expect(fill(`lat,lon,${name},note\n48.5,9.5,,x\n48.6,9.6,0,y\n`)).toBe(
      `lat,lon,${name},note\n48.5,9.5,100.25,x\n48.6,9.6,101.25,y\n`,
    );
  });

  it('reads the existing height of each row (null where empty or not a number)', () => {
    const heights = readCsv('lat,lon,ele\n1,2,350.5\n1,2,\n1,2,n/a\n1,2,0\n', OPTIONS).slots.map(
      (s) => s.height,
    );
    expect(heights).toEqual([350.5, null, null, 0]);
  });
});

describe('readCsv: a height beyond the double range', () => {
  it('refuses an elevation cell of 1e400 (OGR reads it as inf) naming its line and column, not reading it as a height', () => {
    const text = 'lat;lon;Höhe (m)\n1;2;350,5\n1;2; -1e400 \n';
    expect(() => readCsv(text, OPTIONS)).toThrow(InvalidRequestError);
    expect(() => readCsv(text, OPTIONS)).toThrow(
      "The CSV file's line 3 has Höhe (m) '-1e400', a number beyond any height readers can hold (OGR reads it as infinity): write the height it should have, or leave the cell empty.",
    );
  });
});

describe('readCsv: what stays as it was', () => {
  it('keeps CRLF and LF line ends, a last line without one, blank and empty rows, and every other cell', () => {
    const text = 'name,lat,lon\r\n"A, the hill",48.5,9.5\r\n\r\n,,\nB,48.6,9.6';
    expect(fill(text)).toBe(
      'name,lat,lon,elevation\r\n"A, the hill",48.5,9.5,100.25\r\n\r\n,,\nB,48.6,9.6,101.25',
    );
  });

  it('reads and keeps CR line ends in a file without LF (Excel for Mac’s "CSV (Macintosh)")', () => {
    const text = 'name;Latitude;Longitude\r"A\rhill";48,5;9,5\r\r;;\rB;48,6;x\r';
    expect(tryDetectTrackFormat(Buffer.from(text))).toBe('csv');
    expect(() => readCsv(text, OPTIONS)).toThrow(
      "The CSV file's line 6 has longitude 'x', not a number in decimal degrees.", // lines counted in a quoted cell too
    );
    expect(fill(text.replace(';x', ';9,6'))).toBe(
      'name;Latitude;Longitude;elevation\r"A\rhill";48,5;9,5;100,25\r\r;;\rB;48,6;9,6;101,25\r',
    );
    expect(() => readCsv('x,y\r1,2\r', OPTIONS)).toThrow("The CSV file's header 'x,y' names no latitude");
    // The X/Y hint only where both columns are there.
    expect(() => readCsv('x,z\n1,2\n', OPTIONS)).toThrow(/longitude\)\.$/);
    expect(() => readCsv('xy,y\n1,2\n', OPTIONS)).toThrow(/longitude\)\.$/);
  });

  it('keeps a stray CR inside its cell where the lines end with LF, rather than start a row there', () => {
    expect(fill('name,lat,lon\nA\r,48.5,9.5\n')).toBe('name,lat,lon,elevation\nA\r,48.5,9.5,100.25\n');
    expect(() => readCsv('lon,lat,ele\n9.5,48.5\r48.6,9.6\n', OPTIONS)).toThrow(
      "The CSV file's line 2 has latitude '48.5\r48.6', not a number in decimal degrees.",
    );
  });

  it('reads quoted cells holding the delimiter, a line end and escaped quotes, counting lines through them', () => {
    const text = 'name,lat,lon\n"say ""hi""\nand go",48.5,9.5\nB,48.6,x\n';
    expect(locations(text.replace(',x', ',9.6'))).toEqual([
      [48.5, 9.5],
      [48.6, 9.6],
    ]);
    expect(() => readCsv(text, OPTIONS)).toThrow(
      "The CSV file's line 4 has longitude 'x', not a number in decimal degrees.",
    );
  });

  it("writes a height in the file's quoting: quoted where its cell was, or in a new cell where the row's all are", () => {
    expect(fill('lat,lon,ele\n48.5,9.5,"12"\n')).toBe('lat,lon,ele\n48.5,9.5,"100.25"\n');
    expect(fill('"lat","lon","time"\n"48.5","9.5","2012-06-15T20:38:20Z"\n48.6,9.6,t\n')).toBe(
      '"lat","lon","time","elevation"\n"48.5","9.5","2012-06-15T20:38:20Z","100.25"\n48.6,9.6,t,101.25\n',
    );
    // A placeholder 0 without data is emptied in its own quoting too.
    expect(fill('lat,lon,ele\n48.5,9.5,"0"\n', new Set([0]))).toBe('lat,lon,ele\n48.5,9.5,""\n');
  });

  it('pads a row shorter than the header so its height lands in its column', () => {
    expect(fill('lat,lon,note,x\n48.5,9.5\n48.6,9.6,n,x\n')).toBe(
      'lat,lon,note,x,elevation\n48.5,9.5,,,100.25\n48.6,9.6,n,x,101.25\n',
    );
    expect(fill('lat,lon,ele,note\n48.5,9.5\n')).toBe('lat,lon,ele,note\n48.5,9.5,100.25\n');
  });

  it('gives a row without data an empty cell in an appended column, and leaves an existing cell alone', () => {
    expect(fill('lat,lon,n\n48.5,9.5,a\n48.6,9.6\n48.7,9.7,c\n', new Set([0, 1]))).toBe(
      'lat,lon,n,elevation\n48.5,9.5,a,\n48.6,9.6,,\n48.7,9.7,c,102.25\n',
    );
    expect(fill('lat,lon,ele\n48.5,9.5,7\n', new Set([0]))).toBe('lat,lon,ele\n48.5,9.5,7\n');
  });

  it('leaves a row with neither coordinate (a place nobody geocoded) as it is: no point, an empty appended cell', () => {
    const text = 'name,lat,lon\nA,48.5,9.5\nB,,\nC\n"D", ,\t\nE,48.6,9.6\n';
    expect(readCsv(text, OPTIONS).slots.map((s) => s.location)).toEqual([
      { lat: 48.5, lon: 9.5 },
      { lat: 48.6, lon: 9.6 },
    ]);
    expect(fill(text)).toBe(
      'name,lat,lon,elevation\nA,48.5,9.5,100.25\nB,,,\nC,,,\n"D", ,\t,\nE,48.6,9.6,101.25\n',
    );
    // With an elevation column, such a row keeps whatever it holds (even a 0: there is no place to ask about).
    expect(fill('lat;lon;ele\n;;0\n;\n48,5;9,5;0\n')).toBe('lat;lon;ele\n;;0\n;\n48,5;9,5;100,25\n');
    expect(readCsv('lat,lon\n,\n,\n', OPTIONS).slots).toEqual([]);
  });
});

describe('readCsv: decimal commas', () => {
  it('reads them where the delimiter is not a comma, and writes heights the same way', () => {
    expect(fill('lat;lon\n48,5;9,5\n')).toBe('lat;lon;elevation\n48,5;9,5;100,25\n');
    expect(fill('lat\tlon\n48,5\t9\n')).toBe('lat\tlon\televation\n48,5\t9\t100,25\n');
  });

  it('fills a German spreadsheet’s export: its column names, semicolons and decimal commas', () => {
    expect(fill('Name;Breite;Länge;Höhe (m)\nVaihingen;48,742275;9,101177;\n')).toBe(
      'Name;Breite;Länge;Höhe (m)\nVaihingen;48,742275;9,101177;100,25\n',
    );
  });

  it('writes every height with one when any row has one, even rows before and after it that do not', () => {
    expect(fill('lat;lon\n48;9\n48,5;9,5\n48.6;9.6\n')).toBe(
      'lat;lon;elevation\n48;9;100,25\n48,5;9,5;101,25\n48.6;9.6;102,25\n',
    );
  });

  it('writes decimal points where the coordinates have them, whatever the delimiter', () => {
    expect(fill('lat;lon\n48.5;9.5\n')).toBe('lat;lon;elevation\n48.5;9.5;100.25\n');
    expect(fill('lat;lon\n48;9\n')).toBe('lat;lon;elevation\n48;9;100.25\n');
  });

  it('does not read a quoted "48,5" in a comma-separated file as a number', () => {
    expect(() => readCsv('lat,lon\n"48,5",9\n', OPTIONS)).toThrow(
      "The CSV file's line 2 has latitude '48,5', not a number in decimal degrees.",
    );
  });
});

describe('readCsv: the 400s, naming the line', () => {
  it.each([
    ['', 'The CSV file is empty: it needs a header row and a row per point.'],
    [',,\n\n', 'The CSV file is empty: it needs a header row and a row per point.'],
    [
      '48.5,9.5\n48.6,9.6\n',
      "The CSV file has no header row: its first line '48.5,9.5' is data. Add a header naming the columns, e.g. 'lat,lon', so latitude and longitude are not guessed.",
    ],
    [
      'x,y\r\n1,2\r\n', // CRLF: the line named without its CR
      "The CSV file's header 'x,y' names no latitude and longitude columns: name them lat (or latitude) and lon (or lng, long, longitude).",
    ],
    [
      'x,y\n1,2\n',
      "The CSV file's header 'x,y' names no latitude and longitude columns: name them lat (or latitude) and lon (or lng, long, longitude).",
    ],
    [
      '"X";"Y";"name"\n9,1;48,7;a\n', // QGIS's GEOMETRY=AS_XY export
      'The CSV file\'s header \'"X";"Y";"name"\' names no latitude and longitude columns: name them lat (or latitude) and lon (or lng, long, longitude). Columns X and Y are not read, since they may hold any CRS: if they are WGS84 degrees (as QGIS exports an EPSG:4326 layer with GEOMETRY=AS_XY), rename X to lon and Y to lat.',
    ],
    [
      'WKT,Primary ID,Secondary ID\n"POINT (0 1)",PID1,SID1\n', // ogr2ogr's GEOMETRY=AS_WKT export
      "The CSV file's header 'WKT,Primary ID,Secondary ID' names no latitude and longitude columns: name them lat (or latitude) and lon (or lng, long, longitude). A WKT column is not read: export the points as columns (GEOMETRY=AS_XY in QGIS or ogr2ogr, from an EPSG:4326 layer) and name them lat and lon.",
    ],
    [
      'Track 1\nlat,lon\n48.5,9.5\n', // a report's title line
      "The CSV file's header must be its first line: line 2 'lat,lon' names the columns, below 'Track 1'. Remove the line above the header.",
    ],
    [
      'Report\r\nexported 2026-12-06\r\n,,\r\nname;lat;lon\r\nA;48,5;9,5\r\n',
      "The CSV file's header must be its first line: line 4 'name;lat;lon' names the columns, below 'Report'. Remove the lines above the header.",
    ],
    [
      'Title\r\rlat,lon\r48.5,9.5\r', // Excel for Mac's CR line ends: lines counted at CR
      "The CSV file's header must be its first line: line 3 'lat,lon' names the columns, below 'Title'. Remove the lines above the header.",
    ],
    ['lat,lon\n48.5\n', "The CSV file's line 2 has no longitude."],
    ['lat,lon\n,9\n', "The CSV file's line 2 has no latitude."],
    ['lat,lon\n\n48.5,9.5\n95,9\n', 'Invalid latitude 95 at line 4: latitude must be between -90 and 90.'],
    ['lat,lon\n48.5,181\n', 'Invalid longitude 181 at line 2: longitude must be between -180 and 180.'],
    ['lat,lon\n48.5,9.5e\n', "The CSV file's line 2 has longitude '9.5e', not a number in decimal degrees."],
    ['lat,lon\n"48.5,9.5\n', "The CSV file's quoted cell at line 2 has no closing quote."],
    [
      'lat,lon\n48.5,9.5,extra\n',
      "The CSV file's line 2 has 3 cells, the header 2: the elevation column appended after the last would not line up. Give every row the header’s cells, or add an elevation column.",
    ],
  ])('%j', (text, message) => {
    expect(() => readCsv(text, OPTIONS)).toThrow(InvalidRequestError);
    expect(() => readCsv(text, OPTIONS)).toThrow(message);
  });

  it.each([
    ['lat,lon,Latitude\n1,2,3\n', "more than one latitude column ('lat', 'Latitude')"],
    ['lng;lat;long\n1;2;3\n', "more than one longitude column ('lng', 'long')"],
    ['lat,lon,ele,altitude (m)\n1,2,,\n', "more than one elevation column ('ele', 'altitude (m)')"],
    ['Breite;Länge;lon\n1;2;3\n', "more than one longitude column ('Länge', 'lon')"],
  ])('refuses a header naming a column twice rather than pick one: %j', (text, what) => {
    expect(() => readCsv(text, OPTIONS)).toThrow(
      `The CSV file's header names ${what}: keep one, or rename the others.`,
    );
    expect(tryDetectTrackFormat(Buffer.from(text))).toBe('csv'); // told as CSV, so the message is the CSV's
  });

  it('tells a line with an unclosed quote from a header without throwing, and names the line when reading', () => {
    expect(tryDetectTrackFormat(Buffer.from('"abc,def\n'))).toBe(null);
    expect(tryDetectTrackFormat(Buffer.from('name,lat,lon,"note\n'))).toBe('csv');
    expect(() => readCsv('name,lat,lon,"note\n', OPTIONS)).toThrow(
      "The CSV file's quoted cell at line 1 has no closing quote.",
    );
  });

  it('takes a row with more cells than the header when the elevation column exists', () => {
    expect(fill('lat,lon,ele\n48.5,9.5,,extra\n')).toBe('lat,lon,ele\n48.5,9.5,100.25,extra\n');
  });

  it('stops at the coordinate limit', () => {
    const text = 'lat,lon\n' + '48.5,9.5\n'.repeat(3);
    expect(readCsv(text, { ...OPTIONS, maxCoordinates: 3 }).slots).toHaveLength(3);
    expect(() => readCsv(text, { ...OPTIONS, maxCoordinates: 2 })).toThrow(
      /^The file has more than 2 coordinates, the limit per request \(MAX_FILE_COORDINATES\)/,
    );
  });

  it('stops there without reading the rows after it (an unclosed quote further on is not met)', () => {
    const text = 'lat;lon\n' + '48,5;9,5\n'.repeat(3) + '"unclosed';
    expect(() => readCsv(text, { ...OPTIONS, maxCoordinates: 2 })).toThrow(new TooManyCoordinatesError(2));
    expect(() => readCsv(text, { ...OPTIONS, maxCoordinates: 3 })).toThrow(/has no closing quote/);
  });
});

describe('readCsv: the edges (from mutation testing)', () => {
  it('trims spaces around coordinates and heights, and skips a line of spaces as blank', () => {
    expect(locations('lat, lon\n 48.5 , 9.5 \n   \n48.6,9.6\n')).toEqual([
      [48.5, 9.5],
      [48.6, 9.6],
    ]);
    expect(readCsv('lat,lon,ele\n1,2, 350.5 \n', OPTIONS).slots[0].height).toBe(350.5);
    expect(looksLikeCsv('   \nlat,lon\n')).toBe(true);
  });

  it('reads an existing height with a decimal comma where the delimiter allows it', () => {
    expect(readCsv('lat;lon;ele\n1;2;350,5\n', OPTIONS).slots[0].height).toBe(350.5);
    expect(readCsv('lat,lon,ele\n1,2,"350,5"\n', OPTIONS).slots[0].height).toBe(null); // a comma-separated file
  });

  it('writes decimal commas when any row has them, not only when every row has', () => {
    expect(fill('lat;lon\n48;9\n48,5;9,5\n')).toBe('lat;lon;elevation\n48;9;100,25\n48,5;9,5;101,25\n');
  });

  it('names the missing longitude of a semicolon row without one', () => {
    expect(() => readCsv('lat;lon\n48,5\n', OPTIONS)).toThrow("The CSV file's line 2 has no longitude.");
  });

  it('names the missing latitude of a row whose latitude column comes after its cells', () => {
    expect(() => readCsv('lon;lat\n9,5\n', OPTIONS)).toThrow("The CSV file's line 2 has no latitude.");
  });

  it('takes what follows a closing quote as part of the cell, as spreadsheets do', () => {
    expect(locations('name,lat,lon\n"A"x,48.5,9.5\n')).toEqual([[48.5, 9.5]]);
  });

  it('reads an escaped quote as one quote, so a header cell "lat""" does not name the latitude column', () => {
    expect(() => readCsv('"lat""",lon\n1,2\n', OPTIONS)).toThrow(/names no latitude and longitude columns/);
  });

  it('needs both columns: a latitude alone is not a header', () => {
    expect(() => readCsv('lat,elevation\n1,2\n', OPTIONS)).toThrow(
      "The CSV file's header 'lat,elevation' names a latitude column but no longitude column: name it lon (or lng, long, longitude).",
    );
    expect(looksLikeCsv('lat,elevation\n')).toBe(true);
    expect(looksLikeCsv('lat elevation\n')).toBe(false); // no delimiter: not a header
    // A name written decomposed (macOS file names, some exporters: a + U+0308) is the same name.
    expect(looksLikeCsv('La\u0308nge;Ho\u0308he\n')).toBe(true);
    expect(looksLikeCsv('Breite;La\u0308nge\n')).toBe(true);
    // X and Y are a CSV all the same, so that its 400 can say why they are not read.
    expect(looksLikeCsv('"X";"Y";"name"\n')).toBe(true);
    expect(looksLikeCsv('X, Y\n')).toBe(true);
    expect(looksLikeCsv('X,Z\n')).toBe(false);
    // So is a WKT column (its 400 says to export columns instead), but not the word WKT alone on a line.
    expect(looksLikeCsv('WKT;name\n')).toBe(true);
    expect(looksLikeCsv('WKT\n')).toBe(false);
    // A header within the four lines after a title is a CSV too (its 400 says to remove the title); further down not.
    expect(looksLikeCsv('Title\nnote\n\n,,\nmore\nthe end\nlat,lon\n')).toBe(true);
    expect(looksLikeCsv('Title\na\nb\nc\nd\nlat,lon\n')).toBe(false);
    expect(looksLikeCsv('hello\nworld\n')).toBe(false);
  });

  it("says a CSV of points with a text column (GPSBabel's csv output: lat, lon, name) needs a header row", () => {
    const gpsbabel = '48.75000, 09.10000, W1\n48.76000, 09.15000, W2\n48.65000, 09.02000, \n';
    expect(looksLikeCsv(gpsbabel)).toBe(true);
    expect(() => readCsv(gpsbabel, OPTIONS)).toThrow(
      "The CSV file has no header row: its first line '48.75000, 09.10000, W1' is data. Add a header naming the columns, e.g. 'lat,lon', so latitude and longitude are not guessed.",
    );
    expect(looksLikeCsv('W1;48,75;9,1\nW2;48,76;9,15\n')).toBe(true);
    // Numbers in the same columns of the next line, or it is no data row: prose, a header of years.
    expect(looksLikeCsv('We walked 5, then 6 km\nand rested\n')).toBe(false);
    expect(looksLikeCsv('name,2020,2021\n')).toBe(false);
    expect(looksLikeCsv('a,1,2\nb,c,3\n')).toBe(false);
  });

  it.each([
    ['latlng\n"48.7,9.1"\n"48.8,9.2"\n', 'latlng', 'latlng'],
    ['name;LatLon\nA;48.7 9.1\n', 'name;LatLon', 'latlon'],
    ['id,lat_lng\n1,"48.7, 9.1"\n', 'id,lat_lng', 'lat_lng'],
    ['Coordinates\n"48.7,9.1"\n', 'Coordinates', 'coordinates'],
  ])(
    'says a header whose one column holds both coordinates (%j) needs them in two',
    (text, header, column) => {
      expect(looksLikeCsv(text)).toBe(true);
      expect(() => readCsv(text, OPTIONS)).toThrow(
        `The CSV file's header '${header}' has one column '${column}' for both coordinates: split it into a ` +
          'latitude column and a longitude column, named lat and lon (a number each), as a spreadsheet\'s "Text to ' +
          'Columns" does.',
      );
    },
  );

  it('reads a first line of numbers with spaces as data without a header', () => {
    expect(() => readCsv('48.5, 9.5\n', OPTIONS)).toThrow(/^The CSV file has no header row/);
  });

  it('names the columns of a header naming one twice as written, trimmed', () => {
    expect(() => readCsv('lat, Latitude ,lon\n1,2,3\n', OPTIONS)).toThrow(
      "more than one latitude column ('lat', 'Latitude')",
    );
  });

  it('shortens a long first line in the message to 60 characters', () => {
    const sixty = 'x'.repeat(58) + ',y';
    expect(() => readCsv(`${sixty}\n`, OPTIONS)).toThrow(`header '${sixty}' names`);
    expect(() => readCsv(`${sixty}z\n`, OPTIONS)).toThrow(`header '${sixty}…' names`);
  });
});

describe('telling a CSV from other bodies', () => {
  it.each([
    ['lat,lon\n1,2', 'csv'],
    ['\uFEFFname;Latitude;Longitude\r\n', 'csv'],
    ['\n,,,\nlat,lon\n', 'csv'],
    ['48.5,9.5\n', 'csv'], // read as CSV, so the answer can ask for a header
    ['48,5;9,5\n', 'csv'],
    ['hello, world\n', null],
    ['locations=48.5,9.5|48.6,9.6', null],
    ['[{"lat":48.5,"lng":9.5}]', null],
    ['48.5\n', null],
  ])('%j is %s', (text, format) => {
    expect(tryDetectTrackFormat(Buffer.from(text, 'utf8'))).toBe(format);
  });

  it('looks at the first line that is not empty', () => {
    expect(looksLikeCsv('\n\nlat;lon\n')).toBe(true);
    expect(looksLikeCsv('note\n')).toBe(false);
  });
});

describe('through fillFileHeights and readTrackPath', () => {
  const registry = loadDatasetRegistry({ configPath: 'test/fixtures/config.yaml' });
  const fillOptions = { interpolation: 'nearest' as const, overwrite: true, absoluteAltitude: false };
  const limits = { maxCoordinates: 100, maxUnzippedBytes: 1e6 };

  it('fills a CSV with the dataset’s heights and reports it; keeps non-zero heights with overwrite=false', async () => {
    const csv = 'lat,lon,ele\n49.9,10.1,0\n49.9,10.1,250\n51,10.3,\n';
    const filled = await fillFileHeights(Buffer.from(csv), registry.get('plane-point'), fillOptions, limits);
    expect(Buffer.from(filled.bytes).toString()).toBe(
      'lat,lon,ele\n49.9,10.1,1036\n49.9,10.1,1036\n51,10.3,\n',
    );
    expect(filled.report).toMatchObject({ format: 'csv', coordinates: 3, filled: 2, nodata: 1, kept: 0 });
    const kept = await fillFileHeights(
      Buffer.from(csv),
      registry.get('plane-point'),
      { ...fillOptions, overwrite: false },
      limits,
    );
    expect(Buffer.from(kept.bytes).toString()).toBe('lat,lon,ele\n49.9,10.1,1036\n49.9,10.1,250\n51,10.3,\n');
  });

  it('writes a UTF-16 tab-separated file (Excel’s "Unicode text") back in UTF-16, and a gzip one gzip-compressed', async () => {
    const tsv = Buffer.concat([
      Buffer.from([0xff, 0xfe]),
      Buffer.from('lat\tlon\r\n49,9\t10,1\r\n', 'utf16le'),
    ]);
    const filled = await fillFileHeights(tsv, registry.get('plane-point'), fillOptions, limits);
    expect(filled.encoding).toBe('utf-16le');
    expect(Buffer.from(filled.bytes).toString('utf16le')).toBe(
      '\uFEFFlat\tlon\televation\r\n49,9\t10,1\t1036\r\n',
    );
    const zipped = await fillFileHeights(
      gzipSync('lat,lon\n49.9,10.1\n'),
      registry.get('plane-point'),
      fillOptions,
      limits,
    );
    expect(zipped.gzip).toBe(true);
    expect(gunzipSync(zipped.bytes).toString()).toBe('lat,lon,elevation\n49.9,10.1,1036\n');
  });

  it('gives a profile its rows in order', async () => {
    const path = await readTrackPath(Buffer.from('name;lat;lon\nA;48,5;9,5\nB;48,6;9,6\n'), limits);
    expect(path).toEqual({
      format: 'csv',
      locations: [
        { lat: 48.5, lon: 9.5 },
        { lat: 48.6, lon: 9.6 },
      ],
    });
  });
});

describe('property: a height written reads back at its own row', () => {
  const cell = fc.constantFrom('', 'a', '"q, ""x"""', '"two\nlines"', ' ', '0');
  it('whatever the delimiter, quoting, line ends and other cells', () => {
    fc.assert(
      fc.property(
        fc.constantFrom(',', ';', '\t', '|'),
        fc.constantFrom('\n', '\r\n'),
        fc.boolean(),
        fc.array(
          fc.record({
            lat: fc.integer({ min: -90, max: 90 }),
            lon: fc.integer({ min: -180, max: 180 }),
            note: cell,
            short: fc.boolean(),
          }),
          {
            maxLength: 8,
          },
        ),
        (delimiter, eol, withEle, rows) => {
          const header = ['name', 'lat', 'lon', ...(withEle ? ['ele'] : []), 'note'].join(delimiter);
          const lines = rows.map((r, i) =>
            [`p${i}`, r.lat, r.lon, ...(withEle ? [''] : []), ...(r.short ? [] : [r.note])].join(delimiter),
          );
          const text = [header, ...lines].join(eol) + eol;
          const filled = fill(text);
          const after = readCsv(filled, OPTIONS).slots;
          expect(after.map((s) => s.location)).toEqual(rows.map((r) => ({ lat: r.lat, lon: r.lon })));
          expect(after.map((s) => s.height)).toEqual(rows.map((_, i) => 100 + i + 0.25));
        },
      ),
      { numRuns: 300 },
    );
  });
});
