/**
 * VRTs gdalbuildvrt writes with options that change what GDAL reads (found by an outside-in VRT probe, where each
 * was answered as 200 with heights GDAL does not give): `-a_srs` places the mosaic by the VRT's CRS, whatever its
 * sources say, and is read so; `-te` off the sources' grid resamples them (a fractional DstRect) and an Int16
 * band over Float32 sources (`-ot Int16`) rounds them, and both are refused with the reason. Two SRTM tiles from ../shared/dem, GDAL
 * (gdallocationinfo) the reference. Needs gdal-bin: without it the suite skips, and fails under CI=true.
 */
import { execFileSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError, loadDatasetRegistry, type DatasetRegistry } from '../../layers/elevation';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import { SHARED_DEM } from './support/gdal-reference';

const PROJ_DB = '/usr/share/proj/proj.db';
const TILES = ['srtm3-germany/N48E009.hgt', 'srtm3-germany/N48E010.hgt'].map((f) => path.join(SHARED_DEM, f));

/** Deterministic points over both tiles (a fixed LCG), kept half a degree from GDAL's WGS84 to DHDN shift edge. */
function points(count: number): { lat: number; lon: number }[] {
  let seed = 7;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  return Array.from({ length: count }, () => ({ lat: 48.05 + 0.9 * next(), lon: 9.05 + 1.9 * next() }));
}

/**
 * GDAL's nearest value of `vrt` at each WGS84 point (gdallocationinfo -wgs84), null where it is nodata. With
 * `helmertOnly`, PROJ sees its database but no grid files, so it shifts a datum by the Helmert step the reader
 * uses too (with proj-data's BETA2007 grid, DHDN differs from it by a metre or so: a neighbouring pixel now and
 * then, which is the datum-shift choice, not the VRT).
 */
function gdalValues(
  vrt: string,
  at: { lat: number; lon: number }[],
  helmertOnly?: string,
): (number | null)[] {
  const env = helmertOnly ? { ...process.env, PROJ_DATA: helmertOnly, PROJ_LIB: helmertOnly } : process.env;
  const out = execFileSync('gdallocationinfo', ['-valonly', '-wgs84', vrt], {
    input: at.map((p) => `${p.lon} ${p.lat}`).join('\n'),
    env,
  }).toString();
  return out
    .trim()
    .split('\n')
    .map((v) => (v === '' || Number(v) === -32768 ? null : Number(v)));
}

describeIfAvailable(
  'VRTs written with gdalbuildvrt options',
  [
    { what: '../shared/dem', available: TILES.every((f) => existsSync(f)) },
    { what: 'GDAL (gdal-bin)', available: hasCommand('gdalbuildvrt') && existsSync(PROJ_DB) },
  ],
  () => {
    let dir: string;
    let registry: DatasetRegistry;
    const build = (name: string, ...options: string[]) =>
      execFileSync('gdalbuildvrt', ['-q', ...options, path.join(dir, `${name}.vrt`), ...TILES]);

    beforeAll(() => {
      dir = mkdtempSync(path.join(os.tmpdir(), 'vrt-options-'));
      build('a-srs', '-a_srs', 'EPSG:4314');
      build('off-grid', '-te', '8.999', '47.999', '11.001', '49.001');
      execFileSync('gdal_translate', ['-q', '-ot', 'Float32', TILES[0], path.join(dir, 'f32.tif')]);
      // GDAL 3.6's gdalbuildvrt has no -ot yet: its VRT with the band type -ot writes (GDAL 3.7+).
      execFileSync('gdalbuildvrt', ['-q', path.join(dir, 'ot-int16.vrt'), path.join(dir, 'f32.tif')]);
      const f32 = readFileSync(path.join(dir, 'ot-int16.vrt'), 'utf8');
      writeFileSync(
        path.join(dir, 'ot-int16.vrt'),
        f32.replace('dataType="Float32" band="1"', 'dataType="Int16" band="1"'),
      );
      // The two tiles share the column at 10 E; here its copies differ (edited), with voids in one or both.
      mkdirSync(path.join(dir, 'overlap'));
      const edits: [number, number, number, number, number][] = [
        // tile, column, first row, rows, value (-32768: a void)
        [0, 1200, 300, 10, 1000],
        [0, 1200, 400, 5, -32768],
        [1, 0, 600, 10, 2000],
        [1, 0, 700, 5, -32768],
        [0, 1200, 800, 3, -32768],
        [1, 0, 800, 3, -32768],
      ];
      TILES.forEach((tile, t) => {
        const bytes = readFileSync(tile);
        for (const [which, col, first, rows, value] of edits)
          if (which === t)
            for (let r = first; r < first + rows; r++) bytes.writeInt16BE(value, (r * 1201 + col) * 2);
        writeFileSync(path.join(dir, 'overlap', path.basename(tile)), bytes);
      });
      const overlapVrt = path.join(dir, 'overlap.vrt');
      execFileSync('gdalbuildvrt', [
        '-q',
        overlapVrt,
        ...TILES.map((t) => path.join(dir, 'overlap', path.basename(t))),
      ]);
      // GDAL paints the VRT into one raster: the mosaic as GDAL reads it, read by us as a single file.
      execFileSync('gdal_translate', ['-q', '-of', 'GTiff', overlapVrt, path.join(dir, 'composite.tif')]);
      const names = ['a-srs', 'off-grid', 'ot-int16', 'overlap'];
      writeFileSync(
        path.join(dir, 'config.yaml'),
        `datasets:\n${names.map((n) => `  - name: ${n}\n    path: ${n}.vrt\n`).join('')}  - name: composite\n    path: composite.tif\n`,
      );
      registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    });
    afterAll(() => rmSync(dir, { recursive: true, force: true }));

    it("-a_srs EPSG:4314: heights placed by the VRT's CRS (DHDN), as GDAL reads them", async () => {
      const at = points(300);
      const noGrids = path.join(dir, 'proj');
      mkdirSync(noGrids);
      symlinkSync(PROJ_DB, path.join(noGrids, 'proj.db'));
      const expected = gdalValues(path.join(dir, 'a-srs.vrt'), at, noGrids);
      const answered = await registry.get('a-srs').sample(at, 'nearest');
      // Not the same heights as the sources read in their own CRS (WGS 84): the shift is ~100 m here.
      const unshifted = gdalValues(TILES[0], at.slice(0, 100)).filter(
        (v, i) => v !== null && v !== expected[i],
      );
      expect(unshifted.length).toBeGreaterThan(20);
      expect(answered).toEqual(expected);
    });

    it('overlapping sources that differ: the later paints over the earlier, its nodata shows the earlier', async () => {
      // Around the shared column (10 E, pixel centres on it), at and beside each edited band of rows.
      const res = 1 / 1200;
      const at = [300, 400, 600, 700, 800].flatMap((band) =>
        Array.from({ length: 14 }, (_, k) => band - 2 + k).flatMap((row) =>
          [-0.4, 0, 0.3].flatMap((dy) =>
            [-1.6, -1.1, -0.6, -0.4, -0.1, 0, 0.1, 0.4, 0.6, 1.1, 1.6].map((dx) => ({
              lat: 49 - (row + dy) * res,
              lon: 10 + dx * res,
            })),
          ),
        ),
      );
      const nearest = await registry.get('overlap').sample(at, 'nearest');
      // gdallocationinfo on the painted raster (on the VRT itself GDAL 3.6 prints nodata at one of these pixels).
      expect(nearest).toEqual(gdalValues(path.join(dir, 'composite.tif'), at));
      expect(nearest).not.toContain(1000); // the earlier one's copy, painted over
      expect(nearest).toContain(2000); // the later one's
      const [shown] = await registry.get('overlap').sample([{ lat: 49 - 702 * res, lon: 10 }], 'nearest');
      expect(shown).not.toBeNull(); // a void in the later one: the earlier one's height
      expect(nearest).toContain(null); // a void in both
      for (const method of ['bilinear', 'cubic'] as const) {
        const painted = await registry.get('composite').sample(at, method);
        const answered = await registry.get('overlap').sample(at, method);
        // The same pixels weighted alike; the weights from another origin differ in the last bits (1e-9 m).
        expect(answered.map((v) => v === null)).toEqual(painted.map((v) => v === null));
        const worst = Math.max(...answered.map((v, i) => Math.abs((v ?? 0) - (painted[i] ?? 0))));
        expect(worst).toBeLessThan(1e-6);
      }
    });

    it.each([
      [
        'off-grid',
        /is placed off the VRT's pixel grid \(DstRect [\d.]+,[\d.]+ 1201x1201\), so GDAL resamples it/,
      ],
      ['ot-int16', /f32\.tif holds Float32 samples, which its VRT's Int16 band does not hold exactly/],
    ])('%s is refused, saying why', async (name, message) => {
      const answer = registry.get(name).sample(points(1), 'nearest');
      await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
      await expect(answer).rejects.toThrow(message);
    });
  },
);
