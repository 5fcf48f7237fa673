/**
 * A DEFLATE (zlib) stream inflated on demand: `fill(n)` inflates until at least n bytes are out, and a later
 * `fill(m)` resumes from where the last one stopped (the zlib stream keeps its state), so a point in row r of a
 * block costs the inflate of rows 0..r only, and a later point further down costs only the rest.
 *
 * node:zlib's stream API runs the inflate on libuv's thread pool (not the event loop). The compressed bytes are
 * written in pieces sized from the block's compression ratio, so the stream stops close to the bytes asked for.
 * zlib's output chunk is the size of the whole block, so its chunks are consecutive slices of one buffer, which
 * becomes the block's bytes: no copy (copying half a 4 MiB block into a buffer of our own cost ~1.5 ms CPU more
 * than the ~4.5 ms of its inflate). Should a chunk ever not follow the last, the bytes are copied instead.
 * Measured against the alternative, `inflateSync` of a prefix of the input with `finishFlush: Z_SYNC_FLUSH`:
 * about the same CPU for half a block (4.1-4.8 ms vs 4.4-4.8 ms here), but on the event loop and not resumable.
 */
import { createInflate, type Inflate } from 'node:zlib';
import type { ResumableDecoder } from './block-rows';

/** zlib's own state: inflate state (~7 KiB) and its 32 KiB window, besides the output (the block's bytes). */
const ZLIB_STATE_BYTES = 40 * 1024;
/** Extra compressed bytes per piece beyond the ratio's estimate, so one write usually reaches the bytes asked for. */
const PIECE_SLACK = 1.02;
/** Small enough that a block of a few KiB still decodes partly (the ratio estimate dominates on real blocks). */
const MIN_PIECE_BYTES = 1024;
/** zlib's smallest output chunk (Z_MIN_CHUNK). */
const MIN_CHUNK_BYTES = 64;
/** Spare room after the block in zlib's output chunk (see open()). */
const CHUNK_ROOM_BYTES = 4096;

export class ResumableInflate implements ResumableDecoder {
  /** Bytes inflated into `output` so far. */
  produced = 0;
  private out: Uint8Array | null = null;
  /** Whether `out` is zlib's own output buffer (chunks arrive in place) rather than a copy. */
  private adopted = false;
  private consumed = 0;
  private stream: Inflate | null = null;
  private ended = false;
  private failure: Error | null = null;

  /** Inflates into `size` bytes; bytes beyond are dropped (as the full decode ignored them). */
  constructor(
    private readonly compressed: Uint8Array,
    private readonly size: number,
  ) {}

  /** The block's bytes: the first `produced` are inflated, the rest not yet (not even zeroed: never read them). */
  get output(): Uint8Array {
    return (this.out ??= new Uint8Array(this.size));
  }

  /** Whether the stream is over (all input consumed and the end seen): nothing more will come. */
  get finished(): boolean {
    return this.ended;
  }

  /** Memory this inflate holds beyond `out`: the compressed bytes and, while open, zlib's state and chunk. */
  get heldBytes(): number {
    if (this.ended) return 0;
    return this.compressed.byteLength + (this.stream ? ZLIB_STATE_BYTES : 0);
  }

  /**
   * Inflates until at least `bytes` bytes are in `out`, or with `toEnd` until the stream's end, where zlib checks
   * the block's Adler-32 checksum. Not re-entrant: callers serialise (see block-rows). Rejects when the stream is
   * corrupt; resolves short of `bytes` only when the stream has ended.
   */
  async fill(bytes: number, toEnd: boolean): Promise<void> {
    if (this.failure) throw this.failure;
    const stream = this.open();
    const target = toEnd ? Infinity : bytes;
    while (this.produced < target && !this.ended) {
      if (this.consumed >= this.compressed.byteLength) {
        await this.finish(stream);
        break;
      }
      await this.write(stream, this.nextPiece(target));
      if (this.failure) throw this.failure;
    }
    if (this.ended) {
      stream.destroy(); // ended with input left, its writable side is still open: release zlib's state now
      this.stream = null;
    }
  }

  /** Releases zlib's state (an evicted or abandoned block). */
  close(): void {
    this.stream?.destroy();
    this.stream = null;
  }

  private open(): Inflate {
    if (this.stream) return this.stream;
    // One chunk holds the whole block with room to spare: a chunk filled exactly makes node:zlib allocate another
    // of the same size to read the stream's end (its checksum), doubling a whole inflate's memory (measured: the
    // 512-block request peaked at 289 MiB instead of 89).
    const stream = createInflate({ chunkSize: Math.max(this.size + CHUNK_ROOM_BYTES, MIN_CHUNK_BYTES) });
    stream.on('data', (chunk: Buffer) => this.take(chunk));
    stream.on('error', (error) => this.fail(error));
    // zlib ends the stream at its end (the Adler-32 checked) even with input left: bytes after it are not the
    // block's (a tile byte count longer than its stream), and GDAL reads such a tile.
    stream.on('end', () => {
      this.ended = true;
    });
    this.stream = stream;
    return stream;
  }

  /**
   * One piece through zlib. A corrupt stream destroys the zlib stream without calling the write's callback, so
   * the write also settles on 'error' and 'close'.
   */
  private write(stream: Inflate, piece: Uint8Array): Promise<void> {
    return new Promise<void>((resolve) => {
      const settle = (error?: unknown): void => {
        stream.off('error', settle);
        stream.off('close', settle);
        if (error) this.fail(error);
        else if (stream.destroyed && !this.ended)
          this.fail(new Error('the DEFLATE stream closed before its end'));
        resolve();
      };
      stream.once('error', settle);
      stream.once('close', settle);
      stream.write(piece, (error) => settle(error ?? undefined));
    });
  }

  /** The next slice of compressed input: enough, at this block's ratio so far, to reach `bytes` out. */
  private nextPiece(bytes: number): Uint8Array {
    const total = this.compressed.byteLength;
    const ratio = this.produced > 0 ? this.consumed / this.produced : total / this.size;
    const missing = Number.isFinite(bytes) ? bytes - this.produced : total;
    const wanted = Math.max(MIN_PIECE_BYTES, Math.ceil(missing * ratio * PIECE_SLACK));
    const piece = this.compressed.subarray(this.consumed, Math.min(total, this.consumed + wanted));
    this.consumed += piece.byteLength;
    return piece;
  }

  private take(chunk: Buffer): void {
    const room = this.size - this.produced;
    if (this.failure || room <= 0) return;
    const taken = Math.min(room, chunk.byteLength);
    if (!this.out && chunk.buffer.byteLength - chunk.byteOffset >= this.size) {
      this.out = new Uint8Array(chunk.buffer, chunk.byteOffset, this.size); // zlib's buffer: the rest follows
      this.adopted = true;
    } else if (this.adopted && !this.follows(chunk)) {
      const own = new Uint8Array(this.size);
      own.set((this.out as Uint8Array).subarray(0, this.produced));
      this.out = own;
      this.adopted = false;
    }
    if (!this.adopted) this.output.set(chunk.subarray(0, taken), this.produced);
    this.produced += taken;
  }

  /** Whether `chunk` lies in `out` right after the bytes produced so far (zlib wrote it in place). */
  private follows(chunk: Buffer): boolean {
    const out = this.out as Uint8Array;
    return chunk.buffer === out.buffer && chunk.byteOffset === out.byteOffset + this.produced;
  }

  /** All input is written: end the stream and wait until zlib has checked the stream's end and checksum. */
  private finish(stream: Inflate): Promise<void> {
    return new Promise<void>((resolve) => {
      stream.once('end', () => {
        this.ended = true;
        resolve();
      });
      stream.once('error', () => resolve());
      stream.once('close', () => resolve());
      stream.end();
    }).then(() => {
      if (this.failure) throw this.failure;
      if (!this.ended) throw this.fail(new Error('the DEFLATE stream closed before its end'));
    });
  }

  private fail(error: unknown): Error {
    this.failure ??= error instanceof Error ? error : new Error(String(error));
    this.stream?.destroy();
    this.stream = null;
    return this.failure;
  }
}
