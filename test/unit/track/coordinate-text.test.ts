import { InvalidRequestError } from '../../../layers/elevation';
import {
  parseCoordinateTuples,
  tryParseCoordinateTuples,
} from '../../../layers/elevation/track/coordinate-text';

describe('KML coordinate tuples', () => {
  it('finds lon, lat and the altitude span of each tuple, whatever the whitespace', () => {
    const text = '\n\t9.1,48.7,0  9.25,48.75\n -9.5e0,+48.8,-12.5 ';
    const tuples = tryParseCoordinateTuples(text, 'kml');
    expect(tuples?.map((t) => [t.lon, t.lat, t.alt?.value ?? null])).toEqual([
      [9.1, 48.7, 0],
      [9.25, 48.75, null],
      [-9.5, 48.8, -12.5],
    ]);
    const [first, second, third] = tuples!;
    expect(text.slice(first.alt!.start, first.alt!.end)).toBe('0');
    expect(text.slice(0, second.latEnd).endsWith('9.25,48.75')).toBe(true);
    expect(text.slice(third.alt!.start, third.alt!.end)).toBe('-12.5');
  });

  it('tolerates spaces around commas inside a tuple', () => {
    const tuples = tryParseCoordinateTuples('9.1, 48.7, 3 9.2 ,48.8', 'kml');
    expect(tuples?.map((t) => [t.lon, t.lat, t.alt?.value ?? null])).toEqual([
      [9.1, 48.7, 3],
      [9.2, 48.8, null],
    ]);
  });

  it.each(['9.1', '9.1,48.7,0,5', 'a,b', '9.1,48.7,09.2,48.8', '9.1,,48.7'])(
    'returns null for %j',
    (text) => {
      expect(tryParseCoordinateTuples(text, 'kml')).toBeNull();
    },
  );

  it('reads gx:coord tuples separated by spaces', () => {
    const tuples = tryParseCoordinateTuples('9.1 48.7 512.5', 'gx');
    expect(tuples?.map((t) => [t.lon, t.lat, t.alt?.value])).toEqual([[9.1, 48.7, 512.5]]);
  });

  it('throws a 400 that shows the text and an example', () => {
    expect(() => parseCoordinateTuples('nine,forty', 'kml', () => 'line 3')).toThrow(
      /Unable to parse the coordinates at line 3: 'nine,forty'. Expected tuples like '9.10,48.74,0/,
    );
  });

  it('shows a gx:coord example for gx text, and at most 60 characters of a long text', () => {
    const long = `9.1 48.7 ${'x'.repeat(100)}`;
    expect(() => parseCoordinateTuples(long, 'gx', () => '<gx:coord> 2')).toThrow(
      new InvalidRequestError(
        `Unable to parse the coordinates at <gx:coord> 2: '9.1 48.7 ${'x'.repeat(48)}...'. Expected tuples like '9.10 48.74 0'.`,
      ),
    );
  });

  it('answers an empty list for whitespace only', () => {
    expect(tryParseCoordinateTuples(' \n ', 'kml')).toEqual([]);
  });
});
