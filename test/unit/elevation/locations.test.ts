import fc from 'fast-check';
import {
  InvalidLocationError,
  InvalidRequestError,
  TooManyLocationsError,
} from '../../../layers/elevation/errors';
import { parseLocations, tryParseLatLon } from '../../../layers/elevation/request/locations';
import { encodePolyline } from '../../../layers/elevation/request/polyline';

const LIMIT = 512;
/** Google's documented example polyline and the points it encodes. */
const GOOGLE_POLYLINE = '_p~iF~ps|U_ulLnnqC_mqNvxq`@';
const GOOGLE_POINTS = [
  { lat: 38.5, lon: -120.2 },
  { lat: 40.7, lon: -120.95 },
  { lat: 43.252, lon: -126.453 },
];
/** Polyline precision is 1e-5 degrees; decoding divides by 1e5, so only float rounding remains. */
const POLYLINE_TOLERANCE = 1e-9;

function assertPoints(actual: { lat: number; lon: number }[], expected: { lat: number; lon: number }[]) {
  expect(actual).toHaveLength(expected.length);
  actual.forEach((point, i) => {
    expect(point.lat).toBeCloseTo(expected[i].lat, 9);
    expect(point.lon).toBeCloseTo(expected[i].lon, 9);
  });
}

describe('parseLocations: "lat,lon|lat,lon" text', () => {
  it('parses pipe-separated pairs in input order', () => {
    expect(parseLocations('48.742275,9.101177|-33.9,151.2', LIMIT)).toEqual([
      { lat: 48.742275, lon: 9.101177 },
      { lat: -33.9, lon: 151.2 },
    ]);
  });

  it('ignores whitespace around numbers, pairs and the whole string', () => {
    expect(parseLocations('  48.7 , 9.1 |\t49 ,10  ', LIMIT)).toEqual([
      { lat: 48.7, lon: 9.1 },
      { lat: 49, lon: 10 },
    ]);
  });

  it('accepts the boundaries -90/90 and -180/180', () => {
    expect(parseLocations('-90,-180|90,180', LIMIT)).toEqual([
      { lat: -90, lon: -180 },
      { lat: 90, lon: 180 },
    ]);
  });

  it("parses ';'-separated pairs when asked to (the original system's GET format)", () => {
    expect(parseLocations('48.00,9.00;49.1,10.2', LIMIT, ';')).toEqual([
      { lat: 48, lon: 9 },
      { lat: 49.1, lon: 10.2 },
    ]);
  });

  it('returns 400 naming the location and its position when a pair is not two numbers', () => {
    expect(() => parseLocations('48.7,9.1|48.7', LIMIT)).toThrow(InvalidLocationError);
    expect(() => parseLocations('48.7,9.1|48.7', LIMIT)).toThrow(
      "Unable to parse location '48.7' in position 2. Add locations like lat1,lon1|lat2,lon2.",
    );
    expect(() => parseLocations('1,2,3', LIMIT)).toThrow("Unable to parse location '1,2,3' in position 1");
    expect(() => parseLocations('48.7,', LIMIT)).toThrow("Unable to parse location '48.7,' in position 1");
    expect(() => parseLocations('1,2||3,4', LIMIT)).toThrow("Unable to parse location '' in position 2");
  });

  it('returns 400 when latitude is outside [-90, 90], naming the location and its position', () => {
    expect(() => parseLocations('48,9|90.5,9', LIMIT)).toThrow(
      "Unable to parse location '90.5,9' in position 2. Latitude must be between -90 and 90. Provide locations in lat,lon order.",
    );
    expect(() => parseLocations('-91,9', LIMIT)).toThrow(InvalidLocationError);
  });

  it('returns 400 when longitude is outside [-180, 180], naming the location and its position', () => {
    expect(() => parseLocations('48,180.0001', LIMIT)).toThrow(
      "Unable to parse location '48,180.0001' in position 1. Longitude must be between -180 and 180.",
    );
  });

  it('returns 400 naming the limit when there are too many locations', () => {
    const text = Array.from({ length: 4 }, () => '48,9').join('|');
    expect(parseLocations(text, 4)).toHaveLength(4);
    expect(() => parseLocations(text, 3)).toThrow(TooManyLocationsError);
    expect(() => parseLocations(text, 3)).toThrow(
      'Too many locations provided (4), the limit is 3. Split the request.',
    );
  });

  it('truncates a very long offending location in the message', () => {
    const long = `${'1'.repeat(100)},x`;
    let message = '';
    try {
      parseLocations(long, LIMIT);
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`'${'1'.repeat(57)}...'`);
    expect(message.length).toBeLessThan(200);
  });
});

describe('parseLocations: edge cases of the text form', () => {
  it('refuses a pair with a blank half instead of reading it as 0', () => {
    expect(tryParseLatLon('48.7, ')).toBeNull();
    expect(tryParseLatLon(' ,9.1')).toBeNull();
    expect(() => parseLocations('48.7, |1,2', LIMIT)).toThrow(
      "Unable to parse location '48.7, ' in position 1",
    );
  });

  it.each(['0x30,9', '48,0b11', '0o7,9', 'Infinity,9', '48,-Infinity', '48,1_0'])(
    'refuses %p: only decimal numbers are degrees (Number() would read 0x30 as 48)',
    (pair) => {
      expect(tryParseLatLon(pair)).toBeNull();
      expect(() => parseLocations(pair, LIMIT)).toThrow(
        `Unable to parse location '${pair}' in position 1. Use decimal degrees, e.g. '48.74,9.10'.`,
      );
    },
  );

  it('reads a location of a million digits in one pass, not n² steps (10 s at 100,000 digits before)', () => {
    const digits = '9'.repeat(1_000_000);
    expect(tryParseLatLon(`${digits}x,9`)).toBeNull();
    expect(tryParseLatLon(`48,${digits}.${digits}x`)).toBeNull();
    expect(tryParseLatLon(`0.${digits},9.${digits}`)).toEqual({ lat: 1, lon: 10 });
  });

  it("names the separator when locations are joined by the other route's ('|' here, ';' on the original system's)", () => {
    expect(() => parseLocations('48.7,9.1;48.8,9.2', LIMIT)).toThrow(
      "Unable to parse location '48.7,9.1;48.8,9.2' in position 1. Separate locations with '|', not ';'.",
    );
    expect(() => parseLocations('48.7,9.1|48.8,9.2', LIMIT, ';')).toThrow(
      "Unable to parse location '48.7,9.1|48.8,9.2' in position 1. Separate locations with ';', not '|'.",
    );
  });

  it('reads decimal numbers with a sign, a bare fraction or an exponent', () => {
    expect(tryParseLatLon('+4.87e1,-.5')).toEqual({ lat: 48.7, lon: -0.5 });
    expect(tryParseLatLon('48.,9E0')).toEqual({ lat: 48, lon: 9 });
  });

  it('shows an offending location of 60 characters whole and one of 61 shortened', () => {
    const sixty = `1,2,${'3'.repeat(56)}`; // three numbers: not a pair
    expect(sixty).toHaveLength(60);
    expect(() => parseLocations(sixty, LIMIT)).toThrow(`'${sixty}' in position 1`);
    const sixtyOne = `${sixty}3`;
    expect(() => parseLocations(sixtyOne, LIMIT)).toThrow(`'${sixtyOne.slice(0, 57)}...' in position 1`);
  });

  it('reads a polyline with spaces around it and its enc: prefix', () => {
    assertPoints(parseLocations(`  enc:${GOOGLE_POLYLINE}\n`, LIMIT), GOOGLE_POINTS);
  });
});

describe('parseLocations: encoded polylines', () => {
  it("decodes Google's documented example with the enc: prefix", () => {
    assertPoints(parseLocations(`enc:${GOOGLE_POLYLINE}`, LIMIT), GOOGLE_POINTS);
  });

  it('decodes a bare polyline without the enc: prefix', () => {
    assertPoints(parseLocations(GOOGLE_POLYLINE, LIMIT), GOOGLE_POINTS);
  });

  it('returns 400 when the text is neither pairs nor a valid polyline', () => {
    expect(() => parseLocations('enc:_p~iF~ps|U_', LIMIT)).toThrow(InvalidRequestError);
    expect(() => parseLocations('enc:_p~iF~ps|U_', LIMIT)).toThrow('Unable to parse locations as polyline.');
    expect(() => parseLocations('hello world', LIMIT)).toThrow('Unable to parse locations as polyline.');
    expect(() => parseLocations('enc:', LIMIT)).toThrow('Unable to parse locations');
    // ';' pairs are the original system's `coordinates` parameter: the message names it and its separator.
    expect(() => parseLocations('hello;world', LIMIT, ';')).toThrow(
      "Unable to parse coordinates 'hello;world': neither 'lat,lon;lat,lon' pairs nor a valid encoded polyline.",
    );
  });

  it('returns 400 naming the position when a decoded point is out of range', () => {
    const outOfRange = encodePolyline([
      [10, 10],
      [95, 10],
    ]);
    expect(() => parseLocations(`enc:${outOfRange}`, LIMIT)).toThrow(
      "Unable to parse location '95,10' in position 2. Latitude must be between -90 and 90. Provide locations in lat,lon order.",
    );
  });

  it('applies the location limit to decoded polylines', () => {
    const polyline = encodePolyline([
      [1, 1],
      [2, 2],
      [3, 3],
    ]);
    expect(() => parseLocations(polyline, 2)).toThrow('Too many locations provided (3), the limit is 2.');
  });
});

describe('parseLocations: JSON lists', () => {
  it('accepts {lat, lng} objects', () => {
    expect(parseLocations([{ lat: 48.7, lng: 9.1 }], LIMIT)).toEqual([{ lat: 48.7, lon: 9.1 }]);
  });

  it('accepts {latitude, longitude} objects (the original system) and {lat, lon}', () => {
    expect(
      parseLocations(
        [
          { latitude: 48, longitude: 9 },
          { lat: 1, lon: 2 },
        ],
        LIMIT,
      ),
    ).toEqual([
      { lat: 48, lon: 9 },
      { lat: 1, lon: 2 },
    ]);
  });

  it('returns 400 naming the item and position when an item lacks numeric coordinates', () => {
    expect(() =>
      parseLocations(
        [
          { lat: 1, lng: 2 },
          { lat: '48', lng: 9 },
        ],
        LIMIT,
      ),
    ).toThrow(
      'Unable to parse location {"lat":"48","lng":9} in position 2. Expected {"lat": <number>, "lng": <number>} or {"latitude": <number>, "longitude": <number>}.',
    );
    expect(() => parseLocations([null], LIMIT)).toThrow('Unable to parse location null in position 1');
    expect(() => parseLocations([{ lat: 48.7 }], LIMIT)).toThrow(
      'Unable to parse location {"lat":48.7} in position 1. Expected {"lat": <number>, "lng": <number>}',
    );
    expect(() => parseLocations([[48, 9]], LIMIT)).toThrow('Unable to parse location [48,9] in position 1');
  });

  it('returns 400 for a latitude or longitude given twice with different values, reads the same value twice', () => {
    expect(() => parseLocations([{ lat: 48.7, lng: 9.1, lon: 200 }], LIMIT)).toThrow(
      'Unable to parse location {"lat":48.7,"lng":9.1,"lon":200} in position 1. It gives the longitude twice, with different values: give it once.',
    );
    expect(() => parseLocations([{ lat: 48.7, latitude: 1, lng: 9.1 }], LIMIT)).toThrow(
      /It gives the latitude twice/,
    );
    expect(parseLocations([{ lat: 48.7, latitude: 48.7, lng: 9.1, longitude: 9.1 }], LIMIT)).toEqual([
      { lat: 48.7, lon: 9.1 },
    ]);
    expect(parseLocations([{ lat: null, latitude: 48.7, lng: 9.1 }], LIMIT)).toEqual([
      { lat: 48.7, lon: 9.1 },
    ]);
  });

  it('shows a number JSON cannot hold (1e400 parses as Infinity) as what it is, not as null', () => {
    expect(() => parseLocations(JSON.parse('[{"lat":1e400,"lng":9}]'), LIMIT)).toThrow(
      `Unable to parse location '{"lat":"Infinity","lng":9}' in position 1. Latitude must be between -90 and 90.`,
    );
  });

  it('returns 400 when a list item is out of range', () => {
    expect(() => parseLocations([{ lat: 0, lng: -200 }], LIMIT)).toThrow(
      'Unable to parse location \'{"lat":0,"lng":-200}\' in position 1. Longitude must be between -180 and 180.',
    );
  });

  it('returns 400 naming the limit for a list that is too long', () => {
    const list = Array.from({ length: 3 }, () => ({ lat: 1, lng: 1 }));
    expect(() => parseLocations(list, 2)).toThrow('Too many locations provided (3), the limit is 2.');
  });
});

describe('parseLocations: missing or wrongly typed input', () => {
  it.each([undefined, null, ''])('returns 400 "No locations provided" for %p', (input) => {
    expect(() => parseLocations(input, LIMIT)).toThrow(
      'No locations provided. Add locations in a query string: ?locations=lat1,lon1|lat2,lon2.',
    );
  });

  it('returns 400 for an empty list', () => {
    expect(() => parseLocations([], LIMIT)).toThrow('No locations provided. The locations list is empty.');
  });

  it.each([42, true, { lat: 1, lng: 2 }])('returns 400 for a non-string, non-list value %p', (input) => {
    expect(() => parseLocations(input, LIMIT)).toThrow(
      "'locations' must be a string ('lat,lon|lat,lon' or an encoded polyline) or a list of {lat, lng} objects.",
    );
  });

  it('returns 400 for a whitespace-only string', () => {
    expect(() => parseLocations('   ', LIMIT)).toThrow(InvalidRequestError);
  });
});

describe('tryParseLatLon', () => {
  it('returns null instead of throwing for anything but two finite numbers', () => {
    expect(tryParseLatLon('48.7,9.1')).toEqual({ lat: 48.7, lon: 9.1 });
    for (const text of ['', ',', '1', '1,', ',1', '1,2,3', 'a,b', 'NaN,1', 'Infinity,1', '1,-Infinity'])
      expect(tryParseLatLon(text)).toBeNull();
  });

  it('round-trips any pair of finite numbers written with String()', () => {
    const finite = fc.double({ noNaN: true, noDefaultInfinity: true });
    fc.assert(
      fc.property(finite, finite, (lat, lon) => {
        const parsed = tryParseLatLon(`${lat},${lon}`);
        // === rather than toEqual: String(-0) is "0", and 0 === -0 is the equality that matters here.
        expect(parsed !== null && parsed.lat === lat && parsed.lon === lon).toBe(true);
      }),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.string(), (text) => {
        const parsed = tryParseLatLon(text);
        expect(parsed === null || (Number.isFinite(parsed.lat) && Number.isFinite(parsed.lon))).toBe(true);
      }),
    );
  });
});

/** 'ok' when `parse` returns a non-empty list or throws a 400; otherwise what went wrong. */
function outcomeOf(parse: () => unknown[]): unknown {
  try {
    return parse().length > 0 ? 'ok' : 'empty result';
  } catch (error) {
    return error instanceof InvalidRequestError ? 'ok' : error;
  }
}

describe('parseLocations properties', () => {
  const inRange = fc.record({
    lat: fc.double({ min: -90, max: 90, noNaN: true }),
    lon: fc.double({ min: -180, max: 180, noNaN: true }),
  });

  it('parses any list of in-range pairs written as text back to the same numbers', () => {
    fc.assert(
      fc.property(fc.array(inRange, { minLength: 1, maxLength: 20 }), (points) => {
        const text = points.map((p) => `${p.lat},${p.lon}`).join('|');
        const parsed = parseLocations(text, LIMIT);
        expect(parsed.map((p) => [p.lat + 0, p.lon + 0])).toEqual(points.map((p) => [p.lat + 0, p.lon + 0]));
      }),
    );
  });

  it('throws only InvalidRequestError (a 400), never anything else, on arbitrary input', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.jsonValue()), (input) => {
        expect(outcomeOf(() => parseLocations(input, LIMIT))).toBe('ok');
      }),
    );
  });

  it('decodes an encoded polyline to the points rounded to 1e-5 degrees', () => {
    fc.assert(
      fc.property(fc.array(inRange, { minLength: 1, maxLength: 20 }), (points) => {
        const encoded = encodePolyline(points.map((p) => [p.lat, p.lon]));
        const decoded = parseLocations(`enc:${encoded}`, LIMIT);
        decoded.forEach((p, i) => {
          expect(Math.abs(p.lat - Math.round(points[i].lat * 1e5) / 1e5)).toBeLessThan(POLYLINE_TOLERANCE);
          expect(Math.abs(p.lon - Math.round(points[i].lon * 1e5) / 1e5)).toBeLessThan(POLYLINE_TOLERANCE);
        });
      }),
    );
  });
});

describe('OpenTopoData leniencies', () => {
  it('ignores a leading or trailing | in locations, as OpenTopoData does', () => {
    expect(parseLocations('|48.7,9.1|48.8,9.2|', 10)).toEqual([
      { lat: 48.7, lon: 9.1 },
      { lat: 48.8, lon: 9.2 },
    ]);
  });

  it('still refuses an empty location between two separators', () => {
    expect(() => parseLocations('48.7,9.1||48.8,9.2', 10)).toThrow(/in position 2./);
  });
});
