/** Google's Elevation API parameters: locations, or a path sampled at `samples` points; its 400 wording. */
import { parseGoogleQuery } from '../../../layers/elevation';

const limits = { maxLocations: 3, maxSamples: 5 };

describe('parseGoogleQuery', () => {
  it('answers both ends of a path for samples=2', () => {
    const ends = parseGoogleQuery({ path: '10,10|20,20', samples: '2' }, limits);
    expect(ends[0]).toEqual({ lat: 10, lon: 10 });
    expect(ends[1].lat).toBeCloseTo(20, 9);
    expect(ends[1].lon).toBeCloseTo(20, 9);
  });

  it.each([
    [
      { locations: '1,1', path: '1,1|2,2' },
      "Only one of the 'locations' and 'path' parameters may be given.",
    ],
    [{ path: '1,1|2,2' }, "Missing the 'samples' parameter, which 'path' requires."],
    [{ path: '1,1|2,2', samples: '6' }, "Invalid 'samples' parameter '6': use a whole number from 2 to 5."],
    // Google's samples are 2 to 512, ends included; its path has two or more points (as /profile's).
    [{ path: '1,1|2,2', samples: '1' }, "Invalid 'samples' parameter '1': use a whole number from 2 to 5."],
    [{ path: '1,1', samples: '3' }, "Invalid 'path' parameter: a path has two or more points; 1 given."],
    [{ path: '1,1|2,2', samples: '1.5' }, "Invalid 'samples' parameter '1.5'"],
    [{ path: '1,1|2,2', samples: '0' }, "Invalid 'samples' parameter '0'"],
    [{ path: '1,1|2,2', samples: '0x3' }, "Invalid 'samples' parameter '0x3'"],
  ])('refuses %j with Google’s wording', (params, message) => {
    expect(() => parseGoogleQuery(params, limits)).toThrow(`Invalid request. ${message}`);
  });

  it.each(['datum', 'interpolation', 'nodata_value'])(
    "refuses /v1's %s, which Google's API has not: ignored, it would answer other heights than asked for",
    (name) => {
      expect(() => parseGoogleQuery({ locations: '1,1', [name]: 'x' }, limits)).toThrow(
        `Invalid request. '${name}' is an option of this API's /v1/{dataset}, not of Google's Elevation API, and this route does not read it: ask /v1/{dataset} for it.`,
      );
    },
  );

  it('names the parameter whose locations are wrong, and its limit', () => {
    expect(() => parseGoogleQuery({ locations: '1,1|2,2|3,3|4,4' }, limits)).toThrow(/'locations'/);
    expect(() => parseGoogleQuery({ path: '91,1|2,2', samples: '2' }, limits)).toThrow(/'path'/);
  });

  it('takes samples up to the limit itself, evenly along the path', () => {
    const five = parseGoogleQuery({ path: '0,0|0,4', samples: '5' }, limits);
    expect(five.map((p) => Math.round(p.lon * 1e6) / 1e6)).toEqual([0, 1, 2, 3, 4]);
  });

  it('reads blank parameters as not given', () => {
    expect(parseGoogleQuery({ locations: '1,2', path: ' ' }, limits)).toEqual([{ lat: 1, lon: 2 }]);
    expect(() => parseGoogleQuery({ locations: ' ', path: '' }, limits)).toThrow(
      "Invalid request. Missing the 'locations' or 'path' parameter.",
    );
    expect(() => parseGoogleQuery({ path: '1,1|2,2', samples: '  ' }, limits)).toThrow(
      "Invalid request. Missing the 'samples' parameter, which 'path' requires.",
    );
  });
});
