/** Child process of record.ts: three invocations through the real telemetry module (200 with block reads, 400, thrown error). */

import { instrumentHandler as instrument } from '../../../../layers/telemetry/index';
const observed = { cache: () => ({ bytes: 0, size: 0 }), answers: ['ok'] };
const instrumentHandler = (route: string, fn: Parameters<typeof instrument>[1]) =>
  instrument(route, fn, observed);
const ok = instrumentHandler('elevation', async (_e, t) => {
  await t.phase('parse', () => t.set({ dataset: 'sample', points: 3, interpolation: 'bilinear' }));
  await t.phase('resolve-tiles', () => undefined);
  await t.trace.span('sample', () =>
    Promise.all(
      [7, 8].map((block) =>
        t.trace.span('read-block', async (annotate) => {
          annotate('dataset', 'sample');
          annotate('file', 'sample/stuttgart.tif');
          annotate('block', block);
          annotate('bytes', 65536);
          annotate('cacheHit', false);
          t.stats.blocksRead++;
          t.stats.blockCacheMisses++;
          t.stats.rangeRequests++;
          t.stats.rangeBytes += 65536;
          t.stats.rangeMs += 2.5;
          t.stats.decodeMs += 1.25;
        }),
      ),
    ),
  );
  return { statusCode: 200, body: '{"status":"OK"}' };
});
const bad = instrumentHandler('elevation', async (_e, t) => {
  t.set({ dataset: 'sample' });
  return { statusCode: 400, body: '{}' };
});
const boom = instrumentHandler('legacy', async () => {
  throw new Error('recorded failure');
});
const ctx = { functionName: 'elevation-api-dev-elevation', awsRequestId: 'aws-req-1' } as never;
const ev = (id: string) =>
  ({ rawPath: '/v1/sample', requestContext: { requestId: id, http: { method: 'POST' } } }) as never;
void (async () => {
  await ok(ev('apigw-1'), ctx);
  await bad(ev('apigw-2'), ctx);
  await boom(ev('apigw-3'), ctx);
})();
