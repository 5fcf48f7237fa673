/**
 * Telemetry's ports (layers/telemetry/ports.ts) and the library's types describe the same counters and spans:
 * a counter one side has and the other lacks would be reported as 0 forever, or never reported.
 * functions/route.ts checks one direction at compile time; this checks both.
 */
import {
  DATA_ANSWERS,
  newReadStats,
  noTracing,
  type ReadStats,
  type TraceHooks,
} from '../../../layers/elevation';
import {
  newRequestCounters,
  noSpans,
  type RequestCounters,
  type SpanHooks,
} from '../../../layers/telemetry/ports';

it('request counters have exactly the fields of the library read stats, all starting at zero', () => {
  expect(Object.keys(newRequestCounters()).sort()).toEqual(Object.keys(newReadStats()).sort());
  expect(newRequestCounters()).toEqual(newReadStats());
});

it('each side accepts the other: counters, spans', async () => {
  const stats: ReadStats = newRequestCounters();
  const counters: RequestCounters = newReadStats();
  const hooks: TraceHooks = noSpans;
  const spans: SpanHooks = noTracing;
  stats.dataAnswers[DATA_ANSWERS[0]] = 1;
  expect(counters.dataAnswers).toEqual({});
  await expect(hooks.span('x', async () => 1)).resolves.toBe(1);
  await expect(spans.span('y', async (annotate) => (annotate('k', 2), 2))).resolves.toBe(2);
});
