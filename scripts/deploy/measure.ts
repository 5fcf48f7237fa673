/**
 * Billed-duration figures behind the README's cost table and docs/deployment-shape.md: each packaged function
 * under the Lambda Runtime Interface Emulator (Node 24, aws-lambda-ric), its init time and the Duration of its
 * REPORT lines for typical requests over the bundled sample (the dem layer as /opt).
 * Run: npm run package && npm run deploy:install && npx tsx scripts/deploy/measure.ts
 * Figures from a shared 2-core machine: a Lambda at 1769 MB (one full vCPU) is of the same order.
 */
import fs from 'node:fs';
import path from 'node:path';
import { httpEvent } from '../../test/integration/support/api-gateway';
import { makeWorkDir, PackagedFunction, unzipLayer } from '../../test/deploy/support/lambda';
import { PACKAGE_DIR } from '../../test/deploy/support/tools';

const ROUNDS = 200;

function reportDurations(log: string): number[] {
  return [
    ...log.matchAll(/REPORT RequestId: \S+\s+(?:Init Duration: [\d.]+ ms\s+)?Duration: ([\d.]+) ms/g),
  ].map((m) => Number(m[1]));
}
const initMs = (log: string) => Number(/INIT REPORT\(durationMs: ([\d.]+)\)/.exec(log)?.[1] ?? NaN);
const median = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length / 2)];
const p99 = (xs: number[]) => [...xs].sort((a, b) => a - b)[Math.floor(xs.length * 0.99)];

function randomPoints(n: number): string {
  // Inside the sample (SRTM3 around Stuttgart, 9.0-9.3 E, 48.6-48.9 N).
  return Array.from(
    { length: n },
    () => `${(48.61 + Math.random() * 0.28).toFixed(5)},${(9.01 + Math.random() * 0.28).toFixed(5)}`,
  ).join('|');
}

async function main(): Promise<void> {
  const workDir = makeWorkDir('deploy-measure-');
  const opt = unzipLayer(workDir);
  const env = { CONFIG_PATH: path.join(opt, 'config.yaml') };
  const rows: string[] = [];
  for (const name of ['health', 'datasets', 'elevation', 'legacy']) {
    const zip = fs.statSync(path.join(PACKAGE_DIR, `${name}.zip`)).size;
    const fn = new PackagedFunction(name, `functions/${name}.handler`, env);
    await fn.start(path.join(workDir, name));
    const cases: [string, () => ReturnType<typeof httpEvent>][] =
      name === 'elevation'
        ? [
            [
              '1 point',
              () =>
                httpEvent({
                  path: '/v1/sample',
                  pathParameters: { dataset: 'sample' },
                  query: { locations: randomPoints(1) },
                }),
            ],
            [
              '100 points',
              () =>
                httpEvent({
                  path: '/v1/sample',
                  pathParameters: { dataset: 'sample' },
                  query: { locations: randomPoints(100) },
                }),
            ],
          ]
        : name === 'legacy'
          ? [
              [
                '1 point',
                () =>
                  httpEvent({
                    path: '/api/elevation',
                    query: { coordinates: randomPoints(1).replace('|', ';') },
                  }),
              ],
            ]
          : [['GET', () => httpEvent({ path: name === 'health' ? '/health' : '/v1/datasets' })]];
    const first = await fn.invoke(cases[0][1]());
    if (first.statusCode !== 200) throw new Error(`${name}: ${first.statusCode} ${first.body}`);
    const firstMs = reportDurations(fn.log)[0];
    for (const [label, event] of cases) {
      const before = reportDurations(fn.log).length;
      for (let i = 0; i < ROUNDS; i++) await fn.invoke(event());
      const ms = reportDurations(fn.log).slice(before);
      rows.push(
        `| ${name} | ${(zip / 1024).toFixed(0)} KiB | ${initMs(fn.log).toFixed(0)} | ${firstMs.toFixed(1)} | ${label} | ${median(ms).toFixed(2)} | ${p99(ms).toFixed(2)} |`,
      );
    }
    await fn.stop();
  }
  fs.rmSync(workDir, { recursive: true, force: true });
  console.log('| function | zip | init ms | first invoke ms | request | warm median ms | warm p99 ms |');
  console.log('| --- | --- | --- | --- | --- | --- | --- |');
  for (const row of rows) console.log(row);
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
