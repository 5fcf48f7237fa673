/**
 * OpenTopoData's own test configuration (tests/data/configs/test-config.yaml of OpenTopoData 1.x, unchanged) over
 * its own data layout (tests/data/datasets/…, rebuilt from the copies in ../shared/dem/opentopodata), served the
 * way `npm start` serves it: through the HTTP data layer. Every dataset must answer what GDAL reads at the pixel.
 * And `npm start` must refuse to report ready when a dataset cannot be served, naming it.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import { freePort } from '../../scripts/start/free-port';
import { REPO_ROOT, startStack, type Stack } from './support/stack';

const OTD = path.resolve(REPO_ROOT, '../shared/dem/opentopodata');
/**
 * OpenTopoData's test-config.yaml byte for byte, as its current tests/test_api.py reads it (commit bc9b5bf: with
 * access_control_allow_origin, wgs84_bounds and the child_datasets of multi_eudem_etopo1).
 */
const TEST_CONFIG = `max_locations_per_request: 100 
access_control_allow_origin: null
datasets:
- name: etopo1deg
  path: tests/data/datasets/test-etopo1-resampled-1deg/

- name: srtm90subset
  path: tests/data/datasets/test-srtm90m-subset/
  wgs84_bounds:
    left: 10
    right: 12
    bottom: 0
    top: 1

  # Made with gdalwarp -t_srs '+proj=utm +zone=32 +datum=WGS84 +units=m +no_defs'  
- name: srtm90utm
  path: tests/data/datasets/test-srtm90m-subset-utm/

- name: nodata
  path: tests/data/datasets/test-nodata/

- name: eudemsubset
  path: tests/data/datasets/test-eu-dem-subset/
  filename_epsg: 3035
  filename_tile_size: 1000000

- name: eudemnoepsg
  path: tests/data/datasets/test-eu-dem-subset-no-epsg/
  filename_epsg: 3035
  filename_tile_size: 1000000

- name: multi_eudem_etopo1
  child_datasets:
  - nodata
  - eudemsubset
  - etopo1deg
`;

/** OpenTopoData's folder -> the shared copy's files (the no-epsg variant: the same tiles, lower-case names). */
const LAYOUT: Record<string, [string, string][]> = {
  'test-etopo1-resampled-1deg': [
    ['etopo1-1deg/ETOPO1_Ice_g_geotiff.resampled-1deg.tif', 'ETOPO1_Ice_g_geotiff.resampled-1deg.tif'],
  ],
  'test-srtm90m-subset': [
    ['srtm90m/N00E010.hgt', 'N00E010.hgt'],
    ['srtm90m/N00E011.hgt.zip', 'N00E011.hgt.zip'],
  ],
  'test-srtm90m-subset-utm': [['srtm90m-utm32n/N00E010.tif', 'N00E010.geotiff']],
  'test-nodata': [['nodata/nodata.geotiff', 'nodata.geotiff']],
  'test-eu-dem-subset': [
    ['eu-dem-25km-laea/N2000000E3000000.TIF', 'N2000000E3000000.TIF'],
    ['eu-dem-25km-laea/N2000000E4000000.TIF', 'N2000000E4000000.TIF'],
  ],
  'test-eu-dem-subset-no-epsg': [
    ['eu-dem-25km-laea/N2000000E3000000.TIF', 'N2000000E3000000.tif'],
    ['eu-dem-25km-laea/N2000000E4000000.TIF', 'N2000000E4000000.tif'],
  ],
};

/** Points per dataset, and the file (GDAL path) that holds each. */
const CASES: { dataset: string; lat: number; lon: number; file: string }[] = [
  { dataset: 'etopo1deg', lat: 45.3, lon: 8.7, file: 'etopo1-1deg/ETOPO1_Ice_g_geotiff.resampled-1deg.tif' },
  {
    dataset: 'etopo1deg',
    lat: -33.9,
    lon: 151.2,
    file: 'etopo1-1deg/ETOPO1_Ice_g_geotiff.resampled-1deg.tif',
  },
  { dataset: 'srtm90subset', lat: 0.4, lon: 10.6, file: 'srtm90m/N00E010.hgt' },
  { dataset: 'srtm90subset', lat: 0.7, lon: 11.3, file: '/vsizip/{OTD}/srtm90m/N00E011.hgt.zip/N00E011.hgt' },
  { dataset: 'srtm90utm', lat: 0.5, lon: 10.5, file: 'srtm90m-utm32n/N00E010.tif' },
  { dataset: 'eudemsubset', lat: 47.625765, lon: 9.418759, file: 'eu-dem-25km-laea/N2000000E4000000.TIF' },
  { dataset: 'eudemsubset', lat: 43.5, lon: 1.5, file: 'eu-dem-25km-laea/N2000000E3000000.TIF' },
  { dataset: 'eudemnoepsg', lat: 47.625765, lon: 9.418759, file: 'eu-dem-25km-laea/N2000000E4000000.TIF' },
];

function gdalNearest(file: string, lat: number, lon: number): number | null {
  const target = file.startsWith('/vsizip/') ? file.replace('{OTD}', OTD) : path.join(OTD, file);
  const run = spawnSync('gdallocationinfo', ['-valonly', '-wgs84', target, String(lon), String(lat)], {
    encoding: 'utf8',
  });
  if (run.status !== 0) throw new Error(`gdallocationinfo failed: ${run.stderr}`);
  const text = run.stdout.trim();
  return text === '' ? null : Number(text);
}

function buildLayout(): string {
  const root = fs.mkdtempSync(path.join(os.tmpdir(), 'otd-'));
  for (const [folder, files] of Object.entries(LAYOUT)) {
    const dir = path.join(root, 'tests/data/datasets', folder);
    fs.mkdirSync(dir, { recursive: true });
    for (const [source, name] of files) fs.symlinkSync(path.join(OTD, source), path.join(dir, name));
  }
  fs.mkdirSync(path.join(root, 'tests/data/configs'), { recursive: true });
  fs.writeFileSync(path.join(root, 'tests/data/configs/test-config.yaml'), TEST_CONFIG);
  return root;
}

describeIfAvailable(
  "OpenTopoData's test config and data folders, unchanged, over the HTTP data layer",
  [
    { what: '../shared/dem/opentopodata', available: fs.existsSync(OTD) },
    { what: 'GDAL (gdal-bin)', available: hasCommand('gdallocationinfo') },
  ],
  () => {
    let root: string;
    let stack: Stack;
    beforeAll(async () => {
      root = buildLayout();
      stack = await startStack({
        configPath: path.join(root, 'tests/data/configs/test-config.yaml'),
        dataDir: root,
      });
    }, 180_000);
    afterAll(async () => {
      await stack?.stop();
      fs.rmSync(root, { recursive: true, force: true });
    });

    test.each(CASES)(
      "$dataset answers GDAL's pixel at $lat,$lon (nearest)",
      async ({ dataset, lat, lon, file }) => {
        const response = await fetch(
          `${stack.baseUrl}/v1/${dataset}?locations=${lat},${lon}&interpolation=nearest`,
        );
        expect(response.status).toBe(200);
        const body = (await response.json()) as { results: { elevation: number | null }[] };
        const gdal = gdalNearest(file, lat, lon);
        // Answers are rounded to millimetres (roundElevation); GDAL prints Float32 values in full.
        expect(gdal).not.toBeNull(); // every case is a data pixel
        expect(body.results[0].elevation).toBeCloseTo(gdal ?? NaN, 3);
      },
    );

    test('the nodata pixel of test-nodata answers null, as in OpenTopoData', async () => {
      const response = await fetch(`${stack.baseUrl}/v1/nodata?locations=0,1`);
      expect(response.status).toBe(200);
      expect(await response.json()).toMatchObject({ results: [{ elevation: null }] });
    });

    // OpenTopoData's tests/test_api.py, the expectations visible over HTTP, against its own config.
    describe("OpenTopoData's API tests (tests/test_api.py), over HTTP", () => {
      const ETOPO = 'etopo1-1deg/ETOPO1_Ice_g_geotiff.resampled-1deg.tif';
      const get = async (url: string) => {
        const response = await fetch(`${stack.baseUrl}${url}`);
        return {
          status: response.status,
          text: await response.clone().text(),
          json: (await response.json()) as Record<string, unknown>,
        };
      };
      type Results = {
        results: { elevation: number | null; location: { lat: number; lng: number }; dataset?: string }[];
      };

      test('test_single_location: 90,-180 is pixel (0,0)', async () => {
        const { status, json } = await get('/v1/etopo1deg?locations=90,-180');
        expect(status).toBe(200);
        const [r] = (json as unknown as Results).results;
        expect(r.location).toEqual({ lat: 90, lng: -180 });
        expect(r.elevation).toBeCloseTo(gdalNearest(ETOPO, 90, -180) ?? NaN, 3);
      });

      test('test_post: a form body answers as the query string does', async () => {
        const response = await fetch(`${stack.baseUrl}/v1/etopo1deg`, {
          method: 'POST',
          body: new URLSearchParams({ locations: '90,-180' }),
        });
        expect(response.status).toBe(200);
        const [r] = ((await response.json()) as Results).results;
        expect(r.elevation).toBeCloseTo(gdalNearest(ETOPO, 90, -180) ?? NaN, 3);
      });

      test("a multipart form body too (Flask's request.form holds both kinds)", async () => {
        const form = new FormData();
        form.append('locations', '90,-180');
        form.append('interpolation', 'nearest');
        const response = await fetch(`${stack.baseUrl}/v1/etopo1deg`, { method: 'POST', body: form });
        expect(response.status).toBe(200);
        const [r] = ((await response.json()) as Results).results;
        expect(r.elevation).toBeCloseTo(gdalNearest(ETOPO, 90, -180) ?? NaN, 3);
      });

      test('chains drop empty names as OpenTopoData does', async () => {
        const chain = await get('/v1/,etopo1deg,,?locations=90,-180');
        const single = await get('/v1/etopo1deg?locations=90,-180');
        expect(chain.status).toBe(200);
        expect(chain.json).toEqual(single.json);
      });

      test('test_repeated_locations: the same point twice gives the same result twice', async () => {
        const { json } = await get('/v1/etopo1deg?locations=1.5,0.1|1.5,0.1&interpolation=cubic');
        const { results } = json as unknown as Results;
        expect(results).toHaveLength(2);
        expect(results[0]).toEqual(results[1]);
      });

      test('test_polyline_latlon_equivalence', async () => {
        const latlon = await get('/v1/etopo1deg?locations=-90,180|1.5,0.1');
        const polyline = await get('/v1/etopo1deg?locations=~bidP_gsia@_bnmP~u_ia@');
        expect(latlon.status).toBe(200);
        expect(polyline.json).toEqual(latlon.json);
      });

      test.each(['nearest', 'bilinear', 'cubic'])('test_interpolation_methods: %s', async (method) => {
        expect((await get(`/v1/etopo1deg?locations=-10.1,0.001|90,180&interpolation=${method}`)).status).toBe(
          200,
        );
      });

      test('test_invalid_interpolation_method: 400 INVALID_REQUEST', async () => {
        const { status, json } = await get(
          '/v1/etopo1deg?locations=-10.1,0.001|90,180&interpolation=bad_value',
        );
        expect(status).toBe(400);
        expect(json.status).toBe('INVALID_REQUEST');
      });

      test('test_default_interpolation_method: bilinear', async () => {
        const plain = await get('/v1/etopo1deg?locations=-90,-180|-10.12345,50.67');
        const bilinear = await get('/v1/etopo1deg?locations=-90,-180|-10.12345,50.67&interpolation=bilinear');
        expect(plain.text).toBe(bilinear.text);
      });

      test('test_too_many_points: 101 locations is a 400 (the config says 100)', async () => {
        const { status, json } = await get(`/v1/etopo1deg?locations=${Array(101).fill('0,0').join('|')}`);
        expect(status).toBe(400);
        expect(json.status).toBe('INVALID_REQUEST');
      });

      test('test_invalid_dataset: 400 INVALID_REQUEST', async () => {
        const { status, json } = await get('/v1/invalid_dataset_name?locations=1,1');
        expect(status).toBe(400);
        expect(json.status).toBe('INVALID_REQUEST');
      });

      test.each([
        ['', null],
        ['&nodata_value=null', null],
        ['&nodata_value=-9999', -9999],
      ])('test_*_nodata: nodata%s answers %s', async (param, expected) => {
        const { status, json } = await get(`/v1/nodata?locations=0,1${param}`);
        expect(status).toBe(200);
        expect((json as unknown as Results).results[0].elevation).toBe(expected);
      });

      test('test_nan_nodata: nodata_value=nan answers NaN', async () => {
        const response = await fetch(`${stack.baseUrl}/v1/nodata?locations=0,1&nodata_value=nan`);
        expect(response.status).toBe(200);
        expect(await response.text()).toContain('"elevation":NaN');
      });

      test('test_null_in_json: a point outside srtm90subset is null', async () => {
        const { status, json } = await get('/v1/srtm90subset?locations=50,100');
        expect(status).toBe(200);
        expect((json as unknown as Results).results[0].elevation).toBeNull();
      });

      test('nodata_value fills nodata pixels only: a point outside srtm90subset stays null (backend.py fill_na)', async () => {
        const { status, json } = await get('/v1/srtm90subset?locations=50,100&nodata_value=-9999');
        expect(status).toBe(200);
        expect((json as unknown as Results).results[0].elevation).toBeNull();
      });

      test('test_comma_dataset_name: each point from the first dataset that has it', async () => {
        const { status, json } = await get(
          '/v1/nodata,eudemsubset,etopo1deg?locations=47.625765,9.418759|-70,-170|0,1',
        );
        expect(status).toBe(200);
        expect((json as unknown as Results).results.map((r) => r.dataset)).toEqual([
          'eudemsubset',
          'etopo1deg',
          'etopo1deg',
        ]);
      });

      test('test_multi_dataset: multi_eudem_etopo1 names the child that answered', async () => {
        const { status, json } = await get(
          '/v1/multi_eudem_etopo1?locations=47.625765,9.418759|-70,-170|0,1',
        );
        expect(status).toBe(200);
        const { results } = json as unknown as Results;
        expect(results.map((r) => r.dataset)).toEqual(['eudemsubset', 'etopo1deg', 'etopo1deg']);
        expect(results.every((r) => typeof r.elevation === 'number')).toBe(true);
      });

      test('a chain naming a child of multi_eudem_etopo1 again is a 400 (OpenTopoData: a 500 config error)', async () => {
        const { status, json } = await get('/v1/multi_eudem_etopo1,etopo1deg?locations=1,1');
        expect(status).toBe(400);
        expect(json.error).toBe(
          "Duplicate dataset names provided. 'etopo1deg' is named twice, as a child of 'multi_eudem_etopo1' and 'etopo1deg'.",
        );
      });

      test('a filled nodata point is labelled by the dataset whose nodata pixel it is, not one whose wgs84_bounds leave it out', async () => {
        const { status, json } = await get('/v1/nodata,srtm90subset?locations=0,1&nodata_value=-9999');
        expect(status).toBe(200);
        expect((json as unknown as Results).results).toMatchObject([{ elevation: -9999, dataset: 'nodata' }]);
      });

      test('TestCORS.test_no_cors: test-config.yaml sets no access_control_allow_origin, so no header', async () => {
        const response = await fetch(`${stack.baseUrl}/v1/etopo1deg?locations=90,-180`);
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
      });

      test('no access_control_allow_origin: a cross-site request (with Origin) gets no CORS header either', async () => {
        const response = await fetch(`${stack.baseUrl}/v1/etopo1deg?locations=90,-180`, {
          headers: { origin: 'https://elsewhere.example' },
        });
        expect(response.status).toBe(200);
        expect(response.headers.get('access-control-allow-origin')).toBeNull();
        expect(response.headers.get('access-control-allow-credentials')).toBeNull();
      });

      test('/v1 redirects to /v1/ (Flask strict slashes: 308)', async () => {
        const response = await fetch(`${stack.baseUrl}/v1`, { redirect: 'manual' });
        expect(response.status).toBe(308);
        expect(response.headers.get('location')).toBe('/v1/');
      });

      test.each(['/', '/v1/'])('TestGetHelpMessage: %s answers 404 INVALID_REQUEST', async (url) => {
        const { status, json } = await get(url);
        expect(status).toBe(404);
        expect(json.status).toBe('INVALID_REQUEST');
        expect(json.error).toEqual(expect.any(String));
      });
    });

    // OpenTopoData's tests/test_backend.py: the expectations a client can see, asked over HTTP.
    describe("OpenTopoData's backend tests (tests/test_backend.py), over HTTP", () => {
      const ETOPO = path.join(OTD, 'etopo1-1deg/ETOPO1_Ice_g_geotiff.resampled-1deg.tif');
      const at = async (dataset: string, locations: string, interpolation = 'bilinear') => {
        const response = await fetch(
          `${stack.baseUrl}/v1/${dataset}?locations=${locations}&interpolation=${interpolation}`,
        );
        expect(response.status).toBe(200);
        const body = (await response.json()) as { results: { elevation: number | null; dataset: string }[] };
        return body.results;
      };
      const z = async (dataset: string, locations: string, interpolation = 'bilinear') =>
        (await at(dataset, locations, interpolation)).map((r) => r.elevation);
      /** GDAL's value of pixel (col, row) of a file. */
      const pixel = (file: string, col: number, row: number): number => {
        const run = spawnSync('gdallocationinfo', ['-valonly', file, String(col), String(row)], {
          encoding: 'utf8',
        });
        return Number(run.stdout.trim());
      };

      test('test_read_ul_corner / test_read_lr_corner: 90,-180 and -90,180 are the corner pixels', async () => {
        const [ul, lr] = await z('etopo1deg', '90,-180|-90,180');
        expect(ul).toBeCloseTo(pixel(ETOPO, 0, 0), 3);
        expect(lr).toBeCloseTo(pixel(ETOPO, 360, 180), 3);
      });

      test('test_nearest_interpolation: 89.51,-179.51 is pixel (0,0)', async () => {
        expect((await z('etopo1deg', '89.51,-179.51', 'nearest'))[0]).toBeCloseTo(pixel(ETOPO, 0, 0), 3);
      });

      test('test_bilinear_interpolation: 89.6,-179.7 weighs the four pixels 0.4/0.3', async () => {
        const [p00, p10, p01, p11] = [
          pixel(ETOPO, 0, 0),
          pixel(ETOPO, 0, 1),
          pixel(ETOPO, 1, 0),
          pixel(ETOPO, 1, 1),
        ];
        // test_backend.py's _interp_bilinear(0.4, 0.3, z[:2, :2]), z indexed [row][col]
        const expected = p00 * 0.6 * 0.7 + p10 * 0.4 * 0.7 + p01 * 0.6 * 0.3 + p11 * 0.4 * 0.3;
        expect((await z('etopo1deg', '89.6,-179.7'))[0]).toBeCloseTo(expected, 2);
      });

      // nodata.geotiff: [[2, 1, 0], [3, 9999, 9999], [4, 9999, 9999]], NODATA 9999, pixel centres on 0, 1, 2 degrees.
      test.each([
        ['test_valid_read_from_dataset_with_nans', '0,0', 'bilinear', 4],
        ['test_nodata_read_from_dataset_with_nans', '0,2', 'bilinear', null],
        ['test_valid_nearest_next_to_nodata', '1,0.49', 'nearest', 3],
        ['test_invalid_nearest_next_to_nodata', '1,0.51', 'nearest', null],
        ['test_valid_bilinear_next_to_nodata', '2,0.5', 'bilinear', 1.5],
        ['test_invalid_bilinear_next_to_nodata', '1,0.5', 'bilinear', null],
        ['test_invalid_cubic_nodata', '0,2', 'cubic', null],
      ])('%s: nodata at %s (%s) is %s', async (_name, locations, interpolation, expected) => {
        expect(await z('nodata', locations, interpolation)).toEqual([expected]);
      });

      test('test_nodata_is_nan: EU-DEM over the sea (44.969186,-3.152424) is null', async () => {
        expect(await z('eudemsubset', '44.969186,-3.152424', 'nearest')).toEqual([null]);
      });

      test('test_oob / test_out_of_srtm_bounds: points outside both SRTM tiles are null', async () => {
        expect(await z('srtm90subset', '1.5,10.5|-0.5,11.5|0.5,9.5|0.5,12.5|70,10.5')).toEqual([
          null,
          null,
          null,
          null,
          null,
        ]);
      });

      test('test_srtm_tiles: one point in the .hgt tile, one in the .hgt.zip tile, both finite', async () => {
        const values = await z('srtm90subset', '0.1,10.5|0.9,11.5');
        expect(values.every((v) => typeof v === 'number' && Number.isFinite(v))).toBe(true);
      });

      test('test_utm: the UTM copy of N00E010 answers what the geographic tile answers (within 1 m)', async () => {
        // test_backend.py's third point (0.6,11.5) lies in N00E011, which the shared copy of the UTM folder lacks.
        const geographic = await z('srtm90subset', '0.2,10.2|0.8,10.8');
        const utm = await z('srtm90utm', '0.2,10.2|0.8,10.8');
        utm.forEach((v, i) => expect(Math.abs((v ?? NaN) - (geographic[i] ?? NaN))).toBeLessThan(1));
      });

      test('test_alternate_tiled_dataset / test_dataset_crs_format_equivalence: EU-DEM by EPSG and by WKT agree', async () => {
        const epsg = await z('eudemsubset', '47.625765,9.418759|43.597009,1.455697|45.534601,10.698698');
        const wkt = await z('eudemnoepsg', '47.625765,9.418759|43.597009,1.455697|45.534601,10.698698');
        expect(epsg.every((v) => typeof v === 'number')).toBe(true);
        expect(wkt).toEqual(epsg);
      });

      test('test_mutli_datasets / test_multi_dataset_mask: the first dataset with a value answers', async () => {
        const names = (chain: string, locations: string) =>
          at(chain, locations).then((r) => r.map((x) => x.dataset));
        await expect(
          names('nodata,eudemsubset,srtm90subset,etopo1deg', '47.625765,9.418759|0.1,10.5|70,150|1,1'),
        ).resolves.toEqual(['eudemsubset', 'srtm90subset', 'etopo1deg', 'etopo1deg']);
        await expect(
          names('etopo1deg,eudemsubset,srtm90subset', '47.625765,9.418759|0.1,10.5|70,150'),
        ).resolves.toEqual(['etopo1deg', 'etopo1deg', 'etopo1deg']);
      });
    });

    test('read every dataset through the data layer with range requests', () => {
      const files = Object.keys(stack.dataServer.stats().files);
      for (const folder of Object.keys(LAYOUT))
        expect(files.some((f) => f.includes(`/${folder}/`))).toBe(true);
    });
  },
);

describe('npm start with a dataset or a geoid grid that cannot be served', () => {
  const sample = path.join(REPO_ROOT, 'layers/dem-sample/sample/stuttgart.tif');
  const grid = path.join(REPO_ROOT, 'layers/dem-sample/geoid/egm96-15.tif');
  test.each([
    [
      'a dataset',
      `  - name: broken\n    path: nowhere/\ngeoids:\n  egm96: ${grid}\n`,
      /1 dataset\(s\) cannot be served:\s+- broken: /,
    ],
    // A grid the store lacks: datum= would fail on every request (the list /health?deep=1 checks).
    [
      'a geoid grid',
      `geoids:\n  egm96: nowhere.tif\n`,
      /1 geoid grid\(s\) cannot be served:\s+- geoids\.egm96: /,
    ],
    [
      'both',
      `  - name: broken\n    path: nowhere/\ngeoids:\n  egm96: nowhere.tif\n`,
      /1 dataset\(s\) and 1 geoid grid\(s\) cannot be served:\s+- broken: .*\n\s+- geoids\.egm96: /,
    ],
  ])(
    'with %s: refuses to report ready and names each and the reason',
    async (_, rest, message) => {
      const root = fs.mkdtempSync(path.join(os.tmpdir(), 'broken-'));
      fs.writeFileSync(
        path.join(root, 'config.yaml'),
        `datasets:\n  - name: sample\n    path: ${sample}\n${rest}`,
      );
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/start.ts')], {
        env: {
          ...process.env,
          CONFIG_PATH: path.join(root, 'config.yaml'),
          DATA_DIR: root,
          DATA_PORT: '0',
          PORT: String(await freePort()),
        },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      fs.rmSync(root, { recursive: true, force: true });
      expect(code).toBe(1);
      expect(output).toMatch(message);
      expect(output).not.toContain('Elevation API ready');
    },
    60_000,
  );
});
