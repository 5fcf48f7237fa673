import fc from 'fast-check';
import { InvalidRequestError } from '../../../layers/elevation/errors';
import { parseInterpolation, parseRequestOptions } from '../../../layers/elevation/request/options';

const MAX_SAMPLES = 100;
const parse = (params: Record<string, unknown>) => parseRequestOptions(params, MAX_SAMPLES);

describe('request options', () => {
  it("defaults to OpenTopoData's: bilinear, nodata null, json, no sampling; heights in the dataset's datum", () => {
    expect(parse({ locations: '1,2' })).toEqual({
      interpolation: 'bilinear',
      nodataValue: { kind: 'null' },
      format: 'json',
      samples: null,
      datum: null,
    });
  });

  it.each([
    ['empty', { interpolation: '', nodata_value: '', format: '', samples: '' }],
    ['JSON null', { interpolation: null, nodata_value: null, format: null, samples: null }],
  ])('takes %s values as absent: the defaults again', (_what, values) => {
    expect(parse({ locations: '1,2', ...values })).toEqual(parse({ locations: '1,2' }));
  });

  it('reads nodata_value=null in any case as null, and integers up to 2^31 in size', () => {
    expect(parse({ locations: '1,2', nodata_value: 'NULL' }).nodataValue).toEqual({ kind: 'null' });
    expect(parse({ locations: '1,2', nodata_value: String(2 ** 31) }).nodataValue).toEqual({
      kind: 'number',
      value: 2 ** 31,
    });
    expect(parse({ locations: '1,2', nodata_value: String(-(2 ** 31)) }).nodataValue).toEqual({
      kind: 'number',
      value: -(2 ** 31),
    });
    expect(() => parse({ locations: '1,2', nodata_value: String(2 ** 31 + 1) })).toThrow(
      "Invalid nodata value '2147483649'. Valid nodata values are 'null', 'nan', or an integer.",
    );
  });

  it('refuses a nodata_value that is not written in decimal (Number() reads 0x10 as 16)', () => {
    expect(() => parse({ locations: '1,2', nodata_value: '0x10' })).toThrow(
      "Invalid nodata value '0x10'. Valid nodata values are 'null', 'nan', or an integer.",
    );
    expect(parse({ locations: '1,2', nodata_value: -9999 }).nodataValue).toEqual({
      kind: 'number',
      value: -9999,
    });
  });

  it('reads datum= with the other options: a name, or a 400 naming the valid ones', () => {
    expect(parse({ locations: '1,2' }).datum).toBeNull();
    expect(parse({ locations: '1,2', datum: 'ellipsoid' }).datum).toBe('ellipsoid');
    expect(() => parse({ locations: '1,2', datum: 'wgs99' })).toThrow(InvalidRequestError);
  });

  it('returns 400 naming an unknown parameter and listing the supported ones', () => {
    expect(() => parse({ locations: '1,2', interp: 'cubic' })).toThrow(InvalidRequestError);
    expect(() => parse({ locations: '1,2', interp: 'cubic' })).toThrow(
      "Unknown parameter 'interp': supported are locations, interpolation, nodata_value, format, samples, datum.",
    );
  });

  it("ignores key (an API key) and jQuery's _ (a cache-buster), and still refuses a misspelt option", () => {
    expect(parse({ locations: '1,2', key: 'None', _: '1733440000000', interpolation: 'cubic' })).toEqual(
      parse({ locations: '1,2', interpolation: 'cubic' }),
    );
    expect(() => parse({ locations: '1,2', key: 'None', interpolaton: 'cubic' })).toThrow(
      "Unknown parameter 'interpolaton': supported are locations, interpolation, nodata_value, format, samples, datum.",
    );
  });

  describe('interpolation', () => {
    it.each([
      ['nearest', 'nearest'],
      ['bilinear', 'bilinear'],
      ['cubic', 'cubic'],
      ['CUBIC', 'cubic'],
      ['', 'bilinear'],
    ])('accepts %p as %p', (raw, expected) => {
      expect(parse({ interpolation: raw }).interpolation).toBe(expected);
    });

    it('returns 400 listing the valid choices for anything else', () => {
      expect(() => parseInterpolation('linear')).toThrow(
        "Invalid interpolation method 'linear'. The valid interpolation methods are: nearest, bilinear, cubic.",
      );
      expect(() => parseInterpolation(3)).toThrow("Invalid interpolation method '3'");
    });
  });

  describe('nodata_value', () => {
    it.each([
      [undefined, { kind: 'null' }],
      [null, { kind: 'null' }],
      ['null', { kind: 'null' }],
      ['NULL', { kind: 'null' }],
      ['nan', { kind: 'nan' }],
      ['NaN', { kind: 'nan' }],
      ['-9999', { kind: 'number', value: -9999 }],
      ['0', { kind: 'number', value: 0 }],
      [-32768, { kind: 'number', value: -32768 }],
    ])('accepts %p', (raw, expected) => {
      expect(parse({ nodata_value: raw }).nodataValue).toEqual(expected);
    });

    it.each(['1.5', 'none', '1e40', 'Infinity'])('returns 400 for %p', (raw) => {
      expect(() => parse({ nodata_value: raw })).toThrow(
        `Invalid nodata value '${raw}'. Valid nodata values are 'null', 'nan', or an integer.`,
      );
    });
  });

  describe('format', () => {
    it('accepts json and geojson in any case', () => {
      expect(parse({ format: 'json' }).format).toBe('json');
      expect(parse({ format: 'GeoJSON' }).format).toBe('geojson');
    });

    it('returns 400 for another format', () => {
      expect(() => parse({ format: 'xml' })).toThrow("Invalid format 'xml': use json or geojson.");
    });
  });

  describe('samples', () => {
    it('accepts whole numbers from 2 to the limit, as text or number', () => {
      expect(parse({ samples: '2' }).samples).toBe(2);
      expect(parse({ samples: MAX_SAMPLES }).samples).toBe(MAX_SAMPLES);
    });

    it.each([
      ['1', 'Must provide at least 2 samples. The ends of the path are included as samples.'],
      ['0', 'Must provide at least 2 samples. The ends of the path are included as samples.'],
      ['-3', 'Must provide at least 2 samples. The ends of the path are included as samples.'],
      ['2.5', "Invalid value for samples argument '2.5'. Samples should be an integer."],
      ['ten', "Invalid value for samples argument 'ten'. Samples should be an integer."],
      ['0x10', "Invalid value for samples argument '0x10'. Samples should be an integer."],
      ['Infinity', "Invalid value for samples argument 'Infinity'. Samples should be an integer."],
      [
        String(MAX_SAMPLES + 1),
        `Too many samples requested (${MAX_SAMPLES + 1}), the limit is ${MAX_SAMPLES}.`,
      ],
    ])("returns 400 with OpenTopoData's message for %p", (raw, message) => {
      expect(() => parse({ samples: raw })).toThrow(message);
    });
  });
});

describe('non-scalar option values', () => {
  it.each([
    [
      'interpolation',
      { toString: 1 },
      'Invalid interpolation: expected a string or a number, got an object.',
    ],
    ['nodata_value', ['nan'], 'Invalid nodata_value: expected a string or a number, got a list.'],
    ['format', { valueOf: 'json' }, 'Invalid format: expected a string or a number, got an object.'],
    ['samples', { toString: false }, 'Invalid samples: expected a string or a number, got an object.'],
  ])(
    'returns 400 for %s = %p (an object whose toString is not a function used to throw a TypeError)',
    (name, value, message) => {
      expect(() => parse({ [name]: value })).toThrow(InvalidRequestError);
      expect(() => parse({ [name]: value })).toThrow(message);
    },
  );
});

describe('request options properties', () => {
  it('either parses or throws InvalidRequestError (a 400), for any values of the known parameters', () => {
    const hostile = fc.record({ toString: fc.jsonValue(), valueOf: fc.jsonValue() }, { requiredKeys: [] });
    const value = fc.oneof(fc.string(), fc.jsonValue(), fc.double().map(String), hostile);
    const params = fc.record(
      { interpolation: value, nodata_value: value, format: value, samples: value },
      { requiredKeys: [] },
    );
    fc.assert(
      fc.property(params, (p) => {
        let outcome: unknown = 'parsed';
        try {
          parse(p);
        } catch (error) {
          outcome = error instanceof InvalidRequestError ? 'parsed' : error;
        }
        expect(outcome).toBe('parsed');
      }),
    );
  });
});
