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
  it('answers every request it holds before it stops on SIGTERM, and exits 0', async () => {
    const port = await freePort();
    const child = spawn(process.execPath, ['--import', 'tsx', path.join(REPO_ROOT, 'scripts/start.ts')], {
      // One worker: the burst below queues, so most of it is waiting when the signal comes.
      env: { ...process.env, PORT: String(port), DATA_PORT: '0', LOCAL_CONCURRENCY: '1' },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let output = '';
    child.stdout?.on('data', (c: Buffer) => (output += c.toString()));
    child.stderr?.on('data', (c: Buffer) => (output += c.toString()));
    const exited = new Promise<number | null>((resolve) => child.once('exit', resolve));
    try {
      await waitFor(child, () => output, 'Elevation API ready', 150_000);
      // Its own bundle folder, so a second npm start in this checkout cannot delete its handlers.
      const workFolder = path.join(REPO_ROOT, `.build/start-${child.pid}`);
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
          child.kill('SIGTERM'); // the first answer is back: the rest are running or queued
        }
        return { status: response.status, heights: body.results?.filter((r) => r.elevation !== null).length };
      });
      const results = await Promise.all(replies);
      expect(answered).toBe(REQUESTS);
      expect(results.filter((r) => r.status !== 200 || r.heights !== POINTS)).toEqual([]);
      expect(await exited).toBe(0);
      expect(output).toMatch(/SIGTERM: taking no new requests; finishing those in progress/);
      expect(output).not.toMatch(/answered 503 or cut off/);
      expect(await refused(port)).toBe(true);
      expect(fs.existsSync(workFolder)).toBe(false);
    } finally {
      if (child.exitCode === null) child.kill('SIGKILL');
    }
  }, 240_000);

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
});
