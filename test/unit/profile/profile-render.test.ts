/** The profile's SVG chart and its options: what a user sees for long paths, gaps and bad parameters. */
import {
  InvalidRequestError,
  parseProfileOptions,
  renderProfileCsv,
  renderProfileSvg,
} from '../../../layers/elevation';
import { buildProfile } from '../../../layers/elevation/profile/profile';
import { niceRange } from '../../../layers/elevation/profile/profile-svg';

const path = (length: number, n: number) => ({
  points: Array.from({ length: n }, (_, i) => ({ lat: 48, lon: 9 + (i * length) / n / 74000 })),
  distances: Array.from({ length: n }, (_, i) => (i * length) / (n - 1)),
  length,
});

describe('renderProfileCsv', () => {
  it('writes a header and a row a point, CRLF-ended, with empty cells where a point has no data', () => {
    const profile = buildProfile(path(1000, 4), [100, 110, null, 120], 5);
    const csv = renderProfileCsv(profile);
    const rows = csv.split('\r\n');
    expect(rows[0]).toBe('distance_m,elevation_m,grade_percent,lat,lon');
    expect(rows).toHaveLength(6); // header, 4 points, and '' after the last CRLF
    expect(rows[5]).toBe('');
    expect(csv).not.toMatch(/[^\r]\n/);
    const p = profile.points;
    expect(rows.slice(1, 5)).toEqual([
      `0,100,,48,${p[0].location.lng}`,
      `${p[1].distance},110,${p[1].grade},48,${p[1].location.lng}`,
      `${p[2].distance},,,48,${p[2].location.lng}`,
      `${p[3].distance},120,${p[3].grade},48,${p[3].location.lng}`,
    ]);
    expect(p[1].grade).not.toBeNull();
  });
});

describe('renderProfileSvg', () => {
  it('labels distances in km from 2 km on, in m below', () => {
    expect(renderProfileSvg(buildProfile(path(5000, 3), [100, 120, 110], 5), 'd')).toContain('Distance (km)');
    expect(renderProfileSvg(buildProfile(path(500, 3), [100, 120, 110], 5), 'd')).toContain('Distance (m)');
  });

  it('draws a gap in the data as a gap in the line (one polyline per run with data)', () => {
    const svg = renderProfileSvg(buildProfile(path(1000, 5), [100, 110, null, 120, 130], 5), 'd');
    expect(svg.match(/<polyline/g)).toHaveLength(2);
  });

  it('still draws axes when no point has data', () => {
    const svg = renderProfileSvg(buildProfile(path(1000, 3), [null, null, null], 5), 'd');
    expect(svg).toMatch(/^<svg/);
    expect(svg).not.toContain('<polyline');
  });

  it('labels the distance axis of a zero-length profile (one point asked) 0 to 1 m, every label different', () => {
    const still = {
      points: [
        { lat: 48, lon: 9 },
        { lat: 48, lon: 9 },
      ],
      distances: [0, 0],
      length: 0,
    };
    const svg = renderProfileSvg(buildProfile(still, [100, 100], 5), 'd');
    const labels = [
      ...svg.matchAll(/<text class="tick" x="[^"]*" y="(\d+(?:\.\d+)?)" text-anchor="middle">([^<]*)</g),
    ];
    const distances = labels.map((m) => m[2]);
    expect(distances).toEqual(['0', '0.2', '0.4', '0.6', '0.8', '1']);
  });

  it('widens a flat profile to a round range around its height', () => {
    const [min, max, step] = niceRange(250, 250);
    expect(min).toBeLessThanOrEqual(250);
    expect(max).toBeGreaterThanOrEqual(250);
    expect(max - min).toBeGreaterThan(0);
    expect([1, 2, 5].some((m) => Number.isInteger(Math.log10(step / m)))).toBe(true);
  });
});

describe('parseProfileOptions', () => {
  it('takes a distance between samples instead of a count', () => {
    expect(parseProfileOptions({ distance: '25' }, 512).spacing).toEqual({ distance: 25 });
  });

  it.each([
    [{ samples: '10', distance: '25' }, "Give either 'samples' or 'distance', not both."],
    [{ samples: { n: 10 } }, "Invalid samples 'an object': use a whole number from 2 to 512."],
    [{ samples: [10] }, "Invalid samples 'a list'"],
    [{ distance: '0.01' }, "Invalid distance '0.01': use a number of metres from 0.1 to 10000000."],
    [{ threshold: '-1' }, "Invalid threshold '-1': use a number of metres from 0 to 1000."],
    [{ format: 'png' }, 'png'],
  ])('refuses %j with a message saying what', (params, message) => {
    expect(() => parseProfileOptions(params, 512)).toThrow(InvalidRequestError);
    expect(() => parseProfileOptions(params, 512)).toThrow(message);
  });

  it("ignores key and jQuery's _ as /v1 does", () => {
    expect(parseProfileOptions({ samples: '7', key: 'None', _: '1733440000000' }, 512)).toEqual(
      parseProfileOptions({ samples: '7' }, 512),
    );
  });

  it('names every parameter it supports when one is unknown', () => {
    expect(() => parseProfileOptions({ sample: '10' }, 512)).toThrow(
      "Unknown parameter 'sample': supported are locations, samples, distance, interpolation, format, threshold, datum.",
    );
    // And accepts each of them.
    const all = {
      locations: 'x',
      samples: '2',
      interpolation: 'cubic',
      format: 'SVG',
      threshold: '1000',
      datum: 'egm96',
    };
    expect(parseProfileOptions(all, 512)).toMatchObject({
      spacing: { samples: 2 },
      interpolation: 'cubic',
      format: 'svg',
      threshold: 1000,
    });
  });

  it.each([
    ['json', 'json'],
    ['SVG', 'svg'],
    ['Csv', 'csv'],
    [undefined, 'json'],
  ])('reads format=%s as %s, in any case', (format, expected) => {
    expect(parseProfileOptions(format === undefined ? {} : { format }, 512).format).toBe(expected);
  });

  it.each([
    [{ samples: '1' }, "Invalid samples '1': use a whole number from 2 to 512."],
    [{ samples: '513' }, "Invalid samples '513': use a whole number from 2 to 512."],
    [{ samples: 'ten' }, "Invalid samples 'ten': use a whole number from 2 to 512."],
    [{ samples: '0x10' }, "Invalid samples '0x10': use a whole number from 2 to 512."],
    [{ distance: '0x10' }, "Invalid distance '0x10': use a number of metres from 0.1 to 10000000."],
    [{ threshold: '1000.5' }, "Invalid threshold '1000.5': use a number of metres from 0 to 1000."],
    [{ threshold: 'Infinity' }, "Invalid threshold 'Infinity': use a number of metres from 0 to 1000."],
    [{ distance: '10000001' }, "Invalid distance '10000001': use a number of metres from 0.1 to 10000000."],
    [{ format: 5 }, "Invalid format '5': use json, svg or csv."],
    [{ format: 'xml' }, "Invalid format 'xml': use json, svg or csv."],
  ])('refuses %j at its bounds, quoting what was sent', (params, message) => {
    expect(() => parseProfileOptions(params, 512)).toThrow(message);
  });

  it('takes the bounds themselves, numbers as well as text, and blank values as not given', () => {
    expect(parseProfileOptions({ samples: 512 }, 512).spacing).toEqual({ samples: 512 });
    expect(parseProfileOptions({ distance: 0.1 }, 512).spacing).toEqual({ distance: 0.1 });
    expect(parseProfileOptions({ distance: '10000000' }, 512).spacing).toEqual({ distance: 1e7 });
    expect(parseProfileOptions({ threshold: '0' }, 512).threshold).toBe(0);
    expect(parseProfileOptions({ samples: '', distance: '25', format: '' }, 512)).toMatchObject({
      spacing: { distance: 25 },
      format: 'json',
    });
    expect(parseProfileOptions({ samples: null, threshold: null }, 512)).toMatchObject({
      spacing: { samples: 100 },
      threshold: 5,
    });
  });

  it('uses 100 samples by default, fewer when the limit is lower', () => {
    expect(parseProfileOptions({}, 512).spacing).toEqual({ samples: 100 });
    expect(parseProfileOptions({}, 50).spacing).toEqual({ samples: 50 });
  });
});
