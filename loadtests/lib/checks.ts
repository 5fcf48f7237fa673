/**
 * Response checks for both formats (status 200, one result per location sent, every elevation a
 * number or null, and a height for nearly every location: the points lie inside the dataset, where it
 * has data but for its voids) and the `elevations` counter of real heights, from which every run reports elevations per
 * minute. A run that answered only nulls therefore fails its checks SLO and counts no elevations.
 */
import { check } from 'k6';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import type { ElevationRequest } from './requests.ts';

/** Heights returned (non-null elevations in 200 answers): the original system's headline metric. */
export const elevations = new Counter('elevations');

type Json = Record<string, unknown>;

function resultsOf(req: ElevationRequest, res: RefinedResponse<ResponseType>): unknown[] | undefined {
  try {
    const body = JSON.parse(res.body as string) as unknown;
    if (req.format === 'legacy') return Array.isArray(body) ? body : undefined;
    const results = (body as Json).results;
    return Array.isArray(results) ? results : undefined;
  } catch {
    return undefined;
  }
}

function elevationOf(req: ElevationRequest, result: unknown): unknown {
  const r = result as Json;
  return req.format === 'legacy' ? r.altitude : r.elevation;
}

/** Nulls a request of `count` random points may answer and still pass: 0 for one point, else max(1, 5 %). */
export function voidsAllowed(count: number): number {
  return count <= 1 ? 0 : Math.max(1, Math.floor(count * 0.05));
}

export function checkElevations(req: ElevationRequest, res: RefinedResponse<ResponseType>): boolean {
  const results = res.status === 200 ? resultsOf(req, res) : undefined;
  const ok = check(res, {
    'status is 200': (r) => r.status === 200,
    'one result per location': () => results !== undefined && results.length === req.locations.length,
    'elevations are numbers or null': () =>
      results !== undefined &&
      results.every((x) => {
        const e = elevationOf(req, x);
        return e === null || (typeof e === 'number' && Number.isFinite(e));
      }),
    // Real DEMs have voids (the bundled SRTM crop 14 of its 130,321 pixels): a random point may fall in one
    // and rightly answer null. A request of several points may have one null (or 5 %); a single point none.
    'a height where the dataset has data': () =>
      results !== undefined &&
      results.length > 0 &&
      results.filter((x) => typeof elevationOf(req, x) !== 'number').length <= voidsAllowed(results.length),
  });
  const heights = results?.filter((x) => typeof elevationOf(req, x) === 'number').length ?? 0;
  if (heights > 0) elevations.add(heights);
  return ok;
}
