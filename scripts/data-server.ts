/**
 * `tsx scripts/data-server.ts`: the local data layer on its own (npm start runs it for you).
 * DATA_DIR (default layers/dem-sample), DATA_PORT (default 4000; 0 = ephemeral), DATA_LOG=1 logs requests.
 */
import { startDataServer } from './data-server/server';

export { startDataServer, STATS_PATH } from './data-server/server';
export type { DataServer, DataServerOptions } from './data-server/server';
export type { DataServerStats } from './data-server/request-stats';

export const DEFAULT_DATA_DIR = 'layers/dem-sample';
export const DEFAULT_DATA_PORT = 4000;

export function dataPortFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.DATA_PORT ?? String(DEFAULT_DATA_PORT);
  const port = Number(raw);
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    throw new Error(`DATA_PORT must be an integer port 0-65535 (0 = any free port), got "${raw}"`);
  }
  return port;
}

async function main(): Promise<void> {
  const root = process.env.DATA_DIR ?? DEFAULT_DATA_DIR;
  const log = process.env.DATA_LOG === '1' ? (line: string) => console.log(line) : undefined;
  const server = await startDataServer({ root, port: dataPortFromEnv(), log });
  console.log(`data layer listening on ${server.url} (serving ${root})`);
  const stop = (): void => {
    server.close().then(
      () => process.exit(0),
      () => process.exit(1),
    );
  };
  process.once('SIGINT', stop);
  process.once('SIGTERM', stop);
}

if (require.main === module) {
  main().catch((error: unknown) => {
    console.error(`data layer failed to start: ${error instanceof Error ? error.message : String(error)}`);
    process.exit(1);
  });
}
