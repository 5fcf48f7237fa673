/**
 * Where the reader puts a WGS 84 point in a raster's CRS agrees with PROJ (GDAL's osr, as GDAL and
 * OpenTopoData place it) at the centre of each CRS's area of use: popular national grids, and every 10th EPSG
 * code the reader accepts, within twice the accuracy EPSG states for the datum shift plus a metre (PROJ may use a
 * grid where the reader uses the Helmert transformation; where it uses the same, they agree to the millimetre), 3 m
 * without one. Before datum-shifts.json (written from PROJ's database by scripts/geo/datum-shifts.ts), proj4 read
 * DHDN, OSGB36 or CH1903 latitudes as WGS 84's (80-320 m off), and EPSG:3031 without its latitude of origin. Needs proj-bin
 * python3-gdal (GDAL's osr, through scripts/geo/proj_positions.py); without it the suite skips, and fails under CI=true.
 */
import DATUM_SHIFTS from '../../layers/elevation/geo/datum-shifts.json';
import { crsFromEpsg, wgs84Converter, type DatumTable } from '../../layers/elevation/geo/crs';
// The definition table the reader starts from (geotiff-geokeys-to-proj4), which exports no subpaths.
// eslint-disable-next-line @typescript-eslint/no-require-imports
const DEFINITION_TABLE = require('../../node_modules/geotiff-geokeys-to-proj4/EPSG/data/CRS.js') as Record<
  string,
  unknown
>;
import { metresApart, projPositions, type ProjPosition } from '../../scripts/geo/datum-shifts';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';

const TABLE = DATUM_SHIFTS as unknown as DatumTable;
/** Popular national grids (UK, Germany, Switzerland, the Netherlands, Austria, Greece, Israel, Ireland, Belgium). */
const NAMED = [
  27700, 31466, 31467, 31468, 31469, 2056, 21781, 28992, 31287, 2100, 2039, 29902, 31370, 4314, 3031,
];
/** On WGS 84's or GRS80's ellipsoid without a shift: ETRS89, NAD83, GDA, SIRGAS, Pseudo-Mercator, UTM. */
const ON_WGS84 = [25832, 3035, 2154, 3006, 26917, 3857, 32633, 2193, 3067, 2180, 3413];
/** Every 10th code of the definition table that the reader accepts. */
const accepted = (code: number) => {
  try {
    crsFromEpsg(code);
    return true;
  } catch {
    return false;
  }
};
const sampled = Object.keys(TABLE.shifts)
  .concat(Object.keys(DEFINITION_TABLE))
  .map(Number)
  .filter((code, i) => i % 10 === 0 && accepted(code));

const CODES = [...new Set([...NAMED, ...ON_WGS84, ...sampled])];

describeIfAvailable(
  'CRS positions match PROJ',
  [
    {
      what: 'GDAL with its Python bindings (gdal-bin, python3-gdal)',
      available: hasCommand('gdallocationinfo'),
    },
  ],
  () => {
    let positions: Map<number, ProjPosition>;
    beforeAll(() => {
      positions = projPositions(CODES);
    });

    it.each(CODES)('EPSG:%i', (code) => {
      const at = positions.get(code);
      expect(at).toBeDefined();
      const { lat, lon } = at!;
      const crs = crsFromEpsg(code);
      const [x, y] = wgs84Converter(crs).forward(lon, lat);
      const metres = metresApart(crs.proj4, crs.isGeographic, lat, x - at!.x, y - at!.y);
      const accuracy = TABLE.shifts[code]?.[1];
      const tolerance = accuracy === undefined ? 3 : 2 * accuracy + 1;
      expect({ code, off: Number(metres.toFixed(3)), ok: metres <= tolerance }).toEqual({
        code,
        off: expect.any(Number),
        ok: true,
      });
    });

    it('refuses the codes PROJ could not check, and the named grids are all accepted', () => {
      expect(NAMED.filter((code) => !accepted(code))).toEqual([]);
      const unchecked = Object.entries(TABLE.mismatched).filter(([, off]) => off !== undefined && off < 0);
      expect(unchecked.length).toBeGreaterThan(0);
      for (const [code] of unchecked.slice(0, 20)) expect(accepted(Number(code))).toBe(false);
    });
  },
);
