/**
 * FdWriteStream against a real non-blocking pipe whose reader starts late: the pipe fills (64 KiB), writes meet
 * EAGAIN and partial writes, and every byte must still arrive once, in order.
 */
import { spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { FdWriteStream } from '../../../layers/telemetry/fd-stream';

const READER_DELAY_S = 0.4;
const LINES = 4000; // ~2.8 MB: far more than a pipe holds

let dir: string;
beforeAll(() => {
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'fd-stream-'));
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

async function openWhenReaderIsThere(fifo: string): Promise<number> {
  for (let i = 0; ; i++) {
    try {
      return fs.openSync(fifo, fs.constants.O_WRONLY | fs.constants.O_NONBLOCK);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'ENXIO' || i > 200) throw error;
      await new Promise((r) => setTimeout(r, 10));
    }
  }
}

it('delivers every line in order through a full non-blocking pipe with a late reader', async () => {
  const fifo = path.join(dir, 'pipe');
  const received = path.join(dir, 'received');
  expect(spawnSync('mkfifo', [fifo]).status).toBe(0);
  // The reader opens the pipe at once (so a non-blocking writer may open it), then reads only after a pause.
  const reader = spawn('sh', ['-c', `exec 3<"${fifo}"; sleep ${READER_DELAY_S}; cat <&3 > "${received}"`]);
  const exited = new Promise<number | null>((resolve) => reader.once('exit', resolve));
  const fd = await openWhenReaderIsThere(fifo);
  const stream = new FdWriteStream(fd);
  const lines = Array.from({ length: LINES }, (_, i) => `{"n":${i},"pad":"${'x'.repeat(680)}"}\n`);
  const errors: Error[] = [];
  stream.on('error', (error) => errors.push(error));
  const started = Date.now();
  for (const line of lines) stream.write(line);
  await new Promise<void>((resolve) => stream.end(resolve));
  const waited = (Date.now() - started) / 1000;
  fs.closeSync(fd);
  expect(await exited).toBe(0);
  expect(errors).toEqual([]);
  expect(waited).toBeGreaterThan(READER_DELAY_S / 2); // the pipe really was full for a while
  expect(fs.readFileSync(received, 'utf8')).toBe(lines.join(''));
});
