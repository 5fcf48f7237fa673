/**
 * A Writable onto a file descriptor that writes synchronously, as a Lambda function writes to its log pipe. Used
 * offline for worker threads' stdout/stderr (see offline-env.ts): ~9 µs a 700-byte line against ~16 µs through
 * fs.createWriteStream (a thread-pool round trip per write) and ~29 µs through the worker's own stdout (relayed
 * by the main thread). fd 1 is usually a pipe that the main thread's libuv made non-blocking, so a write can
 * meet a full pipe (EAGAIN) or be partial: the rest is retried shortly, and later lines wait in the Writable's
 * buffer meanwhile, so nothing is lost or reordered and a slow reader never crashes the worker.
 */
import { writeSync } from 'node:fs';
import { Writable } from 'node:stream';

const RETRY_MS = 1;

export class FdWriteStream extends Writable {
  constructor(private readonly fd: number) {
    super({ decodeStrings: true });
  }

  override _write(chunk: Buffer, _encoding: BufferEncoding, callback: (error?: Error | null) => void): void {
    this.writeFrom(chunk, 0, callback);
  }

  private writeFrom(chunk: Buffer, offset: number, callback: (error?: Error | null) => void): void {
    let written = offset;
    try {
      while (written < chunk.length) written += writeSync(this.fd, chunk, written, chunk.length - written);
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== 'EAGAIN') return callback(error as Error);
      setTimeout(() => this.writeFrom(chunk, written, callback), RETRY_MS);
      return;
    }
    callback();
  }
}
