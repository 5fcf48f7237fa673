/**
 * A GeoTIFF whose CRS is user-defined (a PROJ string or WKT without an EPSG code: what gdalwarp -t_srs
 * '+proj=…' writes) is either read where GDAL reads it or refused: never read elsewhere. Each case is written by
 * gdal_translate -a_srs (so the GeoKeys are GDAL's), read through crsFromGeoKeys, and a few WGS 84 points are
 * placed by both (GDAL's osr through scripts/geo/proj_positions.py --rasters, as GDAL and OpenTopoData place them).
 * Before user-defined-crs.ts, a helper's probe found heights of other places answered as 200 for a polar
 * stereographic, a Mercator or equirectangular with a standard parallel, and any unit but the metre. Needs
 * gdal-bin and python3-gdal; without them the suite skips, and fails under CI=true.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fromFile } from 'geotiff';
import { DatasetConfigError } from '../../layers/elevation';
import { crsFromGeoKeys, wgs84Converter } from '../../layers/elevation/geo/crs';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';

/** proj4 and PROJ agree to the millimetre but for Robinson (1.3 cm): far below any DEM's pixel. */
const TOLERANCE_M = 0.02;
const FIXTURE = path.resolve('test/fixtures/plane-point.tif');
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'; // Debian's has python3-gdal

/** A PROJ string, a point inside its area, and whether the reader reads it (else it must refuse it). */
const CASES: [string, number, number, 'read' | 'refused'][] = [
  [
    '+proj=tmerc +lat_0=48.75 +lon_0=9.25 +k=0.9996 +x_0=500000 +y_0=0 +ellps=WGS84 +units=m',
    9.4,
    48.9,
    'read',
  ],
  ['+proj=tmerc +lat_0=48.75 +lon_0=9.25 +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=km', 9.4, 48.9, 'read'],
  ['+proj=tmerc +lat_0=48.75 +lon_0=9.25 +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=ft', 9.4, 48.9, 'read'],
  [
    '+proj=tmerc +lat_0=0 +lon_0=-120 +k=0.9999 +x_0=500000 +y_0=0 +ellps=GRS80 +units=us-ft',
    -119.5,
    37,
    'read',
  ],
  ['+proj=tmerc +lat_0=0 +lon_0=29 +k=1 +x_0=0 +y_0=0 +axis=wsu +ellps=WGS84', 29.5, -26, 'refused'],
  ['+proj=tmerc +lat_0=0 +lon_0=9 +k=0.9996 +x_0=500000 +y_0=0 +ellps=WGS84 +pm=ferro', 9.4, 48.9, 'read'],
  ['+proj=utm +zone=33 +south +ellps=WGS84 +units=m', 15, -20, 'read'],
  ['+proj=stere +lat_0=90 +lat_ts=70 +lon_0=-45 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m', -40, 75, 'read'],
  ['+proj=stere +lat_0=-90 +lat_ts=-71 +lon_0=0 +k=1 +x_0=0 +y_0=0 +datum=WGS84 +units=m', 30, -75, 'read'],
  [
    '+proj=stere +lat_0=90 +k=0.994 +lon_0=10 +x_0=2000000 +y_0=2000000 +ellps=WGS84 +units=m',
    15,
    80,
    'read',
  ],
  [
    '+proj=stere +lat_0=-90 +k=0.994 +lon_0=0 +x_0=2000000 +y_0=2000000 +ellps=WGS84 +units=m',
    15,
    -80,
    'read',
  ],
  ['+proj=stere +lat_0=48 +lon_0=9 +k=1 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.2, 'read'],
  [
    '+proj=sterea +lat_0=52.15 +lon_0=5.38 +k=0.9999079 +x_0=155000 +y_0=463000 +ellps=GRS80',
    5.5,
    52.3,
    'read',
  ],
  ['+proj=merc +lon_0=9 +k=0.7 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.5, 48.5, 'read'],
  ['+proj=merc +lat_ts=48 +lon_0=9 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.5, 48.5, 'read'],
  ['+proj=eqc +lat_ts=48.75 +lat_0=0 +lon_0=9.25 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.5, 48.5, 'read'],
  ['+proj=eqc +lat_ts=30 +lat_0=10 +lon_0=5 +x_0=100 +y_0=200 +ellps=WGS84 +units=m', 6, 31, 'read'],
  ['+proj=eqc +lat_ts=0 +lat_0=0 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 6, 31, 'read'],
  [
    '+proj=lcc +lat_1=49 +lat_2=46 +lat_0=47.5 +lon_0=13.33 +x_0=400000 +y_0=400000 +ellps=GRS80',
    14,
    47,
    'read',
  ],
  [
    '+proj=lcc +lat_1=46.8 +lat_0=46.8 +lon_0=0 +k_0=0.99987742 +x_0=600000 +y_0=2200000 +ellps=GRS80',
    2,
    47,
    'read',
  ],
  [
    '+proj=lcc +lat_1=35 +lat_2=65 +lat_0=52 +lon_0=10 +x_0=4000000 +y_0=2800000 +ellps=GRS80 +units=km',
    9,
    48,
    'read',
  ],
  ['+proj=laea +lat_0=52 +lon_0=10 +x_0=4321000 +y_0=3210000 +ellps=GRS80 +units=m', 9, 48, 'read'],
  ['+proj=laea +lat_0=90 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 20, 80, 'read'],
  ['+proj=aea +lat_1=29.5 +lat_2=45.5 +lat_0=23 +lon_0=-96 +x_0=0 +y_0=0 +ellps=GRS80', -100, 40, 'read'],
  ['+proj=aeqd +lat_0=48 +lon_0=9 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.5, 48.5, 'read'],
  ['+proj=eqdc +lat_0=40 +lon_0=-96 +lat_1=20 +lat_2=60 +x_0=0 +y_0=0 +ellps=WGS84', -100, 40, 'read'],
  ['+proj=cass +lat_0=48 +lon_0=9 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'read'],
  ['+proj=gnom +lat_0=48 +lon_0=9 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'read'],
  ['+proj=mill +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  ['+proj=ortho +lat_0=48 +lon_0=9 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  ['+proj=poly +lat_0=0 +lon_0=-54 +x_0=5000000 +y_0=10000000 +ellps=GRS80 +units=m', -50, -10, 'read'],
  ['+proj=robin +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'read'],
  ['+proj=sinu +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'read'],
  ['+proj=vandg +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  ['+proj=cea +lat_ts=30 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'read'],
  [
    '+proj=omerc +lat_0=48.7 +lonc=9.2 +alpha=30 +gamma=30 +k=1 +x_0=0 +y_0=0 +ellps=WGS84',
    9.3,
    48.8,
    'refused',
  ],
  [
    '+proj=nzmg +lat_0=-41 +lon_0=173 +x_0=2510000 +y_0=6023150 +ellps=intl +towgs84=59.47,-5.04,187.44,0.47,-0.1,1.024,-4.5993',
    174,
    -41,
    'read',
  ],
  ['+proj=longlat +ellps=WGS84 +pm=paris +no_defs', 9.3, 48.3, 'read'],
  ['+proj=longlat +ellps=GRS80 +no_defs', 9.3, 48.3, 'read'],
  ['+proj=geos +h=35785831 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  ['+proj=moll +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  ['+proj=eck4 +lon_0=0 +x_0=0 +y_0=0 +ellps=WGS84 +units=m', 9.3, 48.3, 'refused'],
  [
    '+proj=krovak +lat_0=49.5 +lon_0=24.8333333333333 +alpha=30.2881397527778 +k=0.9999 +x_0=0 +y_0=0 +ellps=bessel +towgs84=589,76,480,0,0,0,0',
    15,
    50,
    'refused',
  ],
];

/** The case's point and two more around it. */
const pointsOf = (lon: number, lat: number): [number, number][] => [
  [lon, lat],
  [lon + 0.3, lat - 0.2],
  [lon - 0.4, lat + 0.25],
];

describeIfAvailable(
  'user-defined CRSs are read where GDAL reads them, or refused',
  [
    {
      what: 'GDAL with its Python bindings (gdal-bin, python3-gdal)',
      available: hasCommand('gdal_translate'),
    },
  ],
  () => {
    let dir: string;
    const gdal = new Map<string, [number, number][]>();
    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'user-defined-crs-'));
      const requests = CASES.map(([srs, lon, lat], i) => {
        const file = path.join(dir, `${i}.tif`);
        execFileSync('gdal_translate', [
          '-q',
          '-a_srs',
          srs,
          '-a_ullr',
          '0',
          '1000',
          '1000',
          '0',
          FIXTURE,
          file,
        ]);
        return JSON.stringify({ file, points: pointsOf(lon, lat) });
      });
      const out = execFileSync(PYTHON, [path.resolve('scripts/geo/proj_positions.py'), '--rasters'], {
        input: `${requests.join('\n')}\n`,
        encoding: 'utf8',
      });
      for (const line of out.trim().split('\n')) {
        const answer = JSON.parse(line) as { file: string; xy?: [number, number][]; error?: string };
        if (answer.xy) gdal.set(answer.file, answer.xy);
      }
    }, 120_000);
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    const indexed = CASES.map(([srs, lon, lat, expected], i) => ({ srs, lon, lat, expected, i }));
    const geoKeys = async (i: number): Promise<Record<string, unknown>> =>
      (await (await fromFile(path.join(dir, `${i}.tif`))).getImage()).getGeoKeys() as Record<string, unknown>;

    it.each(indexed.filter((c) => c.expected === 'read'))('reads $srs', async ({ lon, lat, i }) => {
      const reference = gdal.get(path.join(dir, `${i}.tif`));
      expect(reference).toBeDefined();
      const converter = wgs84Converter(crsFromGeoKeys(await geoKeys(i)));
      const off = pointsOf(lon, lat).map(([pLon, pLat], j) => {
        const [x, y] = converter.forward(pLon, pLat);
        return Math.hypot(x - reference![j][0], y - reference![j][1]);
      });
      expect(Math.max(...off)).toBeLessThan(TOLERANCE_M);
    });

    it.each(indexed.filter((c) => c.expected === 'refused'))('refuses $srs', async ({ i }) => {
      const keys = await geoKeys(i);
      expect(() => crsFromGeoKeys(keys)).toThrow(DatasetConfigError);
    });
  },
);
