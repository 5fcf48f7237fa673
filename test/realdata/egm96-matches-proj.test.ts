/**
 * Our EGM96 geoid undulation (the committed COG made by scripts/geoid/make-egm96-cog.sh, read like any
 * dataset, bilinear) equals PROJ's (Debian PROJ 9: `cct +proj=vgridshift +grids=egm96_15.gtx`, bilinear) within
 * 1 mm at 300 points worldwide: random, on grid nodes, between nodes, at the poles and across the antimeridian.
 * The script re-run here must also reproduce the committed COG. Needs proj-bin (cct) and gdal-bin: without
 * them the suite skips with a message, and fails under CI=true.
 */
import { execFileSync, spawnSync } from 'node:child_process';
import { existsSync, mkdtempSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GeoidGrids } from '../../layers/elevation/datum/geoid-grids';
import type { LatLon } from '../../layers/elevation';

const REPO_ROOT = path.resolve(__dirname, '../..');
const GTX = '/usr/share/proj/egm96_15.gtx';
/** PROJ and we both interpolate bilinearly in Float32 nodes: anything over a millimetre is a real difference. */
const TOLERANCE_M = 1e-3;
const RANDOM_POINTS = 250;

const has = (command: string) => spawnSync('sh', ['-c', `command -v ${command}`]).status === 0;
const READY = has('cct') && has('gdal_translate') && existsSync(GTX);

function grids(dataRoot: string, file: string): GeoidGrids {
  return new GeoidGrids(
    { egm96: file },
    { dataRoot, headerPrefetchBytes: 65536, timeoutMs: 5000, retries: 0, missingTtlMs: 60_000 },
  );
}

/** Deterministic points (a fixed LCG), so a failure names the same points on every run. */
function testPoints(): LatLon[] {
  let seed = 13;
  const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
  const random = Array.from({ length: RANDOM_POINTS }, () => ({
    lat: -90 + 180 * next(),
    lon: -180 + 360 * next(),
  }));
  const special = [
    { lat: 48.742275, lon: 9.101177 },
    { lat: 90, lon: 0 },
    { lat: -90, lon: 0 },
    { lat: 89.9, lon: 179.99 },
    { lat: 10, lon: 180 },
    { lat: 10, lon: -180 },
    { lat: 10, lon: 179.9 },
    { lat: -33.3, lon: -179.95 },
    { lat: 0, lon: 0 },
    { lat: 0.125, lon: 0.125 },
    ...Array.from({ length: 20 }, (_, i) => ({ lat: -80 + 8 * i, lon: -170 + 17 * i })), // on 0.25° nodes
    ...Array.from({ length: 20 }, (_, i) => ({ lat: -79.9 + 8.3 * i, lon: 179.8 + 0.01 * i })),
  ];
  return [...random, ...special];
}

/** PROJ's undulation at each point: vgridshift with multiplier 1 adds N to a zero height. */
function projUndulations(points: readonly LatLon[]): number[] {
  const input = `${points.map((p) => `${p.lon} ${p.lat} 0 0`).join('\n')}\n`; // cct ignores an unterminated last line
  const output = execFileSync('cct', ['-d', '6', '+proj=vgridshift', `+grids=${GTX}`, '+multiplier=1'], {
    input,
    encoding: 'utf8',
  });
  return output
    .trim()
    .split('\n')
    .map((line) => Number(line.trim().split(/\s+/)[2]));
}

if (!READY && process.env.CI !== 'true') {
  console.warn(
    `EGM96 vs PROJ skipped: needs cct (proj-bin), gdal_translate (gdal-bin) and ${GTX} (proj-data).`,
  );
  test('is skipped because PROJ tools or the grid are absent', () => {
    expect(READY).toBe(false);
  });
} else {
  describe('EGM96 geoid undulation', () => {
    const points = testPoints();

    it('equals PROJ within 1 mm at 300 points worldwide', async () => {
      expect(READY).toBe(true); // under CI=true missing tools fail here
      const ours = await grids(path.join(REPO_ROOT, 'layers/dem-sample'), 'geoid/egm96-15.tif').undulations(
        'egm96',
        points,
      );
      const proj = projUndulations(points);
      expect(proj).toHaveLength(points.length);
      const off = points
        .map((p, i) => ({ ...p, ours: ours[i], proj: proj[i] }))
        .filter((r) => r.ours === null || !(Math.abs(r.ours - r.proj) <= TOLERANCE_M));
      expect(off).toEqual([]);
      expect(points.length).toBeGreaterThanOrEqual(300);
    });

    it('is reproduced by scripts/geoid/make-egm96-cog.sh', async () => {
      const dir = mkdtempSync(path.join(os.tmpdir(), 'egm96-'));
      try {
        execFileSync('bash', [
          path.join(REPO_ROOT, 'scripts/geoid/make-egm96-cog.sh'),
          GTX,
          path.join(dir, 'egm96.tif'),
        ]);
        const rebuilt = await grids(dir, 'egm96.tif').undulations('egm96', points);
        const committed = await grids(
          path.join(REPO_ROOT, 'layers/dem-sample'),
          'geoid/egm96-15.tif',
        ).undulations('egm96', points);
        expect(rebuilt).toEqual(committed);
      } finally {
        rmSync(dir, { recursive: true, force: true });
      }
    });
  });
}
