/**
 * One GET over 64 blocks of a raster written to the folder given as argv[2], through the elevation handler in
 * this process, with MAX_CONCURRENT_READS=4 (60 reads wait in the queue at once). Prints the status; Node's own
 * warnings go to stderr. Run in a child process by test/integration/request-signal.test.ts: Jest's sandbox does
 * not see the warnings Node emits on the real process.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Context } from 'aws-lambda';
import { double, short, WGS84_KEYS, writeTiff } from '../../support/tiff-writer';
import { httpEvent } from './api-gateway';

const TILE = 64;
const ACROSS = 8;
const RES = 0.001;

async function main(dir: string): Promise<void> {
  // 8 x 8 tiles of 64 px, 8 KiB each (past the header prefetch): tile i holds the value i.
  const tiles = Array.from({ length: ACROSS ** 2 }, (_, i) => {
    return new Uint8Array(new Uint16Array(TILE * TILE).fill(i).buffer);
  });
  const tags = {
    258: short(16),
    34735: WGS84_KEYS,
    33550: double(RES, RES, 0),
    33922: double(0, 0, 0, 8, 50, 0),
  };
  const size = TILE * ACROSS;
  fs.writeFileSync(
    path.join(dir, 'blocks.tif'),
    writeTiff({ width: size, height: size, tile: TILE, tiles, tags }),
  );
  fs.writeFileSync(path.join(dir, 'config.yaml'), 'datasets:\n  - name: blocks\n    path: blocks.tif\n');
  process.env.CONFIG_PATH = path.join(dir, 'config.yaml');
  process.env.MAX_CONCURRENT_READS = '4';
  const { handler } = await import('../../../functions/elevation');
  const centres = Array.from({ length: ACROSS ** 2 }, (_, i) => {
    const [row, col] = [Math.floor(i / ACROSS), i % ACROSS];
    return `${50 - (row * TILE + 2) * RES},${8 + (col * TILE + 2) * RES}`;
  });
  const event = httpEvent({
    path: '/v1/blocks',
    pathParameters: { dataset: 'blocks' },
    query: { locations: centres.join('|') },
  });
  const context = { getRemainingTimeInMillis: () => 28_000, functionName: 'elevation', awsRequestId: 'one' };
  const response = (await handler(event, context as unknown as Context)) as {
    statusCode: number;
    body: string;
  };
  const heights = (JSON.parse(response.body) as { results: { elevation: number }[] }).results.map(
    (r) => r.elevation,
  );
  process.stdout.write(`${JSON.stringify({ status: response.statusCode, heights })}\n`);
}

void main(process.argv[2]);
