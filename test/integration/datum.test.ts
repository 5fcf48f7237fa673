/**
 * `datum=` on the file and profile endpoints, in-process over the bundled sample (SRTM: EGM96 heights) and its
 * EGM96 geoid COG: ellipsoidal height = EGM96 height + N, N read from the same grid independently here.
 */
import { mkdtempSync, readFileSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GeoidGrids } from '../../layers/elevation/datum/geoid-grids';
import { invoke, type EventOptions } from './support/api-gateway';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

/** Both sides are rounded to millimetres once, from differently rounded inputs. */
const ROUNDING_M = 0.0015;
const GPX = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
const geoids = new GeoidGrids(
  { egm96: 'geoid/egm96-15.tif' },
  {
    dataRoot: path.resolve('layers/dem-sample'),
    headerPrefetchBytes: 65536,
    timeoutMs: 5000,
    retries: 0,
    missingTtlMs: 60_000,
  },
);

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

const postFile = (query: Record<string, string>, extra: Partial<EventOptions> = {}) =>
  invoke(handlers.file, {
    method: 'POST',
    path: '/v1/sample/file',
    pathParameters: { dataset: 'sample' },
    query,
    body: GPX.toString('base64'),
    isBase64Encoded: true,
    ...extra,
  });

const eles = (gpx: string) => [...gpx.matchAll(/<ele>([^<]*)<\/ele>/g)].map((m) => Number(m[1]));

describe('datum=ellipsoid', () => {
  it('writes EGM96 heights plus the EGM96 undulation into a GPX', async () => {
    const plain = eles((await postFile({})).body);
    const ellipsoidalGpx = (await postFile({ datum: 'ellipsoid' })).body;
    const ellipsoidal = eles(ellipsoidalGpx);
    const points = [
      { lat: 48.8017, lon: 9.1645 },
      { lat: 48.742275, lon: 9.101177 },
      { lat: 48.7500000001, lon: 9.12 },
      { lat: 48.77, lon: 9.15 },
    ];
    const n = (await geoids.undulations('egm96', points)) as number[];
    expect(n.every((v) => v > 45 && v < 52)).toBe(true); // Stuttgart: N ≈ 48.6 m
    points.forEach((_, i) => {
      expect(Math.abs(ellipsoidal[i] - (plain[i] + n[i]))).toBeLessThan(ROUNDING_M);
    });
    // The point without data (9.5 E) had a placeholder 0: removed, not converted into 48 m above the ellipsoid.
    expect(ellipsoidalGpx).toMatch(/<trkpt lat="48.7" lon="9.5">\s*<\/trkpt>/);
    expect(ellipsoidal).toHaveLength(plain.length);
  });

  it('shifts a profile by the undulation along it', async () => {
    const query = { locations: '48.65,9.05|48.85,9.25', samples: '5' };
    const get = (q: Record<string, string>) =>
      invoke(handlers.profile, {
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: q,
      });
    type Body = { points: { elevation: number; location: { lat: number; lng: number } }[] };
    const plain = (await get(query)).json as Body;
    const ellipsoidal = (await get({ ...query, datum: 'ellipsoid' })).json as Body;
    const n = (await geoids.undulations(
      'egm96',
      plain.points.map((p) => ({ lat: p.location.lat, lon: p.location.lng })),
    )) as number[];
    plain.points.forEach((p, i) => {
      expect(Math.abs(ellipsoidal.points[i].elevation - (p.elevation + n[i]))).toBeLessThan(ROUNDING_M);
    });
  });

  it('converts /v1 answers, GET and POST, point by point', async () => {
    const get = (query: Record<string, string>) =>
      invoke(handlers.elevation, { path: '/v1/sample', pathParameters: { dataset: 'sample' }, query });
    type Body = { results: { elevation: number | null }[] };
    const locations = '48.742275,9.101177|48.8,9.2|10,10';
    const plain = (await get({ locations })).json as Body;
    const ellipsoidal = (await get({ locations, datum: 'ellipsoid' })).json as Body;
    const n = (await geoids.undulations('egm96', [
      { lat: 48.742275, lon: 9.101177 },
      { lat: 48.8, lon: 9.2 },
    ])) as number[];
    [0, 1].forEach((i) => {
      expect(
        Math.abs(
          (ellipsoidal.results[i].elevation as number) - ((plain.results[i].elevation as number) + n[i]),
        ),
      ).toBeLessThan(ROUNDING_M);
    });
    expect(ellipsoidal.results[2].elevation).toBeNull(); // no data stays no data
    const posted = await invoke(handlers.elevation, {
      method: 'POST',
      path: '/v1/sample',
      pathParameters: { dataset: 'sample' },
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ locations, datum: 'ellipsoid' }),
    });
    expect(posted.json).toEqual(ellipsoidal);
    const bad = await get({ locations, datum: '7' });
    expect(bad.status).toBe(400);
  });

  it('changes nothing for datum=egm96 on an EGM96 dataset', async () => {
    expect((await postFile({ datum: 'egm96' })).body).toBe((await postFile({})).body);
  });
});

describe('datum errors', () => {
  it('answers 400 naming the missing grid for datum=egm2008', async () => {
    const response = await postFile({ datum: 'egm2008' });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain('No EGM2008 geoid grid is configured');
  });

  it('refuses datum=ellipsoid for a KML, whose altitudes are above sea level; datum=egm96 fills it', async () => {
    const kml =
      '<kml xmlns="http://www.opengis.net/kml/2.2"><Placemark><Point><coordinates>9.101177,48.742275</coordinates></Point></Placemark></kml>';
    const post = (datum: string) => postFile({ datum }, { body: kml, isBase64Encoded: false });
    const refused = await post('ellipsoid');
    expect(refused.status).toBe(400);
    expect((refused.json as { error: string }).error).toBe(
      'KML altitudes are heights above sea level (KML 2.2; Google Earth draws them over EGM96), so datum=ellipsoid would draw the KML up to ~100 m off: leave datum out, or use datum=egm96.',
    );
    const filled = await post('egm96');
    expect(filled.status).toBe(200);
    expect(filled.body).toContain('<coordinates>9.101177,48.742275,456.889</coordinates>');
  });

  it('answers 400 for an unknown datum', async () => {
    const response = await postFile({ datum: 'navd88' });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain("Invalid datum 'navd88'");
  });

  it('answers 400 naming a declared vertical datum that cannot be converted (not "declares none")', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'datum-'));
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      `datasets:\n  - name: navd\n    path: ${path.resolve('test/fixtures/plane-point.tif')}\n    vertical_datum: NAVD88\n`,
    );
    const navd = await loadTrackHandlers({ CONFIG_PATH: config });
    const response = await invoke(navd.file, {
      method: 'POST',
      path: '/v1/navd/file',
      pathParameters: { dataset: 'navd' },
      query: { datum: 'ellipsoid' },
      body: '<gpx><wpt lat="49.9" lon="10.1"/></gpx>',
    });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      "Dataset 'navd' declares the vertical datum 'NAVD88', which cannot be converted: only EGM96, EGM2008 and ellipsoidal heights can.",
    );
  });

  it('converts an SRTM .hgt dataset without vertical_datum from EGM96, as /v1/datasets lists it', async () => {
    const dir = mkdtempSync(path.join(os.tmpdir(), 'datum-hgt-'));
    const samples = Buffer.alloc(1201 * 1201 * 2);
    for (let i = 0; i < 1201 * 1201; i++) samples.writeInt16BE(300, i * 2);
    writeFileSync(path.join(dir, 'N48E009.hgt'), samples);
    const config = path.join(dir, 'config.yaml');
    writeFileSync(
      config,
      `datasets:\n  - name: srtm\n    path: N48E009.hgt\ngeoids:\n  egm96: ${path.resolve('layers/dem-sample/geoid/egm96-15.tif')}\n`,
    );
    const srtm = await loadTrackHandlers({ CONFIG_PATH: config });
    const response = await invoke(srtm.file, {
      method: 'POST',
      path: '/v1/srtm/file',
      pathParameters: { dataset: 'srtm' },
      query: { datum: 'ellipsoid' },
      body: '<gpx><wpt lat="48.5" lon="9.5"/></gpx>',
    });
    expect(response.status).toBe(200);
    const [n] = await geoids.undulations('egm96', [{ lat: 48.5, lon: 9.5 }]);
    expect(Math.abs(eles(response.body)[0] - (300 + n!))).toBeLessThanOrEqual(ROUNDING_M);
  });

  it('answers 400 when the dataset declares no vertical datum', async () => {
    const fixtures = await loadTrackHandlers({ CONFIG_PATH: 'test/fixtures/config.yaml' });
    const response = await invoke(fixtures.file, {
      method: 'POST',
      path: '/v1/plane-point/file',
      pathParameters: { dataset: 'plane-point' },
      query: { datum: 'ellipsoid' },
      body: '<gpx><wpt lat="49.9" lon="10.1"/></gpx>',
    });
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toContain(
      "Dataset 'plane-point' declares no vertical datum",
    );
  });
});
