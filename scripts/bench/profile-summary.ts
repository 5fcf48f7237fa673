/**
 * `npm run bench:profile-summary -- DIR|FILE... [--per N unit]`: prints, for each .cpuprofile, its self time by
 * module and by function (scripts/bench/profile/summary.ts), optionally divided by N (requests or points).
 * Profiles come from Node's --cpu-prof, e.g. serverless-offline's process and each of its worker threads (the
 * default OFFLINE_NODE_FLAGS plus the profiler's, since setting the variable replaces the default):
 *   OFFLINE_NODE_FLAGS="--single-threaded-gc --max-semi-space-size=2 --max-old-space-size=1024 \
 *     --cpu-prof --cpu-prof-dir=results/prof" \
 *     BENCH_DATASETS=cop1024 BENCH_WORKLOADS="GET-1 uniform" BENCH_CONNECTIONS=4 npm run bench:scale
 *   npm run bench:profile-summary -- results/prof
 * A profile is written when its thread ends (serverless-offline's workers end with it).
 */
import fs from 'node:fs';
import path from 'node:path';
import { formatSummary, summarizeProfile, type CpuProfile } from './profile/summary';

const REPO_ROOT = path.resolve(__dirname, '..', '..');

function profileFiles(args: string[]): string[] {
  return args.flatMap((arg) =>
    fs.statSync(arg).isDirectory()
      ? fs
          .readdirSync(arg)
          .filter((f) => f.endsWith('.cpuprofile'))
          .sort()
          .map((f) => path.join(arg, f))
      : [arg],
  );
}

function main(): void {
  const args = process.argv.slice(2);
  const perAt = args.indexOf('--per');
  let perUnit: { count: number; unit: string } | undefined;
  if (perAt >= 0) {
    const count = Number(args[perAt + 1]);
    if (!(count > 0)) throw new Error(`--per takes a positive count, got "${args[perAt + 1]}"`);
    perUnit = { count, unit: args[perAt + 2] ?? 'unit' };
    args.splice(perAt, 3);
  }
  if (args.length === 0) throw new Error('usage: bench:profile-summary -- DIR|FILE... [--per N unit]');
  for (const file of profileFiles(args)) {
    const profile = JSON.parse(fs.readFileSync(file, 'utf8')) as CpuProfile;
    console.log(`${formatSummary(path.basename(file), summarizeProfile(profile, REPO_ROOT, 25), perUnit)}\n`);
  }
}

main();
