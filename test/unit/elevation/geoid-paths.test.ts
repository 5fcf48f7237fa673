/** The `geoids:` mapping of a datasets file: what it accepts, and what it refuses with the file and key named. */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DatasetConfigError, GeoidGrids, readGeoidPaths } from '../../../layers/elevation';

let workDir: string;
beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'geoid-paths-'));
});
afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

function configWith(name: string, text: string): string {
  const file = path.join(workDir, `${name}.yaml`);
  fs.writeFileSync(file, text);
  return file;
}

it('reads both geoids and ignores a file without the key, with an empty key, or that is not a mapping', () => {
  const both = configWith('both', 'datasets: []\ngeoids:\n  egm96: a.tif\n  egm2008: b.tif\n');
  expect(readGeoidPaths(both)).toEqual({ egm96: 'a.tif', egm2008: 'b.tif' });
  expect(readGeoidPaths(configWith('none', 'datasets: []\n'))).toEqual({});
  expect(readGeoidPaths(configWith('empty', 'datasets: []\ngeoids:\n'))).toEqual({});
  expect(readGeoidPaths(configWith('scalar', 'just text\n'))).toEqual({});
  expect(readGeoidPaths(configWith('blank', ''))).toEqual({});
});

it('takes the names a request takes, in any case: EGM96, egm08', () => {
  const file = configWith('cased', 'datasets: []\ngeoids:\n  EGM96: a.tif\n  egm08: b.tif\n');
  expect(readGeoidPaths(file)).toEqual({ egm96: 'a.tif', egm2008: 'b.tif' });
});

it.each([
  ['a list', 'geoids: [egm96]\n', /'geoids' must be a mapping/],
  ['a string', 'geoids: egm96.tif\n', /'geoids' must be a mapping/],
  ['an unknown geoid', 'geoids:\n  geoid18: g.tif\n', /unknown geoid 'geoid18' \(use egm96 or egm2008\)/],
  ['a path that is not text', 'geoids:\n  egm96: 42\n', /geoids\.egm96 must be a path/],
  ['an empty path', "geoids:\n  egm96: ''\n", /geoids\.egm96 must be a path/],
  ['a blank path', "geoids:\n  egm96: '  '\n", /geoids\.egm96 must be a path/],
  ['the ellipsoid', 'geoids:\n  wgs84: g.tif\n', /unknown geoid 'wgs84'/],
  [
    'one grid twice',
    'geoids:\n  egm2008: a.tif\n  EGM08: b.tif\n',
    /names the egm2008 grid twice \('EGM08'\)/,
  ],
])('refuses %s, naming the file', (name, text, message) => {
  const file = configWith(name.replace(/ /g, '-'), text);
  expect(() => readGeoidPaths(file)).toThrow(DatasetConfigError);
  expect(() => readGeoidPaths(file)).toThrow(message);
  expect(() => readGeoidPaths(file)).toThrow(file);
});

it('keeps a grid path that PyYAML would read as a number or a boolean a path (quoted for the registry)', async () => {
  const grids = new GeoidGrids(
    { egm96: '1_000', egm2008: 'yes' },
    { dataRoot: workDir, headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 0, missingTtlMs: 60_000 },
  );
  // Read as the paths written: neither exists here, and the error names each as given.
  const point = [{ lat: 1, lon: 1 }];
  await expect(grids.undulations('egm96', point)).rejects.toThrow(path.join(workDir, '1_000'));
  await expect(grids.undulations('egm2008', point)).rejects.toThrow(path.join(workDir, 'yes'));
});
