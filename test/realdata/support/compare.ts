/** Compares a dataset's answers with GDAL's, collecting every disagreeing point for a readable failure. */
import type { Dataset, Interpolation } from '../../../layers/elevation';
import type { ReferencePoint } from './gdal-reference';

/** Nearest values are stored pixels: only float printing noise is allowed. */
export const NEAREST_TOLERANCE_M = 1e-6;
/** Bilinear/cubic: the 1e-3 m (GDAL itself resamples through Float32, about 3e-5 m off). */
export const INTERPOLATED_TOLERANCE_M = 1e-3;

export interface Mismatch {
  lat: number;
  lon: number;
  kind: string;
  expected: number | null;
  got: number | null | string;
}

/** Points whose reference exists for the method: nearest always; bilinear/cubic where GDAL gave a value. */
export function assertablePoints(points: ReferencePoint[], method: Interpolation): ReferencePoint[] {
  return method === 'nearest' ? points : points.filter((p) => p[method] !== undefined);
}

/** The reference value a method is compared with (GDAL's nearest/bilinear/cubic by default). */
export type ExpectedOf = (p: ReferencePoint) => number | null;
const gdalValue =
  (method: Interpolation): ExpectedOf =>
  (p) =>
    method === 'nearest' ? p.nearest : (p[method] ?? null);

export async function mismatches(
  dataset: Dataset,
  points: ReferencePoint[],
  method: Interpolation,
  expectedOf: ExpectedOf = gdalValue(method),
): Promise<Mismatch[]> {
  const tolerance = method === 'nearest' ? NEAREST_TOLERANCE_M : INTERPOLATED_TOLERANCE_M;
  const got = await dataset.sample(
    points.map((p) => ({ lat: p.lat, lon: p.lon })),
    method,
  );
  const out: Mismatch[] = [];
  points.forEach((p, i) => {
    const expected = expectedOf(p);
    const value = got[i];
    const same =
      expected === null || (p.nullAllowed === true && value === null)
        ? value === null
        : typeof value === 'number' && Math.abs(value - expected) <= tolerance;
    if (!same) out.push({ lat: p.lat, lon: p.lon, kind: p.kind, expected, got: value ?? null });
  });
  return out;
}
