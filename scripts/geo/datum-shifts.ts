/**
 * `npx tsx scripts/geo/datum-shifts.ts` (needs PROJ's `projinfo`: apt-get install proj-bin): writes
 * layers/elevation/geo/datum-shifts.json, the datum shift to WGS 84 of every EPSG coordinate reference system
 * whose datum is not WGS 84's or one within a metre or two of it (GRS80-based: ETRS89, NAD83, GDA…).
 *
 * Why: the CRS definitions the reader builds from EPSG codes (geotiff-geokeys-to-proj4's table) name the
 * ellipsoid but no shift, and proj4 then takes latitude and longitude on DHDN, OSGB36 or CH1903 for WGS 84's:
 * a raster in EPSG:27700, 31467, 2056 or 28992 was read ~100 m from the point asked for. PROJ (what GDAL and
 * OpenTopoData use) picks, point by point, the best transformation whose area holds the point; without grids
 * that is a Helmert transformation. This script asks PROJ for the candidates over each CRS's area of use
 * (`projinfo --spatial-test intersects --grid-check discard_missing`, best first) and keeps the first that is one
 * Helmert step, with its accuracy, as proj4's `+towgs84` (position-vector convention). A CRS whose best
 * candidate needs a grid, chains datums or has no Helmert at all gets no entry: the reader refuses it. Then every
 * code the reader would accept is placed by it and by PROJ (GDAL's osr: scripts/geo/proj_positions.py, needs
 * python3-gdal) at the centre of its area of use; one placed apart is listed as mismatched, and refused.
 */
import { execFileSync } from 'node:child_process';
import { existsSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import proj4 from 'proj4';
import { epsgDefinition, onWgs84Ellipsoid, type DatumTable } from '../../layers/elevation/geo/crs';
// The table the reader's definitions come from (crsFromEpsg): one entry per CRS code it can build. The package
// exports no subpaths, so the file is read from its folder.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const CRS_TABLE = require(
  path.resolve(__dirname, '../../node_modules/geotiff-geokeys-to-proj4/EPSG/data/CRS.js'),
) as Record<string, string | { p: string }>;
/** A geographic CRS's entry is `{p: definition, x, y}` (x and y: its unit's factors), a projected one's the string. */
const definitionOf = (code: string) => {
  const entry = CRS_TABLE[code];
  return typeof entry === 'string' ? entry : entry.p;
};

const OUT = path.resolve(__dirname, '../../layers/elevation/geo/datum-shifts.json');

interface Shift {
  towgs84: string;
  /** Metres, as EPSG gives it for the transformation. */
  accuracy: number;
  name: string;
}

function helmertOf(block: string): Shift | null {
  // "<id>, <name>, <accuracy> m, <area>": the id is "unknown id", "EPSG:1777" or "DERIVED_FROM(EPSG):15949".
  const summary = /^[^,\n]+, (.+?), (\d+(?:\.\d+)?) m, /m.exec(block);
  const pipeline = block.slice(block.indexOf('PROJ string:')).replace(/\s+/g, ' ');
  if (!summary || !pipeline.includes('+proj=pipeline')) return null;
  const steps = pipeline.split('+step').slice(1);
  const helmerts = steps.filter((s) => /\+proj=helmert\b/.test(s));
  const shifting = steps.filter((s) =>
    /\+proj=(hgridshift|vgridshift|xyzgridshift|deformation|molodensky)\b/.test(s),
  );
  if (helmerts.length !== 1 || shifting.length > 0) return null;
  const helmert = helmerts[0];
  if (/\+(t_epoch|dx|drx|ds)=/.test(helmert)) return null; // time-dependent: not a towgs84
  const carts = steps.filter((s) => /\+proj=cart\b/.test(s));
  if (carts.length !== 2 || !/\+inv \+proj=cart \+ellps=WGS84/.test(carts[1])) return null;
  const value = (name: string) => Number(new RegExp(`\\+${name}=(-?[\\d.]+)`).exec(helmert)?.[1] ?? 0);
  const frame = /\+convention=coordinate_frame/.test(helmert) ? -1 : 1;
  const translation = [value('x'), value('y'), value('z')];
  const rotation = [value('rx'), value('ry'), value('rz')].map((r) => r * frame);
  const scale = value('s');
  const all =
    rotation.every((r) => r === 0) && scale === 0 ? translation : [...translation, ...rotation, scale];
  return {
    towgs84: all.map((v) => String(Number(v.toFixed(6)))).join(','),
    accuracy: Number(summary[2]),
    name: summary[1],
  };
}

function bestShift(code: string): Shift | null {
  let output: string;
  try {
    output = execFileSync(
      'projinfo',
      [
        '-s',
        `EPSG:${code}`,
        '-t',
        'EPSG:4326',
        '--spatial-test',
        'intersects',
        '--grid-check',
        'discard_missing',
        '-o',
        'PROJ',
      ],
      { encoding: 'utf8', stdio: ['ignore', 'pipe', 'ignore'] },
    );
  } catch {
    return null;
  }
  const blocks = output.split(/^Operation No\. \d+:$/m).slice(1);
  // Best first, as PROJ sorts them; the first Helmert is what PROJ uses where no better (grid) one applies.
  for (const block of blocks) {
    const shift = helmertOf(block);
    if (shift) return shift;
  }
  return null;
}

/** How far apart two positions in a CRS's own units are, in metres (degrees at the latitude for a geographic one). */
export function metresApart(
  definition: string,
  isGeographic: boolean,
  lat: number,
  dx: number,
  dy: number,
): number {
  if (isGeographic) return Math.hypot(dx * 111_320 * Math.cos((lat * Math.PI) / 180), dy * 110_574);
  const unit = /\+units=(\S+)/.exec(definition)?.[1];
  const toMeter = Number(/\+to_meter=([\d.]+)/.exec(definition)?.[1] ?? NaN);
  const factor =
    unit === 'us-ft' ? 1200 / 3937 : unit === 'ft' ? 0.3048 : Number.isFinite(toMeter) ? toMeter : 1;
  return Math.hypot(dx, dy) * factor;
}

export interface ProjPosition {
  code: number;
  lat: number;
  lon: number;
  x: number;
  y: number;
}

/**
 * PROJ's position (through GDAL's osr) of the centre of each code's area of use, all in one process
 * (scripts/geo/proj_positions.py); codes PROJ does not know, or without an area, are absent.
 */
export function projPositions(codes: (string | number)[]): Map<number, ProjPosition> {
  const python = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3'; // Debian's has python3-gdal
  const out = execFileSync(python, [path.join(__dirname, 'proj_positions.py')], {
    input: `${codes.join('\n')}\n`,
    encoding: 'utf8',
    maxBuffer: 64 * 1024 * 1024,
  });
  const positions = new Map<number, ProjPosition>();
  for (const line of out.trim().split('\n')) {
    const p = JSON.parse(line) as Partial<ProjPosition> & { code: number };
    if (Number.isFinite(p.x) && Number.isFinite(p.y)) positions.set(p.code, p as ProjPosition);
  }
  return positions;
}

/** Metres between where a definition and PROJ put a point (Infinity where proj4 cannot place it). */
function offFromProj(definition: { proj4: string; isGeographic: boolean }, at: ProjPosition): number {
  try {
    const [x, y] = proj4('WGS84', definition.proj4).forward([at.lon, at.lat]);
    const off = metresApart(definition.proj4, definition.isGeographic, at.lat, x - at.x, y - at.y);
    return Number.isFinite(off) ? off : Infinity;
  } catch {
    return Infinity;
  }
}

/**
 * PROJ's PROJ.4 form of a CRS, with the Helmert shift the reader uses (never a grid, which proj4 has not):
 * null when PROJ names a datum by a grid or gives none.
 */
function projDefinition(code: string, shift: [string, number] | undefined): string | null {
  let text: string;
  try {
    text = execFileSync('projinfo', ['-o', 'PROJ', '-q', `EPSG:${code}`], {
      encoding: 'utf8',
      stdio: ['ignore', 'pipe', 'ignore'],
    });
  } catch {
    return null;
  }
  const definition = text
    .trim()
    .split('\n')[0]
    .replace(/\s*\+(type=crs|axis=\w+|towgs84=\S+)/g, '')
    .trim();
  if (/\+nadgrids=(?!@null)|\+datum=(?!WGS84)/.test(definition)) return null;
  if (shift) return `${definition} +towgs84=${shift[0]}`;
  return onWgs84Ellipsoid(definition) || /\+ellps=(GRS80|WGS84)\b/.test(definition) ? definition : null;
}

function main(): void {
  const codes = Object.keys(CRS_TABLE);
  const shifts: DatumTable['shifts'] = {};
  let none = 0;
  let zero = 0;
  codes.forEach((code, i) => {
    const shift = bestShift(code);
    // A zero shift on WGS 84's or GRS80's ellipsoid (ETRS89, NAD83 …) is what the reader does without an entry.
    if (shift && /^0(,0)*$/.test(shift.towgs84) && onWgs84Ellipsoid(definitionOf(code))) zero++;
    else if (shift) shifts[code] = [shift.towgs84, shift.accuracy];
    else none++;
    if ((i + 1) % 500 === 0) console.log(`${i + 1} / ${codes.length}`);
  });
  // Each code the reader would accept is checked against PROJ at the centre of its area of use: a definition
  // of the table that PROJ does not share (a false easting, a unit, an axis direction) or a shift PROJ does not
  // pick there is refused, with how far off it was.
  const table: DatumTable = { shifts, overrides: {}, mismatched: {} };
  const positions = projPositions(codes);
  let checked = 0;
  for (const code of codes) {
    if (code === '4326' || code === '4979') continue;
    let definition: { proj4: string; isGeographic: boolean };
    try {
      definition = epsgDefinition(Number(code), table);
    } catch {
      continue; // refused already
    }
    const at = positions.get(Number(code));
    // A code this PROJ does not know (newer than its database), or without an area of use: not checked, refused.
    if (!at) {
      table.mismatched[code] = -1;
      continue;
    }
    checked++;
    const tolerance = shifts[code] ? 2 * shifts[code][1] + 1 : 3;
    if (offFromProj(definition, at) <= tolerance) continue;
    // The definition table's may be wrong where PROJ's is right: PROJ's own, with the same shift, if it agrees.
    const own = projDefinition(code, shifts[code]);
    if (own && offFromProj({ proj4: own, isGeographic: /^\+proj=longlat\b/.test(own) }, at) <= tolerance) {
      table.overrides[code] = own;
    } else {
      const off = offFromProj(definition, at);
      table.mismatched[code] = Number.isFinite(off) ? Math.round(off) : -1;
    }
  }
  writeFileSync(OUT, `${JSON.stringify(table)}\n`);
  // `proj` without arguments prints its release ("Rel. 9.1.1, December 1st, 2022") on stderr.
  const version = execFileSync('sh', ['-c', 'proj 2>&1 | head -1'], { encoding: 'utf8' }).trim();
  console.log(
    `${Object.keys(shifts).length} CRS codes with a Helmert shift, ${zero} with a zero one, ${none} without one, of ${codes.length}; ` +
      `${checked} checked against PROJ: ${Object.keys(table.overrides).length} given PROJ's definition, ${Object.keys(table.mismatched).length} refused; ${version}; wrote ${OUT}`,
  );
}

if (require.main === module) main();
