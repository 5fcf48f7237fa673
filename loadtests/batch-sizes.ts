/**
 * The original system's scenarios as one parameterised file: GET with 1, 2 and 5 coordinates; POST
 * with 5, 10, 25, 50 and 100; POST with a random 10–100 per request. Scenarios run one after another
 * at the same arrival rate, each in both API formats (OpenTopoData `/v1/{dataset}` and the original
 * `/api/elevation`, alternating per iteration) unless FORMAT=opentopo|legacy.
 * Full: 10 req/s for 1m per scenario. Smoke: 3 req/s for 1.5s per scenario.
 * Env: RATE, DURATION (per scenario), GAP (pause between scenarios), GRACEFUL_STOP, SCENARIOS (comma list, e.g.
 * get_1,post_100: what `load:capacity` uses), FORMAT, SCALE, BASE_URL, DATASET.
 */
import exec from 'k6/execution';
import type { Options, Scenario } from 'k6/options';
import { checkElevations } from './lib/checks.ts';
import { loadDatasetBounds, randomInt, randomLocations, type SetupData } from './lib/points.ts';
import { elevationRequest, send, type ApiFormat, type Method } from './lib/requests.ts';
import { duration, rate, seconds } from './lib/settings.ts';
import { steady } from './lib/shapes.ts';
import { sloThresholds, SUMMARY_TREND_STATS } from './lib/slo.ts';
import { summaryHandler } from './lib/summary.ts';

interface BatchScenario {
  method: Method;
  /** Fixed batch size, or a [min, max] range drawn per request. */
  points: number | [number, number];
}

export const BATCH_SCENARIOS: Record<string, BatchScenario> = {
  get_1: { method: 'GET', points: 1 },
  get_2: { method: 'GET', points: 2 },
  get_5: { method: 'GET', points: 5 },
  post_5: { method: 'POST', points: 5 },
  post_10: { method: 'POST', points: 10 },
  post_25: { method: 'POST', points: 25 },
  post_50: { method: 'POST', points: 50 },
  post_100: { method: 'POST', points: 100 },
  post_random: { method: 'POST', points: [10, 100] },
};

const selected = (__ENV.SCENARIOS ?? Object.keys(BATCH_SCENARIOS).join(','))
  .split(',')
  .map((s) => s.trim())
  .filter(Boolean);
for (const name of selected) {
  if (!BATCH_SCENARIOS[name])
    throw new Error(`unknown scenario "${name}" in SCENARIOS (${Object.keys(BATCH_SCENARIOS).join(', ')})`);
}
const formats: ApiFormat[] =
  __ENV.FORMAT === 'opentopo' || __ENV.FORMAT === 'legacy' ? [__ENV.FORMAT] : ['opentopo', 'legacy'];
if (![undefined, '', 'opentopo', 'legacy', 'both'].includes(__ENV.FORMAT))
  throw new Error(`FORMAT must be opentopo, legacy or both (the default), got "${__ENV.FORMAT}"`);

const each = duration('DURATION', '1m', '1.5s');
const gap = duration('GAP', '10s', '0.5s');
const perSecond = rate('RATE', 10, 3);

const scenarios: Record<string, Scenario> = {};
selected.forEach((name, i) => {
  scenarios[name] = {
    ...steady(perSecond, each, `${i * (seconds(each) + seconds(gap))}s`),
    // Slow answers still count (a scenario's tail may overlap the next one's start).
    gracefulStop: duration('GRACEFUL_STOP', '10s', '5s'),
  };
});
const thresholds = sloThresholds(selected);

export const options: Options = {
  summaryTrendStats: SUMMARY_TREND_STATS,
  scenarios,
  thresholds,
};

export function setup(): Promise<SetupData> {
  return loadDatasetBounds();
}

export default async function (data: SetupData): Promise<void> {
  const name = exec.scenario.name;
  const spec = BATCH_SCENARIOS[name];
  const count = typeof spec.points === 'number' ? spec.points : randomInt(spec.points[0], spec.points[1]);
  const format = formats[exec.scenario.iterationInTest % formats.length];
  const label = typeof spec.points === 'number' ? String(count) : 'random';
  const req = elevationRequest(format, spec.method, randomLocations(data.bounds, count), label);
  checkElevations(req, await send(req, data.dataset));
}

/** Writes the JSON summary `npm run report` reads (lib/summary.ts), under k6 as under the runner. */
export const handleSummary = summaryHandler('batch-sizes');
