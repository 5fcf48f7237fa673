/**
 * `npm run dem:optimize` on real tiles: the COGs it writes hold the values `gdallocationinfo` reads from the
 * input, pixel for pixel (GDAL on the output and the API's reader on the output both agree), in the layout it
 * promises (block size, DEFLATE + predictor, no overviews, an integer type only where that is lossless), under
 * the input's names; and it refuses bad input with a message and exit code 2 before writing anything.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdirSync, readdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { loadDatasetRegistry } from '../../layers/elevation';
import { NEAREST_TOLERANCE_M } from './support/compare';
import { REPO_ROOT, SHARED_DEM } from './support/gdal-reference';
import { tempDatasets, type TempDatasets } from './support/temp-datasets';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';

const SRTM3 = path.join(SHARED_DEM, 'srtm3-germany');
/** A 3600x3600 Float32 tile laid out like a Copernicus GLO-30 COG (1024-px blocks, PREDICTOR=3, overviews). */
const COPERNICUS_LAYOUT = path.join(SHARED_DEM, 'derived/upsampled1as_N48_00_E009_00_DEM_cog.tif');
const POINTS = 300;
const NODATA = -32768;

function demOptimize(...args: string[]): { status: number | null; stdout: string; stderr: string } {
  const run = spawnSync(process.execPath, ['--import', 'tsx', 'scripts/dem-optimize.ts', ...args], {
    cwd: REPO_ROOT,
    encoding: 'utf8',
  });
  return { status: run.status, stdout: run.stdout, stderr: run.stderr };
}

/** Seeded points inside [lat0, lat0 + 1) x [lon0, lon0 + 1), away from the outermost half pixel. */
function points(lat0: number, lon0: number): { lat: number; lon: number }[] {
  let seed = 42;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: POINTS }, () => ({
    lat: lat0 + 0.001 + 0.998 * next(),
    lon: lon0 + 0.001 + 0.998 * next(),
  }));
}

/** gdallocationinfo's value at each point (WGS84 in, one "lon lat" line per point on stdin); null for nodata. */
function gdalValues(file: string, at: { lat: number; lon: number }[]): (number | null)[] {
  const input = at.map((p) => `${p.lon} ${p.lat}`).join('\n') + '\n';
  const out = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', file], { input, encoding: 'utf8' });
  return out
    .trim()
    .split('\n')
    .map((line) => (Number(line) === NODATA ? null : Number(line)));
}

const gdalinfo = (file: string): string => execFileSync('gdalinfo', [file], { encoding: 'utf8' });

describeIfAvailable(
  'dem:optimize',
  [
    { what: '../shared/dem', available: existsSync(SHARED_DEM) },
    { what: 'GDAL (gdal-bin)', available: hasCommand('gdallocationinfo') },
    {
      what: 'python3-gdal and python3-numpy',
      available: spawnSync('/usr/bin/python3', ['-c', 'import osgeo, numpy']).status === 0,
    },
  ],
  () => {
    let temp: TempDatasets;
    let integralFloat: string;
    let int64Tile: string;
    let scaledFloat: string;
    const out = (name: string) => path.join(temp.dir, name);

    beforeAll(() => {
      temp = tempDatasets([]);
      // A Float32 tile whose values are all whole metres (SRTM read as floats): Int16 holds it exactly.
      integralFloat = out('N48E010.tif');
      execFileSync('gdal_translate', [
        '-q',
        '-ot',
        'Float32',
        path.join(SRTM3, 'N48E010.hgt'),
        integralFloat,
      ]);
      // The same SRTM tile stored as Int64, which the API does not read: narrowed to Int16.
      int64Tile = out('int64-in/N48E009.tif');
      mkdirSync(out('int64-in'), { recursive: true });
      execFileSync('gdal_translate', ['-q', '-ot', 'Int64', path.join(SRTM3, 'N48E009.hgt'), int64Tile]);
      // The SRTM tile as Float32 labelled with a band scale and offset: its heights are stored × 0.5 - 20.
      scaledFloat = out('scaled-in/N48E009.tif');
      mkdirSync(out('scaled-in'), { recursive: true });
      execFileSync('gdal_translate', [
        ...['-q', '-ot', 'Float32', '-a_scale', '0.5', '-a_offset', '-20'],
        path.join(SRTM3, 'N48E009.hgt'),
        scaledFloat,
      ]);
      for (const [args, folder] of [
        [[COPERNICUS_LAYOUT], 'float'],
        [[int64Tile], 'int64'],
        [[path.join(SRTM3, 'N48E009.hgt'), integralFloat], 'integer'],
        [['--block', '512', COPERNICUS_LAYOUT], 'block512'],
        [[scaledFloat], 'scaled'],
      ] as const) {
        const run = demOptimize(...args, out(folder));
        if (run.status !== 0) throw new Error(`dem:optimize ${args.join(' ')} failed: ${run.stderr}`);
      }
    });
    afterAll(() => temp?.cleanup());

    test('keeps Float32 where values have fractions: 256-px blocks, DEFLATE, PREDICTOR=3, no overviews', () => {
      const info = gdalinfo(out('float/upsampled1as_N48_00_E009_00_DEM_cog.tif'));
      expect(info).toMatch(/Block=256x256 Type=Float32/);
      expect(info).toMatch(/COMPRESSION=DEFLATE/);
      expect(info).toMatch(/PREDICTOR=3/);
      expect(info).toMatch(/LAYOUT=COG/);
      expect(info).toMatch(/AREA_OR_POINT=Point/);
      expect(info).not.toMatch(/Overviews:/);
      expect(gdalinfo(out('block512/upsampled1as_N48_00_E009_00_DEM_cog.tif'))).toMatch(
        /Block=512x512 Type=Float32/,
      );
    });

    test('stores whole-metre tiles as Int16 with PREDICTOR=2, keeping names and nodata', () => {
      expect(readdirSync(out('integer')).sort()).toEqual(['N48E009.tif', 'N48E010.tif']);
      for (const name of ['N48E009.tif', 'N48E010.tif']) {
        const info = gdalinfo(out(`integer/${name}`));
        expect(info).toMatch(/Block=256x256 Type=Int16/);
        expect(info).toMatch(/PREDICTOR=2/);
        expect(info).toMatch(/NoData Value=-32768/);
      }
    });

    test.each([
      [
        'the Copernicus-layout Float32 tile',
        COPERNICUS_LAYOUT,
        'float/upsampled1as_N48_00_E009_00_DEM_cog.tif',
        48,
        9,
      ],
      [
        'the Copernicus-layout tile with 512-px blocks',
        COPERNICUS_LAYOUT,
        'block512/upsampled1as_N48_00_E009_00_DEM_cog.tif',
        48,
        9,
      ],
      ['an SRTM .hgt (Int16)', path.join(SRTM3, 'N48E009.hgt'), 'integer/N48E009.tif', 48, 9],
      ['a whole-metre Float32 tile made Int16', 'integralFloat', 'integer/N48E010.tif', 48, 10],
      ['an Int64 tile (which the API does not read) made Int16', 'int64Tile', 'int64/N48E009.tif', 48, 9],
    ])(
      '%s: GDAL and the API read the output as gdallocationinfo reads the input',
      async (_what, input, output, lat, lon) => {
        const at = points(lat, lon);
        const source = { integralFloat, int64Tile }[input] ?? input;
        const expected = gdalValues(source, at);
        expect(expected.filter((v) => v !== null).length).toBeGreaterThan(POINTS * 0.9);
        expect(gdalValues(out(output), at)).toEqual(expected);
        const config = tempDatasets([{ name: 'optimised', path: out(output) }]);
        try {
          const answers = await loadDatasetRegistry({ configPath: config.configPath })
            .get('optimised')
            .sample(at, 'nearest');
          const wrong = at.flatMap((p, i) => {
            const got = answers[i];
            const same =
              expected[i] === null
                ? got === null
                : typeof got === 'number' && Math.abs(got - (expected[i] as number)) <= NEAREST_TOLERANCE_M;
            return same ? [] : [{ ...p, expected: expected[i], got }];
          });
          expect(wrong).toEqual([]);
        } finally {
          config.cleanup();
        }
      },
    );

    test.each([
      ['a missing input', () => [out('missing.tif'), out('x')], /input .*missing\.tif does not exist/],
      [
        'a file that is not a raster',
        () => [writeText('notes.tif'), out('y')],
        /is not a raster GDAL can read/,
      ],
      ['a file with another extension', () => [writeText('notes.txt'), out('z')], /is not a \.tif\/\.tiff/],
      ['an OUT that is a file', () => [COPERNICUS_LAYOUT, writeText('out.txt')], /OUT must be a folder/],
      ['no OUT', () => [COPERNICUS_LAYOUT], /at least one input and the output folder/],
      [
        'an unknown block size',
        () => ['--block', '300', COPERNICUS_LAYOUT, out('w')],
        /--block must be one of 128, 256, 512/,
      ],
    ])('refuses %s with exit code 2 and says why', (_what, args, message) => {
      const run = demOptimize(...args());
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(message);
      expect(run.stderr).toMatch(/usage: npm run dem:optimize/);
    });

    test('refuses a complex tile among good ones before writing any', () => {
      const complex = out('complex.tif');
      execFileSync('gdal_translate', ['-q', '-ot', 'CInt16', path.join(SRTM3, 'N48E010.hgt'), complex]);
      const run = demOptimize(path.join(SRTM3, 'N48E009.hgt'), complex, out('complex-out'));
      expect(run.status).toBe(2);
      expect(run.stderr).toMatch(
        /complex\.tif holds complex samples \(CInt16\); a DEM tile holds real heights/,
      );
      expect(existsSync(out('complex-out'))).toBe(false);
    });

    test('keeps a band scale and offset, narrowing the stored values: the API answers the same heights', async () => {
      const output = out('scaled/N48E009.tif');
      const info = gdalinfo(output);
      expect(info).toMatch(/Block=256x256 Type=Int16/);
      expect(info).toMatch(/Offset: -20,\s+Scale:0\.5/);
      const at = points(48, 9);
      expect(gdalValues(output, at)).toEqual(gdalValues(scaledFloat, at)); // stored values
      // GDAL's heights of the input ("Descaled Value"), as a plain Float64 file (SRTM has no voids here).
      const heights = out('scaled-in/heights.tif');
      execFileSync('gdal_translate', ['-q', '-unscale', '-ot', 'Float64', scaledFloat, heights]);
      const expected = gdalValues(heights, at);
      expect(expected.every((v) => v !== null)).toBe(true);
      const config = tempDatasets([{ name: 'optimised', path: output }]);
      try {
        const answers = await loadDatasetRegistry({ configPath: config.configPath })
          .get('optimised')
          .sample(at, 'nearest');
        expect(answers).toEqual(expected);
      } finally {
        config.cleanup();
      }
    });

    test('states the Int64 tile became Int16', () => {
      expect(gdalinfo(out('int64/N48E009.tif'))).toMatch(/Block=256x256 Type=Int16/);
    });

    function writeText(name: string): string {
      writeFileSync(out(name), 'not a raster\n');
      return out(name);
    }
  },
);
