import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  MAX_CONFIG_BYTES,
  MAX_DATASETS,
  parseApiConfig,
} from '../../../layers/elevation/config/dataset-config';
import { loadSettings } from '../../../layers/elevation/config/settings';
import { DatasetConfigError } from '../../../layers/elevation/errors';
import { loadApiConfig } from '../../../layers/elevation';

const parse = (text: string) => parseApiConfig(text, 'config.yaml');

describe("dataset config (OpenTopoData's config.yaml format)", () => {
  it("reads OpenTopoData's fields with their defaults", () => {
    const config = parse(`
datasets:
  - name: srtm90m
    path: data/srtm90m/
    filename_epsg: 4326
    filename_tile_size: 1
  - name: sample
    path: sample/stuttgart.tif
`);
    expect(config.maxLocationsPerRequest).toBe(100); // OpenTopoData's default
    expect(config.accessControlAllowOrigin).toBeNull();
    expect(config.datasets).toEqual([
      {
        name: 'srtm90m',
        path: 'data/srtm90m/',
        filenameEpsg: 4326,
        filenameTileSize: 1,
        tileTemplate: null,
        childDatasets: null,
        verticalDatum: null,
        wgs84Bounds: null,
      },
      {
        name: 'sample',
        path: 'sample/stuttgart.tif',
        filenameEpsg: 4326,
        filenameTileSize: null,
        tileTemplate: null,
        childDatasets: null,
        verticalDatum: null,
        wgs84Bounds: null,
      },
    ]);
  });

  it('reads the limits, CORS origin and the extensions tile_template and vertical_datum', () => {
    const config = parse(`
max_locations_per_request: 100
access_control_allow_origin: "https://example.org"
datasets:
  - name: eudem
    path: https://data.example.org/eudem/
    filename_epsg: 3035
    filename_tile_size: 1000000
    tile_template: "{NS}{lat}{EW}{lon}.TIF"
    vertical_datum: EVRS2000
  - name: both
    child_datasets: [eudem]
`);
    expect(config.maxLocationsPerRequest).toBe(100);
    expect(config.accessControlAllowOrigin).toBe('https://example.org');
    expect(config.datasets[0]).toMatchObject({
      filenameEpsg: 3035,
      filenameTileSize: 1000000,
      tileTemplate: '{NS}{lat}{EW}{lon}.TIF',
      verticalDatum: 'EVRS2000',
    });
    expect(config.datasets[1]).toMatchObject({ name: 'both', path: null, childDatasets: ['eudem'] });
  });

  it('keeps vertical_datum trimmed, a blank or empty one as none', () => {
    const config = parseApiConfig(
      "datasets:\n  - {name: a, path: x, vertical_datum: ' egm08 '}\n  - {name: b, path: x, vertical_datum: ' '}\n" +
        '  - {name: c, path: x, vertical_datum: }\n',
    );
    expect(config.datasets.map((d) => d.verticalDatum)).toEqual(['egm08', null, null]);
  });

  it.each([
    ['not: [valid', 'config.yaml is not valid YAML'],
    ['- just\n- a list', 'config.yaml: expected a mapping with a `datasets` list'],
    ['datasets: []', 'config.yaml: `datasets` must be a non-empty list'],
    [
      'max_locations_per_request: 0\ndatasets: [{name: a, path: a.tif}]',
      '`max_locations_per_request` must be a positive integer',
    ],
    ['datasets: [hello]', 'datasets[0] must be a mapping'],
    [
      'datasets: [{name: "a b", path: a.tif}]',
      "datasets[0].name must be letters, digits, '.', '_' or '-', got 'a b'",
    ],
    ['datasets: [{name: a}]', "dataset 'a' needs a path (or child_datasets)"],
    ['datasets: [{name: a, path: "  "}]', "dataset 'a' needs a path (or child_datasets)"],
    [
      'datasets: [{name: a, path: x, filename_epsg: wgs84}]',
      "dataset 'a': filename_epsg must be an EPSG code like 4326",
    ],
    [
      'datasets: [{name: a, path: x, filename_tile_size: -1}]',
      "dataset 'a': filename_tile_size must be a positive number",
    ],
    [
      'datasets: [{name: a, path: x, filename_tile_size: 1, tile_template: "{lat}{lon}.tif"}]',
      "dataset 'a': tile_template must contain {NS}, {lat}, {EW} and {lon}",
    ],
    ['datasets: [{name: a, path: x}, {name: a, path: y}]', "dataset name 'a' is declared twice"],
  ])('rejects %p with a message naming the field', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow(message);
  });

  it('reads wgs84_bounds as OpenTopoData writes it, a mapping of left, right, bottom and top in degrees', () => {
    const config = parse(`
datasets:
  - name: a
    path: a/
    wgs84_bounds: {left: -10.5, right: 30, bottom: "34", top: 72.25}
  - name: b
    path: b/
    wgs84_bounds:
`);
    // Stored as [west, south, east, north], whatever order the YAML gives.
    expect(config.datasets[0].wgs84Bounds).toEqual([-10.5, 34, 30, 72.25]);
    expect(config.datasets[1].wgs84Bounds).toBeNull();
  });

  it.each([
    ['[-10, 34, 30, 72]', 'a list'],
    ['{left: -10, right: 30, bottom: 34}', 'no top'],
    ['{left: west, right: 30, bottom: 34, top: 72}', 'a word'],
    ['{left: 30, right: -10, bottom: 34, top: 72}', 'left > right'],
    ['{left: 30, right: 30, bottom: 34, top: 72}', 'left = right'],
    ['{left: -10, right: 30, bottom: 72, top: 34}', 'bottom > top'],
    ['{left: -10, right: 30, bottom: 34, top: 34}', 'bottom = top'],
    ['{left: -10, right: .inf, bottom: 34, top: 72}', 'infinite'],
    ['{left: , right: 30, bottom: 34, top: 72}', 'an empty left (YAML null, not 0)'],
    ['{left: -10, right: 30, bottom: true, top: 72}', 'a boolean'],
    ['{left: -10, right: "0x1e", bottom: 34, top: 72}', 'hexadecimal text'],
  ])('refuses wgs84_bounds %s (%s), naming the dataset and the field', (bounds) => {
    const yaml = `datasets: [{name: eu, path: x, wgs84_bounds: ${bounds}}]`;
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow(
      "dataset 'eu': wgs84_bounds needs numeric left < right and bottom < top (degrees)",
    );
  });

  it.each([
    ['datasets: [~]', 'datasets[0] must be a mapping'],
    ['datasets: [[a, b]]', 'datasets[0] must be a mapping'],
    ['datasets: [{name: a, path: x}, 7]', 'datasets[1] must be a mapping'],
    [
      'datasets: [{name: " a", path: x}]',
      "datasets[0].name must be letters, digits, '.', '_' or '-', got ' a'",
    ],
    [
      'datasets: [{name: "a/", path: x}]',
      "datasets[0].name must be letters, digits, '.', '_' or '-', got 'a/'",
    ],
    ['datasets: [{path: x}]', "datasets[0].name must be letters, digits, '.', '_' or '-', got ''"],
    [
      'datasets: [{name: a, path: x, filename_tile_size: 0}]',
      "dataset 'a': filename_tile_size must be a positive",
    ],
    ['datasets: [{name: a, path: x, tile_template: 5}]', "dataset 'a': tile_template must contain {NS}"],
    ['datasets: [{name: a, path: x, tile_template: [x]}]', "dataset 'a': tile_template must contain {NS}"],
    [
      'datasets: [{name: a, path: 5}]',
      "dataset 'a': path is read as the number 5 by YAML (PyYAML): quote it",
    ],
    ['datasets: [{name: a, path: [x]}]', "dataset 'a' needs a path (or child_datasets)"],
    [
      'datasets: [{name: a, child_datasets: b}]',
      "dataset 'a': child_datasets must be a non-empty list of dataset",
    ],
    [
      'datasets: [{name: a, child_datasets: []}]',
      "dataset 'a': child_datasets must be a non-empty list of dataset",
    ],
    [
      'datasets: [{name: b, path: x}, {name: a, child_datasets: [b, 3]}]',
      "dataset 'a': a child_datasets name is read as the number 3 by YAML (PyYAML): quote it",
    ],
    [
      'datasets: [{name: b, path: x}, {name: a, child_datasets: [b, [c]]}]',
      "dataset 'a': child_datasets must be a non-empty list of dataset names",
    ],
    ['datasets: [{name: a, child_datasets: [b]}]', "dataset 'a' lists unknown child dataset 'b'"],
    [
      'datasets: [{name: a, path: x, vertical_datum: 5773}]',
      "dataset 'a': vertical_datum must be a name such as EGM96, EGM2008 or ellipsoid, got 5773",
    ],
    [
      'datasets: [{name: b, path: x}, {name: a, child_datasets: [b], vertical_datum: EGM96}]',
      "dataset 'a': vertical_datum is not read on a multi-dataset; each point's height is in the datum of the child",
    ],
    [
      'datasets: [{name: b, path: x}, {name: c, path: x}, {name: a, child_datasets: [b, c, b]}]',
      "dataset 'a' lists child dataset 'b' twice",
    ],
    [
      'datasets: [{name: c, path: x}, {name: b, child_datasets: [c]}, {name: a, child_datasets: [b]}]',
      "dataset 'a': child 'b' may not itself have children",
    ],
    ['max_locations_per_request: 2.5\ndatasets: [{name: a, path: x}]', 'must be a positive integer'],
    ['max_locations_per_request: "10"\ndatasets: [{name: a, path: x}]', 'must be a positive integer'],
    ['datasets: {name: a, path: x}', '`datasets` must be a non-empty list'],
    ['name: a', '`datasets` must be a non-empty list'],
  ])('refuses %p, saying why', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow(message);
  });

  it('applies YAML merge keys as OpenTopoData (PyYAML) does: settings shared by an anchor are not dropped', () => {
    const config = parse(`
common: &common
  vertical_datum: ellipsoid
  wgs84_bounds: {left: 9.5, right: 11, bottom: 48, top: 49}
datasets:
  - name: merged
    path: srtm/
    <<: *common
  - <<: *common
    name: override
    path: srtm/
    vertical_datum: EGM96
`);
    expect(config.datasets[0]).toMatchObject({ verticalDatum: 'ellipsoid', wgs84Bounds: [9.5, 48, 11, 49] });
    expect(config.datasets[1]).toMatchObject({ verticalDatum: 'EGM96', wgs84Bounds: [9.5, 48, 11, 49] });
  });

  it('takes a dataset name of 255 characters', () => {
    expect(parse(`datasets: [{name: ${'a'.repeat(255)}, path: x}]`).datasets[0].name).toHaveLength(255);
  });

  it('reads plain scalars by YAML 1.1, as PyYAML (OpenTopoData) reads them, not by the YAML 1.2 default', () => {
    const read = (max: string, name: string) => {
      const config = parse(`max_locations_per_request: ${max}\ndatasets: [{name: ${name}, path: x}]`);
      return [config.maxLocationsPerRequest, config.datasets[0].name];
    };
    expect(read('1_000', '1e3')).toEqual([1000, '1e3']); // 1.2: the string "1_000" (refused), the number 1000
    expect(read('010', 'yes-no')).toEqual([8, 'yes-no']); // 1.2: 10
    expect(read('0x1_0', '1_0.a')).toEqual([16, '1_0.a']);
    expect(read('+0b1010', 'srtm')).toEqual([10, 'srtm']);
    expect(read('1:40', 'srtm')).toEqual([100, 'srtm']); // sexagesimal, 1 × 60 + 40
    expect(() => read('on', 'srtm')).toThrow('`max_locations_per_request` must be a positive integer'); // true
    expect(() => parse('datasets: [{name: a, path: x, filename_epsg: 3_035}]')).not.toThrow();
  });

  it.each([
    [
      'max_location_per_request: 3\ndatasets: [{name: a, path: x}]',
      "unknown key 'max_location_per_request': did you mean 'max_locations_per_request'?",
    ],
    [
      'acces_control_allow_origin: "*"\ndatasets: [{name: a, path: x}]',
      "unknown key 'acces_control_allow_origin': did you mean 'access_control_allow_origin'?",
    ],
    ['geoid: {egm96: g.tif}\ndatasets: [{name: a, path: x}]', "unknown key 'geoid': did you mean 'geoids'?"],
    [
      'datasets: [{name: a, path: x, wgs84_bound: {}}]',
      "dataset 'a': unknown key 'wgs84_bound': did you mean 'wgs84_bounds'?",
    ],
    [
      'datasets: [{name: a, path: x, filename_tile_sise: 1}]',
      "dataset 'a': unknown key 'filename_tile_sise': did you mean 'filename_tile_size'?",
    ],
    [
      'datasets: [{name: a, path: x, vertical_datums: EGM96}]',
      "dataset 'a': unknown key 'vertical_datums': did you mean 'vertical_datum'?",
    ],
    ['datasets: [{name: a, path: x, Path: y}]', "dataset 'a': unknown key 'Path': did you mean 'path'?"],
  ])('refuses a misspelt key, naming the one meant: %p', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow(message);
  });

  it('ignores keys far from every known one, as OpenTopoData does (notes kept in the file)', () => {
    const config = parse(
      'description: my DEMs\ndatasets: [{name: a, path: x, source_url: https://example.org}]',
    );
    expect(config.datasets[0].name).toBe('a');
    // Three edits from 'name' (two of them in its first four letters): a note, not a typo.
    expect(parse('datasets: [{name: a, path: x, notes: mine}]').datasets[0].name).toBe('a');
  });

  it('refuses a key two edits from a known one (two letters left out)', () => {
    expect(() => parse('datasets: [{name: a, path: x, wgs84_bnds: {}}]')).toThrow(
      "dataset 'a': unknown key 'wgs84_bnds': did you mean 'wgs84_bounds'?",
    );
  });

  it.each([
    [
      'datasets: [{name: 1.5e+3, path: x}]',
      'datasets[0].name is read as the number 1500 by YAML (PyYAML): quote it',
    ],
    [
      'datasets: [{name: 0x10, path: x}]',
      'datasets[0].name is read as the number 16 by YAML (PyYAML): quote it',
    ],
    // YAML 1.1's booleans: `no` (Norway) was served as a dataset named "false".
    [
      'datasets: [{name: no, path: x}]',
      'datasets[0].name is read as the boolean false by YAML (PyYAML): quote it',
    ],
    [
      'datasets: [{name: On, path: x}]',
      'datasets[0].name is read as the boolean true by YAML (PyYAML): quote it',
    ],
    [
      'datasets: [{name: a, path: 1_000}]',
      "dataset 'a': path is read as the number 1000 by YAML (PyYAML): quote it",
    ],
    [
      'datasets: [{name: a, path: x}, {name: nordic, child_datasets: [a, no]}]',
      "dataset 'nordic': a child_datasets name is read as the boolean false by YAML (PyYAML): quote it",
    ],
    ['datasets: [{name: .., path: x}]', "datasets[0].name '..' cannot be reached by a URL"],
    [
      `datasets: [{name: ${'a'.repeat(256)}, path: x}]`,
      "datasets[0].name is 256 characters long, more than 255 (a metric dimension's limit)",
    ],
    ['datasets: [{name: ".", path: x}]', "datasets[0].name '.' cannot be reached by a URL"],
  ])('refuses a dataset name no URL reaches: %p', (yaml, message) => {
    expect(() => parse(yaml)).toThrow(message);
  });

  it.each([
    ['5', 'a number'],
    ['a.example', 'no scheme (OpenTopoData refuses it too)'],
    ['https://a.example/app', 'a path'],
    ['"https://"', 'no host'],
    [
      '[https://a.example, https://b.example]',
      'a list of two (sent joined by commas, which browsers refuse)',
    ],
    ['{a: 1}', 'a mapping'],
    ['true', 'a boolean'],
    ['"file:///"', 'a URL without a host'],
    ['"https://a.example?x=1"', 'a query'],
    ['"https://a.example#top"', 'a fragment'],
  ])('refuses access_control_allow_origin %s (%s)', (origin) => {
    const yaml = `access_control_allow_origin: ${origin}\ndatasets: [{name: a, path: x}]`;
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow('`access_control_allow_origin` must be one origin');
  });

  it('reads an empty access_control_allow_origin as no CORS; an origin with a port, or a list of one, as the header holds it', () => {
    const ds = 'datasets: [{name: a, path: x}]';
    expect(parse(`access_control_allow_origin:\n${ds}`).accessControlAllowOrigin).toBeNull();
    expect(parse(`access_control_allow_origin: "*"\n${ds}`).accessControlAllowOrigin).toBe('*');
    const origin = 'http://127.0.0.1:8080';
    expect(parse(`access_control_allow_origin: ${origin}\n${ds}`).accessControlAllowOrigin).toBe(origin);
    // Serialised without the trailing slash (OpenTopoData's example config has it): browsers refuse it.
    expect(parse(`access_control_allow_origin: [${origin}/]\n${ds}`).accessControlAllowOrigin).toBe(origin);
    expect(
      parse(`access_control_allow_origin: "HTTPS://API.example.com:443/"\n${ds}`).accessControlAllowOrigin,
    ).toBe('https://api.example.com');
    expect(parse(ds).accessControlAllowOrigin).toBeNull();
    expect(parse(`max_locations_per_request: 1\n${ds}`).maxLocationsPerRequest).toBe(1);
    // An app's own scheme (Capacitor, Ionic): a host and no path, as browsers send it in Origin.
    expect(parse(`access_control_allow_origin: capacitor://localhost\n${ds}`).accessControlAllowOrigin).toBe(
      'capacitor://localhost',
    );
  });

  it.each([
    ["'0.5'", 0.5],
    ["'0.25'", 0.25],
    ["'0.1'", 0.1],
    ["'1'", 1],
    ['" 0.5 "', 0.5],
    ["'1_000_000'", 1000000],
    ["'1e-1'", 0.1],
    ['0.5', 0.5],
    ['2.0', 2],
  ])(
    'reads filename_tile_size %s as %p (text as OpenTopoData needs it for a fraction, or a number)',
    (raw, size) => {
      const config = parse(`datasets: [{name: half, path: data/half/, filename_tile_size: ${raw}}]`);
      expect(config.datasets[0].filenameTileSize).toBe(size);
    },
  );

  it.each([
    ["'half'", "got 'half'"],
    ["''", "got ''"],
    ["'0x1'", "got '0x1'"],
    ["'NaN'", "got 'NaN'"],
    ["'Infinity'", "got 'Infinity'"],
    ["'1__0'", "got '1__0'"],
    ["'0'", "got '0'"],
    ["'-0.5'", "got '-0.5'"],
    ['true', 'got true'],
    ['[1]', 'got [1]'],
  ])('refuses filename_tile_size %s, saying what it got and the form a fraction takes', (raw, got) => {
    const yaml = `datasets: [{name: half, path: data/half/, filename_tile_size: ${raw}}]`;
    expect(() => parse(yaml)).toThrow(DatasetConfigError);
    expect(() => parse(yaml)).toThrow(
      `dataset 'half': filename_tile_size must be a positive number, a fraction best as text as OpenTopoData needs it ('0.5'); ${got}`,
    );
  });

  it('keeps a child dataset list in its order and trims a path', () => {
    const config = parse(
      'datasets: [{name: b, path: " x/ "}, {name: c, path: y}, {name: a, child_datasets: [c, b]}]',
    );
    expect(config.datasets[0].path).toBe('x/');
    expect(config.datasets[2]).toMatchObject({
      name: 'a',
      path: null,
      childDatasets: ['c', 'b'],
      wgs84Bounds: null,
    });
  });

  it('expands tile_template presets for the public layouts', () => {
    const config = parse(`
datasets:
  - name: glo30
    path: https://copernicus-dem-30m.s3.amazonaws.com/
    filename_tile_size: 1
    tile_template: copernicus-glo30
  - name: glo90
    path: s3://copernicus-dem-90m/
    filename_tile_size: 1
    tile_template: copernicus-glo90
  - name: srtm
    path: https://example.org/srtm/
    filename_tile_size: 1
    tile_template: srtm
`);
    expect(config.datasets.map((d) => d.tileTemplate)).toEqual([
      'Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM/Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif',
      'Copernicus_DSM_COG_30_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM/Copernicus_DSM_COG_30_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif',
      '{NS}{lat:02}{EW}{lon:03}.tif',
    ]);
  });

  it('names the presets when tile_template is neither a preset nor a full template', () => {
    expect(() =>
      parse('datasets: [{name: a, path: x, filename_tile_size: 1, tile_template: glo30}]'),
    ).toThrow(
      "dataset 'a': tile_template must contain {NS}, {lat}, {EW} and {lon}, or be one of copernicus-glo30, copernicus-glo90, srtm",
    );
  });

  describe('child_datasets', () => {
    it('rejects an empty or non-string list', () => {
      expect(() => parse('datasets: [{name: a, path: x}, {name: b, child_datasets: []}]')).toThrow(
        "dataset 'b': child_datasets must be a non-empty list of dataset names",
      );
      expect(() => parse('datasets: [{name: a, path: x}, {name: b, child_datasets: [{c: 1}]}]')).toThrow(
        "dataset 'b': child_datasets must be a non-empty list of dataset names",
      );
    });

    it('rejects an unknown child', () => {
      expect(() => parse('datasets: [{name: a, path: x}, {name: b, child_datasets: [a, c]}]')).toThrow(
        "dataset 'b' lists unknown child dataset 'c'",
      );
    });

    it('rejects a child that itself has children', () => {
      expect(() =>
        parse(
          'datasets: [{name: a, path: x}, {name: b, child_datasets: [a]}, {name: c, child_datasets: [b]}]',
        ),
      ).toThrow("dataset 'c': child 'b' may not itself have children");
    });
  });

  it('names CONFIG_PATH when the file cannot be read', () => {
    expect(() => loadApiConfig('/nonexistent/config.yaml')).toThrow(
      'Cannot read config file /nonexistent/config.yaml (CONFIG_PATH)',
    );
  });

  it('loads the committed fixture config', () => {
    const config = loadApiConfig('test/fixtures/config.yaml');
    expect(config.datasets.map((d) => d.name)).toEqual([
      'plane-point',
      'plane-area',
      'int16-nodata',
      'float32-nan',
      'big-endian',
      'laea-pair',
      'utm32',
      'copernicus',
      'float64-plane',
      'uint16-nodata',
      'int32-nodata',
      'lzw-plane',
      'sparse-nodata',
      'sparse-nan',
      'sparse-zero',
    ]);
    expect(config.accessControlAllowOrigin).toBe('*');
  });
});

// A 50 MB string passed the start-up check and then killed every function as it loaded (npm start never came up
// nor stopped); 100,000 datasets made its check open that many files at once (a helper's probe).
describe('the size of a config', () => {
  it(`reads a config of ${MAX_CONFIG_BYTES} bytes and refuses a larger one unparsed, saying its size`, () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'config-size-'));
    try {
      const head = 'datasets:\n  - name: a\n    path: a.tif\n#';
      const fits = path.join(dir, 'fits.yaml');
      fs.writeFileSync(fits, head + 'x'.repeat(MAX_CONFIG_BYTES - head.length));
      expect(loadApiConfig(fits).datasets).toHaveLength(1);
      const over = path.join(dir, 'over.yaml');
      fs.writeFileSync(over, head + 'x'.repeat(MAX_CONFIG_BYTES - head.length + 1));
      expect(() => loadApiConfig(over)).toThrow(
        new DatasetConfigError(
          `Config file ${over} (CONFIG_PATH) is ${MAX_CONFIG_BYTES + 1} bytes, over the ${MAX_CONFIG_BYTES} bytes read: a config names datasets, it holds no data.`,
        ),
      );
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a UTF-16 config, naming its encoding', () => {
    const file = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'config-utf16-')), 'config.yaml');
    try {
      fs.writeFileSync(
        file,
        Buffer.concat([Buffer.from([0xff, 0xfe]), Buffer.from('datasets: []\n', 'utf16le')]),
      );
      expect(() => loadApiConfig(file)).toThrow(
        `Config file ${file} (CONFIG_PATH) is UTF-16: save it as UTF-8.`,
      );
    } finally {
      fs.rmSync(path.dirname(file), { recursive: true, force: true });
    }
  });

  it(`reads ${MAX_DATASETS} datasets and refuses one more`, () => {
    const list = (n: number) =>
      `datasets:\n${Array.from({ length: n }, (_, i) => `  - name: d${i}\n    path: d${i}.tif\n`).join('')}`;
    expect(parseApiConfig(list(MAX_DATASETS)).datasets).toHaveLength(MAX_DATASETS);
    expect(() => parseApiConfig(list(MAX_DATASETS + 1))).toThrow(
      `config: \`datasets\` lists ${MAX_DATASETS + 1} datasets, more than the ${MAX_DATASETS} one API serves`,
    );
  });
});

describe('settings from the environment', () => {
  it('has the documented defaults', () => {
    const settings = loadSettings({});
    expect(settings).toMatchObject({
      dataRoot: null,
      defaultDataset: null,
      maxLocations: null,
      maxBodyBytes: 1048576,
      maxSamples: null,
      corsOrigin: null,
      blockCacheBytes: 512 * 1024 * 1024,
      headerPrefetchBytes: 65536,
      rangeTimeoutMs: 5000,
      rangeRetries: 2,
    });
    expect(settings.configPath.endsWith('layers/dem-sample/config.yaml')).toBe(true);
  });

  it('reads every variable', () => {
    const settings = loadSettings({
      CONFIG_PATH: 'test/fixtures/config.yaml',
      DATA_ROOT: 'http://127.0.0.1:4000/',
      DEFAULT_DATASET: 'plane-point',
      MAX_LOCATIONS: '10',
      MAX_BODY_BYTES: '2048',
      MAX_SAMPLES: '20',
      CORS_ORIGIN: 'https://a.example',
      BLOCK_CACHE_MB: '4',
      HEADER_PREFETCH_BYTES: '4096',
      RANGE_TIMEOUT_MS: '100',
      RANGE_RETRIES: '0',
    });
    expect(settings).toMatchObject({
      dataRoot: 'http://127.0.0.1:4000/',
      defaultDataset: 'plane-point',
      maxLocations: 10,
      maxBodyBytes: 2048,
      maxSamples: 20,
      corsOrigin: 'https://a.example',
      blockCacheBytes: 4 * 1024 * 1024,
      headerPrefetchBytes: 4096,
      rangeTimeoutMs: 100,
      rangeRetries: 0,
    });
  });

  it.each([
    ['MAX_LOCATIONS', 'many', "MAX_LOCATIONS must be an integer between 1 and 100000, got 'many'."],
    ['MAX_SAMPLES', '1', "MAX_SAMPLES must be an integer between 2 and 100000, got '1'."],
    ['RANGE_RETRIES', '2.5', "RANGE_RETRIES must be an integer between 0 and 10, got '2.5'."],
  ])('fails fast naming %s when it is invalid', (name, value, message) => {
    expect(() => loadSettings({ [name]: value })).toThrow(message);
  });
});
