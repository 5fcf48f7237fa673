/** Whether a command-line tool is on PATH, for suites that need GDAL, Prometheus or another system package. */
import { spawnSync } from 'node:child_process';

export function hasCommand(command: string): boolean {
  return spawnSync('sh', ['-c', `command -v ${command}`], { stdio: 'ignore' }).status === 0;
}
