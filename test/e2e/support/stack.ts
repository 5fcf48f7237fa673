import fs from 'node:fs';
import path from 'node:path';
import { startDataServer, type DataServer } from '../../../scripts/data-server';
import { freePort } from '../../../scripts/start/free-port';
import { startLocalApi } from '../../../scripts/start/local-api';

/**
 * The local stack for end-to-end tests: the data-layer server over a data folder plus serverless-offline
 * reading through it, on free ports so parallel runs (and a developer's `npm start`) do not collide.
 */
export const REPO_ROOT = path.resolve(__dirname, '../../..');

export interface StackOptions {
  /** Dataset config (absolute or relative to the repo root). Default: the bundled sample's. */
  configPath?: string;
  /** Folder the data layer serves; default: the config file's folder (so relative dataset paths work). */
  dataDir?: string;
  /** Extra settings for the handlers (anything serverless.yml passes through, plus AWS_*). */
  env?: Record<string, string>;
}

export interface Stack {
  /** e.g. `http://127.0.0.1:41234` (no trailing slash). */
  baseUrl: string;
  dataServer: DataServer;
  /** serverless-offline's process (group leader: its workers are its threads). */
  pid: number;
  /** How long serverless-offline took from spawn to a healthy `/health`. */
  startupMs: number;
  /** The last part of serverless-offline's output, for failure messages. */
  output(): string;
  stop(): Promise<void>;
}

const OUTPUT_TAIL_CHARS = 20_000;
let stackCount = 0;

export async function startStack(options: StackOptions = {}): Promise<Stack> {
  const configPath = path.resolve(REPO_ROOT, options.configPath ?? 'layers/dem-sample/config.yaml');
  const dataServer = await startDataServer({ root: options.dataDir ?? path.dirname(configPath), port: 0 });
  // Each stack bundles into its own folder: serverless-esbuild deletes its folder when it stops.
  const workFolder = `.build/e2e-${process.pid}-${(stackCount += 1)}`; // .build is git-ignored
  let tail = '';
  const started = Date.now();
  const offline = await startLocalApi({
    serviceDir: REPO_ROOT,
    httpPort: await freePort(),
    lambdaPort: await freePort(),
    env: {
      CONFIG_PATH: configPath,
      DATA_ROOT: dataServer.url,
      ESBUILD_WORK_FOLDER: workFolder,
      ...options.env,
    },
    output: (text) => (tail = (tail + text).slice(-OUTPUT_TAIL_CHARS)),
  });
  const stop = async (): Promise<void> => {
    await Promise.allSettled([offline.stop(), dataServer.close()]);
    fs.rmSync(path.join(REPO_ROOT, workFolder), { recursive: true, force: true });
  };
  try {
    await offline.ready;
  } catch (error) {
    await stop();
    throw new Error(
      `${error instanceof Error ? error.message : String(error)}\n--- osls output ---\n${tail}`,
    );
  }
  return {
    baseUrl: offline.baseUrl,
    pid: offline.offline.pid,
    dataServer,
    startupMs: Date.now() - started,
    output: () => tail,
    stop,
  };
}
