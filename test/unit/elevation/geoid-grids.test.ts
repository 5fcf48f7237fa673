/**
 * Geoid grids an operator configures: only a grid that holds N wherever a point can be is read (PROJ's own grids,
 * read raw, lack the column at 180 and answered a wrong N east of 179.75 and null beyond it; a regional grid
 * answered null), every grid a conversion needs is checked to be configured before any is read, and a grid the
 * store lacks is named as a geoid grid, not as a dataset no client asked for. Grids of 30-degree pixels written here.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  convertHeights,
  DatasetConfigError,
  DatasetUnavailableError,
  GeoidGrids,
  InvalidRequestError,
} from '../../../layers/elevation';
import { checkGlobal } from '../../../layers/elevation/datum/geoid-grids';
import { crsFromEpsg } from '../../../layers/elevation/geo/crs';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';

const STEP = 30;
const TILE = 16;

/** N at a node: periodic in longitude, so a column at 180 repeats the one at -180. */
const undulation = (lon: number, lat: number) => Math.fround(10 * Math.sin((lon * Math.PI) / 180) + lat / 10);

/** A Float32 grid of 30-degree pixels whose first pixel centre is (west, north), `width` x `height` pixels. */
function grid(west: number, north: number, width: number, height: number): Uint8Array {
  const pixels = new Float32Array(TILE * TILE);
  for (let r = 0; r < height; r++)
    for (let c = 0; c < width; c++) pixels[r * TILE + c] = undulation(west + c * STEP, north - r * STEP);
  return writeTiff({
    width,
    height,
    tile: TILE,
    tiles: [new Uint8Array(pixels.buffer)],
    tags: {
      258: short(32),
      259: short(1),
      339: short(3), // IEEE float
      34735: WGS84_KEYS,
      33550: double(STEP, STEP, 0),
      33922: double(0, 0, 0, west - STEP / 2, north + STEP / 2, 0),
    },
  });
}

let dir: string;
const grids = (paths: Record<string, string>) =>
  new GeoidGrids(paths, {
    dataRoot: dir,
    headerPrefetchBytes: 65536,
    timeoutMs: 5000,
    retries: 0,
    missingTtlMs: 0,
  });

beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'geoid-grids-'));
  const write = (name: string, bytes: Uint8Array) => fs.writeFileSync(path.join(dir, name), bytes);
  write('global.tif', grid(-180, 90, 13, 7)); // centres -180..180 (the column at 180 repeated), -90..90
  write('no-wrap.tif', grid(-180, 90, 12, 7)); // as PROJ's grids: the last column at 150
  write('zero-to-360.tif', grid(0, 90, 13, 7));
  write('regional.tif', grid(-30, 90, 4, 3));
  write('no-poles.tif', grid(-180, 60, 13, 5));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('a geoid grid an operator configures', () => {
  it('a global grid with the column at 180 repeated: bilinear east of the last column but one, as PROJ wraps', async () => {
    const [n, pole, west] = await grids({ egm96: 'global.tif' }).undulations('egm96', [
      { lat: 0, lon: 179 },
      { lat: -90, lon: 180 },
      { lat: 0, lon: -180 },
    ]);
    const expected = undulation(150, 0) + ((179 - 150) / STEP) * (undulation(180, 0) - undulation(150, 0));
    expect(n).toBeCloseTo(expected, 5);
    expect(pole).toBeCloseTo(undulation(180, -90), 5);
    expect(west).toBeCloseTo(undulation(-180, 0), 5);
  });

  it.each([
    ['no-wrap.tif', 'longitude -180..150 and latitude -90..90'],
    ['zero-to-360.tif', 'longitude 0..360 and latitude -90..90'],
    ['regional.tif', 'longitude -30..60 and latitude 30..90'],
    ['no-poles.tif', 'longitude -180..180 and latitude -60..60'],
  ])(
    '%s, which does not cover the globe, is refused for every point, saying what it spans',
    async (file, span) => {
      const geoids = grids({ egm2008: file });
      const answer = geoids.undulations('egm2008', [{ lat: 0, lon: 10 }]);
      await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
      await expect(answer).rejects.toThrow(
        `geoid grid ${path.join(dir, file)}: its pixel centres span ${span}; a geoid grid must be one EPSG:4326 raster`,
      );
      // Refused again, not answered once the check failed.
      await expect(geoids.undulations('egm2008', [{ lat: 0, lon: 10 }])).rejects.toThrow(
        /pixel centres span/,
      );
    },
  );

  it('a grid missing at the first request is read once it is there (a failed check is not kept)', async () => {
    const geoids = grids({ egm96: 'late.tif' });
    await expect(geoids.undulations('egm96', [{ lat: 0, lon: 0 }])).rejects.toBeInstanceOf(
      DatasetUnavailableError,
    );
    fs.copyFileSync(path.join(dir, 'global.tif'), path.join(dir, 'late.tif'));
    const [n] = await geoids.undulations('egm96', [{ lat: 0, lon: 0 }]);
    expect(n).toBeCloseTo(undulation(0, 0), 5);
  });

  it('a grid replaced under a running environment by one that does not cover the globe is refused', async () => {
    fs.copyFileSync(path.join(dir, 'global.tif'), path.join(dir, 'swapped.tif'));
    const geoids = grids({ egm96: 'swapped.tif' }); // missingTtlMs 0: every request checks the file
    await expect(geoids.undulations('egm96', [{ lat: 0, lon: 179 }])).resolves.toHaveLength(1);
    fs.copyFileSync(path.join(dir, 'no-wrap.tif'), path.join(dir, 'swapped.tif'));
    const later = new Date(Date.now() + 5000);
    fs.utimesSync(path.join(dir, 'swapped.tif'), later, later);
    await expect(geoids.undulations('egm96', [{ lat: 0, lon: 179 }])).rejects.toThrow(/pixel centres span/);
  });

  it('a grid the store lacks is a 502 naming the geoid grid, not a dataset', async () => {
    const answer = grids({ egm96: 'missing.tif' }).undulations('egm96', [{ lat: 0, lon: 0 }]);
    await expect(answer).rejects.toBeInstanceOf(DatasetUnavailableError);
    await expect(answer).rejects.toMatchObject({
      publicMessage: expect.stringMatching(/^The EGM96 geoid grid is unavailable: /),
    });
  });

  it('a conversion needing a grid that is not configured is a 400 before any grid is read', async () => {
    // EGM96 heights to EGM2008 need both grids; the EGM96 one is missing from the store, EGM2008 not configured.
    const answer = convertHeights(
      { elevations: [100], datasets: ['srtm'], points: [{ lat: 0, lon: 0 }] },
      'egm2008',
      () => 'egm96',
      grids({ egm96: 'missing.tif' }),
    );
    await expect(answer).rejects.toBeInstanceOf(InvalidRequestError);
    await expect(answer).rejects.toThrow(/^No EGM2008 geoid grid is configured/);
  });
});

describe('checkGlobal', () => {
  /** EGM96 as make-geoid-cog.sh writes it: 1441 x 721 pixels of 0.25 degrees, centres -180..180, -90..90. */
  const global = {
    crs: crsFromEpsg(4326),
    grid: {
      width: 1441,
      height: 721,
      originX: -180.125,
      originY: 90.125,
      resX: 0.25,
      resY: -0.25,
      blockWidth: 256,
      blockHeight: 256,
    },
  };
  const changed = (grid: Partial<typeof global.grid>) => ({ ...global, grid: { ...global.grid, ...grid } });

  it('takes a grid whose pixel centres span the globe', () => {
    expect(() => checkGlobal(global, 'g')).not.toThrow();
  });

  it.each([
    ['projected', { ...global, crs: crsFromEpsg(3857) }, 'g: its CRS is EPSG:3857; a geoid grid must be'],
    ['without the column at 180', changed({ width: 1440 }), 'longitude -180..179.75 and latitude -90..90;'],
    [
      'starting east of -180',
      changed({ originX: -179.875 }),
      'longitude -179.75..180.25 and latitude -90..90;',
    ],
    ['short of the south pole', changed({ height: 720 }), 'longitude -180..180 and latitude -89.75..90;'],
    [
      'short of the north pole',
      changed({ originY: 89.875 }),
      'longitude -180..180 and latitude -90.25..89.75;',
    ],
  ])('refuses a grid %s', (_what, raster, message) => {
    expect(() => checkGlobal(raster, 'g')).toThrow(message);
  });
});
