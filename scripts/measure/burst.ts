/**
 * `npm run measure:burst`: what a burst of simultaneous cold requests costs the local API (`npm start`'s
 * gateway + serverless-offline): answer times, statuses and the API's resident memory before, at peak, and
 * 75 s later (serverless-offline ends workers idle for 60 s). Traffic goes to 127.0.0.1 only and is bounded.
 * Settings: BURST (200), LOCAL_CONCURRENCY (passed to the gateway), PORT (3300).
 */
import { execFileSync, spawn } from 'node:child_process';
import path from 'node:path';
import { localConcurrency } from '../start/local-api';

const REPO = path.resolve(__dirname, '../..');
const BURST = Number(process.env.BURST ?? 200);
const PORT = Number(process.env.PORT ?? 3300);
const AFTER_MS = 75_000;

async function main(): Promise<void> {
  const api = spawn(process.execPath, ['--import', 'tsx', path.join(REPO, 'scripts/start.ts')], {
    env: { ...process.env, PORT: String(PORT), DATA_PORT: '0', POWERTOOLS_LOG_LEVEL: 'ERROR' },
    stdio: ['ignore', 'pipe', 'ignore'],
    detached: true,
  });
  await new Promise<void>((resolve) => {
    api.stdout.on('data', (chunk: Buffer) => String(chunk).includes('Elevation API ready') && resolve());
  });
  const base = `http://127.0.0.1:${PORT}`;
  const group = api.pid as number;
  const before = rssMb(group);
  let peak = before;
  const sampler = setInterval(() => (peak = Math.max(peak, rssMb(group))), 100);
  const started = Date.now();
  const answers = await Promise.all(
    Array.from({ length: BURST }, (_, i) =>
      fetch(`${base}/v1/sample?locations=${48.7 + (i % 50) * 0.001},9.1`, {
        signal: AbortSignal.timeout(60_000),
      })
        .then(async (r) => ({ status: r.status, ms: Date.now() - started, text: await r.text() }))
        .catch(() => ({ status: 0, ms: Date.now() - started, text: '' })),
    ),
  );
  clearInterval(sampler);
  const times = answers.map((a) => a.ms).sort((a, b) => a - b);
  const statuses = answers.reduce<Record<number, number>>(
    (acc, a) => ({ ...acc, [a.status]: (acc[a.status] ?? 0) + 1 }),
    {},
  );
  await new Promise((resolve) => setTimeout(resolve, AFTER_MS));
  const after = rssMb(group);
  console.log(
    JSON.stringify({
      burst: BURST,
      localConcurrency: localConcurrency(),
      statuses,
      p50Ms: times[Math.floor(times.length / 2)],
      p99Ms: times[Math.ceil(0.99 * times.length) - 1],
      maxMs: times[times.length - 1],
      rssMb: { before, peak, after75s: after },
    }),
  );
  process.kill(-group, 'SIGTERM');
  process.exit(0);
}

/** Resident memory of `npm start` and all its descendants (gateway, data layer, serverless-offline, esbuild), MB. */
function rssMb(root: number): number {
  try {
    const rows = execFileSync('ps', ['-e', '-o', 'pid=,ppid=,rss='], { encoding: 'utf8' })
      .trim()
      .split('\n')
      .map((line) => line.trim().split(/\s+/).map(Number));
    const tree = new Set([root]);
    for (let grew = true; grew;) {
      grew = false;
      for (const [pid, ppid] of rows) if (tree.has(ppid) && !tree.has(pid)) grew = tree.add(pid).size > 0;
    }
    return Math.round(rows.filter(([pid]) => tree.has(pid)).reduce((sum, [, , rss]) => sum + rss, 0) / 1024);
  } catch {
    return 0;
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
