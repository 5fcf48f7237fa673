/**
 * scripts/make-cog-dataset.sh on real tiles: the COGs it writes keep names, data type and values, use the
 * requested block size and predictor, and the config entry it prints opens them as a seamless tiled dataset.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, readdirSync } from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';
import { loadDatasetRegistry, type Interpolation } from '../../layers/elevation';
import { assertablePoints, mismatches } from './support/compare';
import { gdalReference, REPO_ROOT, SHARED_DEM } from './support/gdal-reference';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import { tempDatasets, type DatasetEntry, type TempDatasets } from './support/temp-datasets';

const SCRIPT = path.join(REPO_ROOT, 'scripts/make-cog-dataset.sh');
const SRTM3 = path.join(SHARED_DEM, 'srtm3-germany');
const SRTM90 = path.join(SHARED_DEM, 'opentopodata/srtm90m');

/** Runs the script; returns the config entry it prints on stdout (progress goes to stderr). */
function makeCogDataset(src: string, out: string, ...options: string[]): DatasetEntry {
  const stdout = execFileSync('bash', [SCRIPT, src, out, ...options], { encoding: 'utf8', stdio: 'pipe' });
  const entries = parse(stdout) as DatasetEntry[];
  expect(entries).toHaveLength(1);
  return entries[0];
}

const gdalinfo = (file: string): string => execFileSync('gdalinfo', [file], { encoding: 'utf8' });

describeIfAvailable(
  'make-cog-dataset.sh',
  [
    { what: '../shared/dem', available: existsSync(SHARED_DEM) },
    { what: 'GDAL (gdal-bin)', available: hasCommand('gdalinfo') },
  ],
  () => {
    let temp: TempDatasets;
    let srtm3: DatasetEntry;
    let srtm90: DatasetEntry;

    beforeAll(() => {
      temp = tempDatasets([]);
      srtm3 = makeCogDataset(SRTM3, path.join(temp.dir, 'srtm3'));
      srtm90 = makeCogDataset(SRTM90, path.join(temp.dir, 'srtm90'), '--block', '256', '--name', 'srtm90');
    });
    afterAll(() => temp?.cleanup());

    test('keeps tile names and writes Int16 COGs with 512-px blocks, DEFLATE and PREDICTOR=2 by default', () => {
      expect(readdirSync(path.join(temp.dir, 'srtm3')).sort()).toEqual(['N48E009.tif', 'N48E010.tif']);
      const info = gdalinfo(path.join(temp.dir, 'srtm3/N48E009.tif'));
      expect(info).toMatch(/LAYOUT=COG/);
      expect(info).toMatch(/COMPRESSION=DEFLATE/);
      expect(info).toMatch(/PREDICTOR=2/);
      expect(info).toMatch(/Block=512x512 Type=Int16/);
      expect(info).toMatch(/AREA_OR_POINT=Point/);
      expect(info).toMatch(/NoData Value=-32768/);
    });

    test('reads .hgt.zip through /vsizip/ and honours --block 256 and --name', () => {
      expect(readdirSync(path.join(temp.dir, 'srtm90')).sort()).toEqual(['N00E010.tif', 'N00E011.tif']);
      expect(gdalinfo(path.join(temp.dir, 'srtm90/N00E011.tif'))).toMatch(/Block=256x256 Type=Int16/);
      expect(srtm90).toMatchObject({ name: 'srtm90', filename_epsg: 4326, filename_tile_size: 1 });
    });

    test('prints an OpenTopoData entry inferred from the SRTM names', () => {
      expect(srtm3).toEqual({
        name: 'srtm3',
        path: `${path.join(temp.dir, 'srtm3')}/`,
        filename_epsg: 4326,
        filename_tile_size: 1,
      });
    });

    test.each<Interpolation>(['nearest', 'bilinear'])(
      'the printed entry opens tiles that answer %s like GDAL reads the original .hgt files',
      async (method) => {
        const hgt = ['N48E009.hgt', 'N48E010.hgt'].map((f) => path.join(SRTM3, f));
        // Along the shared column lon 10.0 too: windows there take pixels from both tiles.
        const seam = Array.from({ length: 20 }, (_, i) => ({
          lat: 48.0123 + 0.0471 * i,
          lon: 10 + (i % 2 === 0 ? -1 : 1) * 0.00021 * (i + 1),
          kind: 'seam',
        }));
        const reference = gdalReference([{ id: 'srtm3', files: hgt, count: 200, extraPoints: seam }]);
        const config = tempDatasets([srtm3]);
        try {
          const dataset = loadDatasetRegistry({ configPath: config.configPath }).get('srtm3');
          const points = assertablePoints(reference.get('srtm3')?.points ?? [], method);
          expect(points.length).toBeGreaterThan(150);
          expect(await mismatches(dataset, points, method)).toEqual([]);
        } finally {
          config.cleanup();
        }
      },
    );
  },
);
