/**
 * Vertical datums: the reference a height is measured from. DEMs give heights above a geoid (SRTM: EGM96,
 * Copernicus: EGM2008); GNSS receivers and phones record heights above the WGS84 ellipsoid. Converting goes
 * through the ellipsoid: h = H + N(source geoid), H' = h - N(target geoid), N read from the geoid grids.
 */
import { InvalidRequestError } from '../errors';

export type VerticalDatum = 'egm96' | 'egm2008' | 'ellipsoid';
export type Geoid = Exclude<VerticalDatum, 'ellipsoid'>;
export const VERTICAL_DATUMS: readonly VerticalDatum[] = ['egm96', 'egm2008', 'ellipsoid'];

const ALIASES: Readonly<Record<string, VerticalDatum>> = {
  egm96: 'egm96',
  egm2008: 'egm2008',
  egm08: 'egm2008',
  ellipsoid: 'ellipsoid',
  wgs84: 'ellipsoid',
};

/** The names a 400 offers, each datum with its aliases: "egm96, egm2008 (or egm08), ellipsoid (or wgs84)". */
const DATUM_NAMES = VERTICAL_DATUMS.map((datum) => {
  const aliases = Object.keys(ALIASES).filter((name) => ALIASES[name] === datum && name !== datum);
  return aliases.length > 0 ? `${datum} (or ${aliases.join(', ')})` : datum;
}).join(', ');

/**
 * A config or request value ("EGM96", "egm2008", "ellipsoid", "WGS84") as a datum, or null.
 *
 * @example
 * ```ts
 * assert.equal(tryParseVerticalDatum('EGM96'), 'egm96');
 * assert.equal(tryParseVerticalDatum('NAVD88'), null);
 * ```
 */
export function tryParseVerticalDatum(raw: unknown): VerticalDatum | null {
  return typeof raw === 'string' ? (ALIASES[raw.trim().toLowerCase()] ?? null) : null;
}

/** The `datum` request option: absent means "as the dataset has it" (null). */
export function parseDatumOption(raw: string | undefined): VerticalDatum | null {
  if (raw === undefined || raw.trim() === '') return null;
  const datum = tryParseVerticalDatum(raw);
  if (datum) return datum;
  throw new InvalidRequestError(`Invalid datum '${raw.slice(0, 64)}': use one of ${DATUM_NAMES}.`);
}

/**
 * The `datum` option as it arrives from a JSON or form body (any JSON value); a 400 for anything but a name.
 *
 * @example
 * ```ts
 * assert.equal(parseDatumParam(undefined), null); // heights as the dataset has them
 * assert.equal(parseDatumParam('ellipsoid'), 'ellipsoid');
 * assert.throws(() => parseDatumParam('wgs99'), InvalidRequestError);
 * ```
 */
export function parseDatumParam(raw: unknown): VerticalDatum | null {
  if (raw === undefined || raw === null) return null;
  if (typeof raw === 'string') return parseDatumOption(raw);
  throw new InvalidRequestError(`Invalid datum: expected one of ${DATUM_NAMES} as a string.`);
}
