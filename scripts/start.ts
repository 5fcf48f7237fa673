/**
 * `npm start`: the local stack. Starts the data layer (a range-capable file server over the DEM folder)
 * and serverless-offline with DATA_ROOT pointing at it, so the handlers read tiles through HTTP Range
 * requests as they would from S3. Prints the API URL and a working curl; Ctrl-C stops both.
 *
 * Settings: PORT (API, 3000), DATA_PORT (data layer, 4000; 0 = any free port), DATA_DIR (folder served,
 * layers/dem-sample), CONFIG_PATH (layers/dem-sample/config.yaml), DATA_ROOT (default: the data layer's
 * URL), LAMBDA_PORT (serverless-offline's invoke endpoint; default: any free port), DATA_LOG=1, BLOCK_CACHE_MB (128:
 * the decoded-block cache of one function, split over its LOCAL_CONCURRENCY workers), SHUTDOWN_DRAIN_S (30: how
 * long Ctrl-C or SIGTERM lets requests in progress finish).
 */
import fs from 'node:fs';
import path from 'node:path';
import {
  GeoidGrids,
  loadDatasetRegistry,
  loadSettings,
  readGeoidPaths,
  servabilityChecks,
  unservable,
  type Unservable,
} from '../layers/elevation';
import { sampleRateFromEnv } from '../layers/telemetry/offline-trace';
import { runtimeIntervalMs } from '../layers/telemetry/runtime-health';
import { DEFAULT_DATA_DIR, dataPortFromEnv, startDataServer, type DataServer } from './data-server';
import { pathsOutsideDataDir } from './start/data-paths';
import { freePort, parsePort } from './start/free-port';
import {
  cacheMbPerEnvironment,
  DEFAULT_DRAIN_S,
  drainSeconds,
  localConcurrency,
  startLocalApi,
  type LocalApi,
} from './start/local-api';
import { OfflineLogWriter } from './start/offline-log';

const REPO_ROOT = path.resolve(__dirname, '..');
const DEFAULT_CONFIG_PATH = 'layers/dem-sample/config.yaml';
const DEFAULT_PORT = 3000;
/** Decoded-block cache of one function under npm start, all its workers together (a laptop-sized default). */
const DEFAULT_CACHE_BUDGET_MB = 128;
/**
 * Decoded blocks one request holds beyond the cache, per worker: 16 MiB (four 1024² Float32 blocks) instead of
 * Lambda's 64 kept 4 workers' peak ~400 MB lower (bench:scale POST-100 uniform, 4 connections: 1,331 -> 926 MB
 * RSS) at no measured throughput cost (36 vs 39 points/s): 2 cores cannot decode more blocks at once anyway.
 */
const LOCAL_REQUEST_BLOCK_BUDGET_MB = 16;
const README_POINT = '48.742275,9.101177'; // HdM main entrance, inside the bundled sample

/** What to stop on Ctrl-C, filled in as things start (a signal during startup must not orphan osls). */
const running: {
  api?: LocalApi;
  dataServer?: DataServer;
  /** Set once the API answers: only then does a stop wait for requests in progress (SHUTDOWN_DRAIN_S). */
  ready: boolean;
  drainS: number;
  stopping: boolean;
  /** Requests a stop answered 503 (or cut off mid-answer) instead of letting them finish. */
  cutOff: number;
  /** The bundle folder this instance named itself (ownWorkFolder), removed on stop; unset under ESBUILD_WORK_FOLDER. */
  ownFolder?: string | null;
  /** When the first stop signal came (Date.now()). */
  signalledAt: number;
} = { ready: false, drainS: DEFAULT_DRAIN_S, stopping: false, cutOff: 0, signalledAt: 0 };

/** A stop signal this soon after the first is the same Ctrl-C relayed, not a second one. */
const REPEATED_SIGNAL_MS = 1000;

async function main(): Promise<void> {
  for (const signal of ['SIGINT', 'SIGTERM', 'SIGHUP'] as const) {
    process.on(signal, () => void stopAll(signal, 0));
  }
  const env = process.env;
  running.drainS = drainSeconds(env);
  const dataDir = path.resolve(REPO_ROOT, env.DATA_DIR || DEFAULT_DATA_DIR);
  const configPath = env.CONFIG_PATH || DEFAULT_CONFIG_PATH;
  if (!fs.existsSync(path.resolve(REPO_ROOT, configPath))) {
    throw new Error(`CONFIG_PATH ${configPath} does not exist (paths are relative to ${REPO_ROOT})`);
  }
  // Fail here, with the parser's message, rather than on every request once the API is up.
  const registry = loadDatasetRegistry({ configPath: path.resolve(REPO_ROOT, configPath) });
  const datasetNames = registry.names();
  const outside = env.DATA_ROOT ? [] : pathsOutsideDataDir(path.resolve(REPO_ROOT, configPath), dataDir);
  if (outside.length > 0) {
    throw new Error(
      `${configPath} names paths the data layer cannot serve (it serves DATA_DIR only: set DATA_DIR to a folder ` +
        `holding them, or give absolute paths):\n${outside.map((line) => `  - ${line}`).join('\n')}`,
    );
  }
  if (env.DEFAULT_DATASET && !datasetNames.includes(env.DEFAULT_DATASET)) {
    throw new Error(
      `DEFAULT_DATASET '${env.DEFAULT_DATASET}' is not in ${configPath} (${datasetNames.join(', ')})`,
    );
  }
  // GOOGLE_DATASET (a name or a chain "a,b"): wrong, every Google request was answered the client's 400.
  const google = env.GOOGLE_DATASET?.trim();
  if (google) {
    try {
      registry.resolve(google);
    } catch (error) {
      throw new Error(`GOOGLE_DATASET '${google}': ${describe(error)} (${configPath})`);
    }
  }
  // The telemetry settings each function reads as it loads: wrong, every function failed to load and npm start
  // waited out its start-up among repeated stack traces.
  sampleRateFromEnv(env.XRAY_SAMPLE_RATE);
  runtimeIntervalMs(env.RUNTIME_METRICS_INTERVAL_S);
  const cache = cacheMbPerEnvironment(env, DEFAULT_CACHE_BUDGET_MB);
  // The functions' settings as they will read them, checked now: a bad one (REQUEST_BLOCK_BUDGET_MB=1) made every
  // function fail at its first request, so npm start waited out its 120 s start-up for a /health that never came.
  loadSettings({ ...env, ...functionSettings(env, cache.perEnvironmentMb) });
  const httpPort = parsePort('PORT', env.PORT, DEFAULT_PORT);
  if (httpPort !== 0 && httpPort === dataPortFromEnv(env)) {
    throw new Error(`PORT and DATA_PORT are both ${httpPort}: the API and its data layer need a port each`);
  }
  const lambdaPort = parsePort('LAMBDA_PORT', env.LAMBDA_PORT, 0) || (await freePort());

  const dataServer = await startDataServer({
    root: dataDir,
    port: dataPortFromEnv(env),
    log: env.DATA_LOG === '1' ? (line) => console.log(`[data] ${line}`) : undefined,
  }).catch((error: unknown) => {
    throw new Error(`data layer could not start on DATA_PORT ${env.DATA_PORT ?? 4000}: ${describe(error)}`);
  });
  running.dataServer = dataServer;
  console.log(`data layer listening on ${dataServer.url} (serving ${path.relative(REPO_ROOT, dataDir)})`);

  const dataRoot = env.DATA_ROOT || dataServer.url;
  // Refuse to report ready with a dataset that cannot be served: open each (a header read or a listing) now.
  const broken = await unservableDatasets(path.resolve(REPO_ROOT, configPath), dataRoot);
  if (broken.length > 0) {
    throw new Error(
      `${unservableHeadline(broken)}:\n${broken.map((b) => `  - ${b.name}: ${describe(b.reason)}`).join('\n')}`,
    );
  }
  const ownFolder = (running.ownFolder = ownWorkFolder());
  const started = Date.now();
  const logs = {
    stdout: new OfflineLogWriter((line) => process.stdout.write(line)),
    stderr: new OfflineLogWriter((line) => process.stderr.write(line)),
  };
  const api = await startLocalApi({
    serviceDir: REPO_ROOT,
    httpPort,
    lambdaPort,
    output: env.START_RAW_OUTPUT === '1' ? 'inherit' : (text, stream) => logs[stream].push(text),
    // The gateway's own answers (404, 413, 429, 504 …), which no function logs: one access-log line each.
    accessLog: (line) => process.stdout.write(`${line}\n`),
    // Up to LOCAL_CONCURRENCY workers per function each hold a block cache: together they get BLOCK_CACHE_MB.
    env: {
      DATA_ROOT: dataRoot,
      CONFIG_PATH: configPath,
      // Set by hand, ESBUILD_WORK_FOLDER reaches serverless-offline with the rest of the environment.
      ...(ownFolder ? { ESBUILD_WORK_FOLDER: ownFolder } : {}),
      ...functionSettings(env, cache.perEnvironmentMb),
    },
  }).catch((error: unknown) => {
    // Node's 'listen EADDRINUSE: address already in use 127.0.0.1:3000' named neither the setting nor a way out.
    if ((error as NodeJS.ErrnoException).code === 'EADDRINUSE') {
      throw new Error(
        `PORT ${httpPort} is already in use (another npm start?): stop that, or set PORT to a free port`,
      );
    }
    throw error;
  });
  running.api = api;
  // Where a later npm start finds serverless-offline (its own process group) if this one is killed outright.
  if (ownFolder) {
    const pidFile = path.join(REPO_ROOT, `${ownFolder}${OFFLINE_PID}`);
    fs.mkdirSync(path.dirname(pidFile), { recursive: true }); // .build is absent in a fresh clone
    fs.writeFileSync(pidFile, String(api.offline.pid));
  }
  await api.ready;
  if (running.stopping) return;
  running.ready = true;
  printReady(api.baseUrl, configPath, datasetNames, dataRoot, Date.now() - started);
  console.log(
    `  block cache: BLOCK_CACHE_MB=${cache.budgetMb} per function = ${localConcurrency(env)} workers (LOCAL_CONCURRENCY) x ${cache.perEnvironmentMb} MiB\n`,
  );
  // serverless-offline dying on its own takes the data layer down too, with a failing exit code.
  void api.offline.exited.then((code) => {
    if (running.stopping) return;
    console.error(`serverless-offline exited unexpectedly (${code}); stopping the data layer`);
    void stopAll(undefined, typeof code === 'number' && code !== 0 ? code : 1);
  });
}

/**
 * This instance's bundle folder, `.build/start-<pid>` (git-ignored): a second npm start in the same checkout (another
 * PORT) bundled into the shared `.esbuild` and serverless-esbuild's cleanup there deleted the first one's handlers.
 * Null when ESBUILD_WORK_FOLDER is set (it wins). Folders of instances no longer running (killed with SIGKILL) are
 * removed.
 */
function ownWorkFolder(): string | null {
  if (process.env.ESBUILD_WORK_FOLDER?.trim()) return null;
  const parent = path.join(REPO_ROOT, '.build');
  for (const entry of fs.existsSync(parent) ? fs.readdirSync(parent) : []) {
    const [, pid, pidFile] = /^start-(\d+)(\.offline-pid)?$/.exec(entry) ?? [];
    if (pid === undefined || alive(Number(pid))) continue;
    // Its serverless-offline, left running (~300 MB) when it was killed with SIGKILL: stopped, if it is still one.
    if (pidFile) stopOrphanedOffline(fs.readFileSync(path.join(parent, entry), 'utf8').trim());
    fs.rmSync(path.join(parent, entry), { recursive: true, force: true });
  }
  return `.build/start-${process.pid}`;
}

/** Beside `.build/start-<pid>`: the pid of that instance's serverless-offline. */
const OFFLINE_PID = '.offline-pid';

function stopOrphanedOffline(pid: string): void {
  if (!/^\d+$/.test(pid)) return;
  try {
    // Only a serverless-offline still: the pid may have been reused by anything since.
    const command = fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0');
    if (
      !command.some((arg) => arg.endsWith(path.join('osls', 'bin', 'serverless.js'))) ||
      !command.includes('offline')
    ) {
      return;
    }
    process.kill(-Number(pid), 'SIGKILL'); // its group: esbuild's service too
  } catch {
    // gone, or no /proc here
  }
}

function alive(pid: number): boolean {
  try {
    process.kill(pid, 0);
    return true;
  } catch (error) {
    return (error as NodeJS.ErrnoException).code === 'EPERM'; // running, as another user
  }
}

/** What npm start sets for the functions beyond the environment they inherit: their share of the cache and budget. */
function functionSettings(env: NodeJS.ProcessEnv, cacheMb: number): Record<string, string> {
  return {
    BLOCK_CACHE_MB: String(cacheMb),
    REQUEST_BLOCK_BUDGET_MB: env.REQUEST_BLOCK_BUDGET_MB || String(LOCAL_REQUEST_BLOCK_BUDGET_MB),
  };
}

function printReady(
  baseUrl: string,
  configPath: string,
  datasetNames: string[],
  dataRoot: string,
  startupMs: number,
): void {
  const example = datasetNames.includes('sample')
    ? `${baseUrl}/v1/sample?locations=${README_POINT}`
    : `${baseUrl}/v1/datasets`;
  console.log(
    [
      '',
      `Elevation API ready on ${baseUrl}/ (serverless-offline started in ${(startupMs / 1000).toFixed(1)} s)`,
      `  datasets: ${datasetNames.join(', ')} (${configPath}), read through ${dataRoot}`,
      `  try:      curl '${example}'`,
      '  Ctrl-C stops the API and the data layer (after the requests in progress; Ctrl-C again stops at once).',
      '',
    ].join('\n'),
  );
}

/**
 * Stops the stack. On a signal the gateway first takes no new connections and lets the requests it holds (running
 * or queued) be answered, for up to SHUTDOWN_DRAIN_S, with the functions and the data layer still up: a Ctrl-C or
 * SIGTERM (systemd, a container runtime) cut them off mid-answer before. A second signal, or the time running out,
 * answers those left 503 with Retry-After; then the exit code is 1, as nothing was lost only when it is 0.
 */
async function stopAll(signal: NodeJS.Signals | undefined, exitCode: number): Promise<void> {
  const gateway = running.api?.gateway;
  if (running.stopping) {
    // One Ctrl-C arrives more than once: from the terminal (to the whole process group) and relayed by npm (and by
    // tsx when it runs this file): a probe saw every drain cut short so. A second one means it a second later.
    if (signal && gateway && Date.now() - running.signalledAt >= REPEATED_SIGNAL_MS) {
      console.log(`${signal} again: answering the requests still in progress 503 and stopping now`);
      void drain(gateway, 0);
    }
    return;
  }
  running.stopping = true;
  running.signalledAt = Date.now();
  if (signal && gateway) {
    // Before the API is ready nothing runs yet: requests waiting for its start-up are answered 503 at once.
    const drainS = running.ready ? running.drainS : 0;
    if (drainS > 0) {
      console.log(
        `\n${signal}: taking no new requests; finishing those in progress (up to SHUTDOWN_DRAIN_S=${drainS} s, ${signal} again stops at once)`,
      );
    }
    await drain(gateway, drainS * 1000);
  }
  if (signal) console.log(`${signal}: stopping serverless-offline and the data layer`);
  if (running.cutOff > 0) {
    console.error(`${running.cutOff} request(s) were answered 503 or cut off instead of finishing`);
  }
  await Promise.allSettled([running.api?.stop(), running.dataServer?.close()]);
  // Only the folder this instance named itself: an ESBUILD_WORK_FOLDER set by hand is serverless-esbuild's to clean.
  if (running.ownFolder) {
    fs.rmSync(path.join(REPO_ROOT, running.ownFolder), { recursive: true, force: true });
    fs.rmSync(path.join(REPO_ROOT, `${running.ownFolder}${OFFLINE_PID}`), { force: true });
  }
  process.exit(running.cutOff > 0 ? Math.max(1, exitCode) : exitCode);
}

async function drain(gateway: LocalApi['gateway'], timeoutMs: number): Promise<void> {
  const { cutOff } = await gateway.drain(timeoutMs);
  running.cutOff += cutOff;
}

/** Every dataset and geoid grid that cannot be served (the list `GET /health?deep=1` checks), with the reason. */
async function unservableDatasets(configPath: string, dataRoot: string): Promise<Unservable[]> {
  const registry = loadDatasetRegistry({ configPath, dataRoot });
  const geoids = (): GeoidGrids =>
    new GeoidGrids(readGeoidPaths(configPath), {
      dataRoot,
      headerPrefetchBytes: 65536,
      timeoutMs: 10_000,
      retries: 2,
      missingTtlMs: 0,
    });
  return unservable(servabilityChecks(registry, geoids));
}

/** '1 dataset(s) cannot be served', '1 geoid grid(s) …' or '1 dataset(s) and 2 geoid grid(s) …'. */
function unservableHeadline(broken: readonly Unservable[]): string {
  const datasets = broken.filter((b) => b.kind === 'dataset').length;
  const grids = broken.length - datasets;
  const counts = [
    ...(datasets > 0 ? [`${datasets} dataset(s)`] : []),
    ...(grids > 0 ? [`${grids} geoid grid(s)`] : []),
  ];
  return `${counts.join(' and ')} cannot be served`;
}

function describe(error: unknown): string {
  return error instanceof Error ? error.message : String(error);
}

main().catch((error: unknown) => {
  console.error(`npm start failed: ${describe(error)}`);
  void stopAll(undefined, 1);
});
