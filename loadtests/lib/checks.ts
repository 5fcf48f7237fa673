/**
 * Response checks for both formats (status 200, one result per location sent, every elevation a
 * number or null) and the `elevations` counter, from which every run reports elevations per minute.
 */
import { check } from 'k6';
import type { RefinedResponse, ResponseType } from 'k6/http';
import { Counter } from 'k6/metrics';
import type { ElevationRequest } from './requests.ts';

/** Elevations returned (one per location in a 200 answer): the original system's headline metric. */
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
  });
  if (results) elevations.add(results.length);
  return ok;
}
