/**
 * `npm start` stopped by SIGTERM (systemd, a container runtime) or Ctrl-C while it serves: the requests it has
 * received, running or queued, are answered in full before it stops, and it exits 0. Before, the signal stopped
 * serverless-offline and the data layer at once and dropped them.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { freePort } from '../../scripts/start/free-port';
import { REPO_ROOT } from './support/stack';

const REQUESTS = 60;
const POINTS = 500;

function locations(seed: number): string {
  const out: string[] = [];
  for (let i = 0; i < POINTS; i++) {
    const t = (i * 7919 + seed * 104729) % 10007;
    out.push(`${(48.73 + (t % 100) / 5000).toFixed(6)},${(9.09 + Math.floor(t / 100) / 5000).toFixed(6)}`);
  }
  return out.join('|');
}

function waitFor(child: ChildProcess, output: () => string, text: string, ms: number): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`no "${text}" within ${ms} ms:\n${output()}`)), ms);
    const check = () => {
      if (!output().includes(text)) return;
      clearTimeout(timer);
      child.stdout?.off('data', check);
      resolve();
    };
    child.stdout?.on('data', check);
    child.once('exit', () => reject(new Error(`npm start exited before "${text}":\n${output()}`)));
    check();
  });
}

/** `npm start` as a terminal runs it: its own process group (a foreground job), its output gathered. */
function npmStart(env: Record<string, string>): {
  npm: ChildProcess;
  output: () => string;
  exited: Promise<number | null>;
} {
  const npm = spawn('npm', ['start'], {
    cwd: REPO_ROOT,
    env: { ...process.env, DATA_PORT: '0', ...env },
    stdio: ['ignore', 'pipe', 'pipe'],
    detached: true,
  });
  let output = '';
  npm.stdout?.on('data', (c: Buffer) => (output += c.toString()));
  npm.stderr?.on('data', (c: Buffer) => (output += c.toString()));
  const exited = new Promise<number | null>((resolve) => npm.once('exit', resolve));
  return { npm, output: () => output, exited };
}

/** What `.build` (git-ignored, absent in a fresh clone until something writes there) holds. */
function buildEntries(): string[] {
  const folder = path.join(REPO_ROOT, '.build');
  return fs.existsSync(folder) ? fs.readdirSync(folder) : [];
}

function refused(port: number): Promise<boolean> {
  return new Promise((resolve) => {
    const socket = net.connect(port, '127.0.0.1');
    socket.once('connect', () => {
      socket.destroy();
      resolve(false);
    });
    socket.once('error', () => resolve(true));
  });
}

describe('npm start stopped while it serves', () => {
  it.each<[string, (npm: ChildProcess) => void]>([
    // A container runtime or systemd stopping `npm start`: npm passes the signal on.
    ['SIGTERM to npm', (npm) => process.kill(npm.pid!, 'SIGTERM')],
    // A terminal's Ctrl-C reaches every process of the group, and npm relays it too: one stop, not two.
    ['Ctrl-C (SIGINT to its process group)', (npm) => process.kill(-npm.pid!, 'SIGINT')],
  ])(
    'answers every request it holds before it stops (%s), and exits 0',
    async (_, stop) => {
      const port = await freePort();
      const before = new Set(buildEntries());
      // One worker: the burst below queues, so most of it is waiting when the signal comes.
      const { npm, output, exited } = npmStart({ PORT: String(port), LOCAL_CONCURRENCY: '1' });
      try {
        await waitFor(npm, output, 'Elevation API ready', 150_000);
        // Its own bundle folder, so a second npm start in this checkout cannot delete its handlers.
        const own = fs
          .readdirSync(path.join(REPO_ROOT, '.build'))
          .filter((f) => /^start-\d+$/.test(f) && !before.has(f));
        expect(own).toHaveLength(1);
        const workFolder = path.join(REPO_ROOT, '.build', own[0]);
        expect(fs.readdirSync(workFolder)).toContain('.build');
        const url = `http://127.0.0.1:${port}/v1/sample`;
        let answered = 0;
        let signalled = false;
        const replies = Array.from({ length: REQUESTS }, async (_, i) => {
          const response = await fetch(url, {
            method: 'POST',
            headers: { 'content-type': 'application/json' },
            body: JSON.stringify({ locations: locations(i) }),
          });
          const body = (await response.json()) as { results?: { elevation: number | null }[] };
          answered += 1;
          if (!signalled) {
            signalled = true;
            stop(npm); // the first answer is back: the rest are running or queued
          }
          return {
            status: response.status,
            heights: body.results?.filter((r) => r.elevation !== null).length,
          };
        });
        const results = await Promise.all(replies);
        expect(answered).toBe(REQUESTS);
        expect(results.filter((r) => r.status !== 200 || r.heights !== POINTS)).toEqual([]);
        expect(await exited).toBe(0);
        expect(output()).toMatch(/SIG(TERM|INT): taking no new requests; finishing those in progress/);
        expect(output()).not.toMatch(/SIG[A-Z]+ again: |answered 503 or cut off/);
        // Nothing of it is left serving once npm is gone (npm used to exit at once, its children serving on).
        expect(await refused(port)).toBe(true);
        expect(fs.existsSync(workFolder)).toBe(false);
      } finally {
        if (npm.exitCode === null) process.kill(-npm.pid!, 'SIGKILL');
      }
    },
    240_000,
  );

  it('names PORT when the port is taken, and leaves no bundle folder behind', async () => {
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    const port = (holder.address() as net.AddressInfo).port;
    try {
      const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/start.ts')], {
        env: { ...process.env, PORT: String(port), DATA_PORT: '0' },
        stdio: ['ignore', 'pipe', 'pipe'],
      });
      let output = '';
      child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
      child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
      const code = await new Promise<number | null>((resolve) => child.once('exit', resolve));
      expect(code).toBe(1);
      expect(output).toContain(
        `npm start failed: PORT ${port} is already in use (another npm start?): stop that, or set PORT to a free port`,
      );
      expect(fs.existsSync(path.join(REPO_ROOT, `.build/start-${child.pid}`))).toBe(false);
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
  }, 120_000);

  it('stops the serverless-offline a SIGKILLed npm start left running, at the next start', async () => {
    const port = await freePort();
    const before = new Set(buildEntries());
    const { npm, output, exited } = npmStart({ PORT: String(port) });
    await waitFor(npm, output, 'Elevation API ready', 150_000);
    const [pidFile] = fs
      .readdirSync(path.join(REPO_ROOT, '.build'))
      .filter((f) => /^start-\d+\.offline-pid$/.test(f) && !before.has(f));
    const offline = Number(fs.readFileSync(path.join(REPO_ROOT, '.build', pidFile), 'utf8'));
    process.kill(-npm.pid!, 'SIGKILL'); // npm and npm start, not serverless-offline (its own process group)
    await exited;
    const running = (pid: number) => {
      try {
        process.kill(pid, 0);
        return true;
      } catch {
        return false;
      }
    };
    expect(running(offline)).toBe(true);
    const killed = Number(/^start-(\d+)/.exec(pidFile)![1]); // npm start's own process, gone (reaped) first
    for (let i = 0; i < 50 && running(killed); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    // The next npm start (here one that fails at once, its PORT taken) sweeps what the killed one left.
    const holder = net.createServer();
    await new Promise<void>((resolve) => holder.listen(0, '127.0.0.1', resolve));
    try {
      const next = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/start.ts')], {
        env: { ...process.env, PORT: String((holder.address() as net.AddressInfo).port), DATA_PORT: '0' },
        stdio: 'ignore',
      });
      await new Promise((resolve) => next.once('exit', resolve));
    } finally {
      await new Promise((resolve) => holder.close(resolve));
    }
    for (let i = 0; i < 50 && running(offline); i++) await new Promise((resolve) => setTimeout(resolve, 100));
    expect(running(offline)).toBe(false);
    expect(fs.existsSync(path.join(REPO_ROOT, '.build', pidFile))).toBe(false);
    expect(fs.existsSync(path.join(REPO_ROOT, '.build', pidFile.replace('.offline-pid', '')))).toBe(false);
  }, 240_000);
});
