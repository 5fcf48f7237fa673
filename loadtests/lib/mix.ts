/**
 * The everyday request mix for baseline, stress, spike and soak: mostly single points and small
 * batches, both API formats. One request per iteration, so iterations/s = requests/s.
 */
import { checkElevations } from './checks.ts';
import { randomLocations, type SetupData } from './points.ts';
import { elevationRequest, send, type ElevationRequest } from './requests.ts';

const MIX: { weight: number; build: (data: SetupData) => ElevationRequest }[] = [
  { weight: 40, build: (d) => elevationRequest('opentopo', 'GET', randomLocations(d.bounds, 1)) },
  { weight: 20, build: (d) => elevationRequest('opentopo', 'GET', randomLocations(d.bounds, 5)) },
  { weight: 20, build: (d) => elevationRequest('opentopo', 'POST', randomLocations(d.bounds, 10)) },
  { weight: 10, build: (d) => elevationRequest('legacy', 'GET', randomLocations(d.bounds, 2)) },
  { weight: 10, build: (d) => elevationRequest('legacy', 'POST', randomLocations(d.bounds, 10)) },
];
const TOTAL = MIX.reduce((n, m) => n + m.weight, 0);

export function pickMixed(data: SetupData): ElevationRequest {
  let r = Math.random() * TOTAL;
  for (const m of MIX) {
    r -= m.weight;
    if (r < 0) return m.build(data);
  }
  return MIX[0].build(data);
}

/** One iteration: a request from the mix, checked, elevations counted. */
export async function mixedIteration(data: SetupData): Promise<void> {
  const req = pickMixed(data);
  checkElevations(req, await send(req, data.dataset));
}
