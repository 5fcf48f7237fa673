// The local osls plugin that ends esbuild's service process once `osls offline start` is up (see its header).
// Real esbuild: its service is a child process of this one, found through /proc.
import fs from 'node:fs';
import * as esbuild from 'esbuild';
// eslint-disable-next-line @typescript-eslint/no-require-imports
const StopEsbuildServiceOffline = require('../../scripts/serverless-plugins/stop-esbuild-service-offline');

/** Child processes of this one whose command line is esbuild's service (`esbuild --service=… --ping`). */
function esbuildServices(): number[] {
  const children = fs
    .readdirSync(`/proc/${process.pid}/task`)
    .flatMap((tid) => fs.readFileSync(`/proc/${process.pid}/task/${tid}/children`, 'utf8').split(' '))
    .filter((pid) => pid.trim() !== '')
    .map(Number);
  return children.filter((pid) => {
    try {
      return fs.readFileSync(`/proc/${pid}/cmdline`, 'utf8').includes('--service=');
    } catch {
      return false; // already gone
    }
  });
}

async function gone(pids: number[], timeoutMs: number): Promise<boolean> {
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (pids.every((pid) => !fs.existsSync(`/proc/${pid}`) || isZombie(pid))) return true;
    await new Promise((resolve) => setTimeout(resolve, 20));
  }
  return false;
}

function isZombie(pid: number): boolean {
  try {
    return /\) Z /.test(fs.readFileSync(`/proc/${pid}/stat`, 'utf8'));
  } catch {
    return true;
  }
}

const onLinux = process.platform === 'linux' ? describe : describe.skip;

onLinux('stop-esbuild-service-offline', () => {
  afterAll(() => esbuild.stop());

  it('hooks after offline start has bundled and started, and only there', () => {
    const plugin = new StopEsbuildServiceOffline({}, {}, undefined);
    expect(Object.keys(plugin.hooks)).toEqual(['after:offline:start:init']);
  });

  it('ends the service process esbuild started for a build, and a later build starts a new one', async () => {
    // Another test file in this jest worker may have left a service of its own esbuild instance running.
    const others = esbuildServices();
    await esbuild.transform('let a: number = 1', { loader: 'ts' });
    const ours = esbuildServices().filter((pid) => !others.includes(pid));
    expect(ours).toHaveLength(1);

    const warnings: string[] = [];
    const log = { debug: () => undefined, warning: (m: string) => warnings.push(m) };
    const plugin = new StopEsbuildServiceOffline({}, {}, { log });
    await plugin.hooks['after:offline:start:init']();
    expect(warnings).toEqual([]);
    expect(await gone(ours, 5000)).toBe(true);

    const again = await esbuild.transform('let b: number = 2', { loader: 'ts' });
    expect(again.code).toContain('let b = 2');
    expect(esbuildServices().filter((pid) => !others.includes(pid) && !ours.includes(pid))).toHaveLength(1);
  });
});
