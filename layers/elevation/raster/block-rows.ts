/**
 * A fetched block whose rows are decoded on demand: `rows(n)` decodes (decompresses, fixes byte order, undoes the
 * predictor) only up to row n, and a later call for more rows resumes where the last one stopped. Cached as is by
 * block-store, so concurrent requests share one block: decode steps run one at a time, and a caller asking for
 * more rows than the step in flight waits for it, then starts the next.
 *
 * Correctness first: `rows(n)` resolves with a view of the decoded rows only (at least n), so a reader can never
 * see a row that is not decoded yet; rows already served are never written again. A failed step fails the block
 * for good (the cache evicts it, see block-store); rows served before stay valid (they decoded cleanly).
 *
 * The whole block's buffer is allocated up front: an untouched page of a fresh ArrayBuffer costs no memory (100
 * buffers of 4 MiB with 10% written grew RSS by 39 MiB, not 400), whereas growing would copy the rows decoded so
 * far at each step (~1 ms per 2 MiB). What a block is charged (`bytesHeld`) is what it holds: the decoded bytes,
 * rounded up to pages, plus the compressed bytes and decoder state while it can still resume.
 */
import type { ReadContext } from '../types';
import type { PixelArray } from './raster';

export interface BlockRows {
  /** Rows the block holds (a raster's last strip may hold fewer than the block height). */
  readonly rowCount: number;
  /** Rows decoded so far. */
  readonly rowsReady: number;
  /** Memory the block holds now: what the block cache charges for it. */
  readonly bytesHeld: number;
  /** Decodes at least `count` rows (at most rowCount) and resolves with a view of the rows decoded. */
  rows(count: number, ctx: ReadContext): Promise<PixelArray>;
  /** Called after each decode step with the new `bytesHeld`. */
  onResize: ((bytes: number) => void) | null;
}

/** A byte-level decompressor that can stop and resume (see resumable-inflate, resumable-lzw). */
export interface ResumableDecoder {
  readonly produced: number;
  readonly finished: boolean;
  readonly heldBytes: number;
  /** Decodes until `bytes` bytes are out, or, with `toEnd`, until the stream's end (checks its integrity). */
  fill(bytes: number, toEnd: boolean): Promise<void>;
  close(): void;
}

const PAGE_BYTES = 4096;

/** A block decoded in one go (uncompressed, or a codec without a resumable decoder): every row is ready. */
export function completeBlock(data: PixelArray, rowCount: number): BlockRows {
  return {
    rowCount,
    rowsReady: rowCount,
    bytesHeld: data.byteLength,
    rows: () => Promise.resolve(data),
    onResize: null,
  };
}

export interface PartialBlockParts {
  /** The whole block's decoded bytes; `view(bytes)` is its typed array, `rowBytes` one row's bytes. */
  bytes: Uint8Array;
  view: (bytes: Uint8Array) => PixelArray;
  rowBytes: number;
  rowCount: number;
  decoder: ResumableDecoder;
  /** Fixes byte order and undoes the predictor, in place, on whole freshly decoded rows. */
  prepareRows: (rows: Uint8Array) => void;
  /** Maps a decode failure to the error callers see (e.g. DataSourceUnavailableError naming the block). */
  failure: (error: unknown) => Error;
}

export class PartialBlock implements BlockRows {
  rowsReady = 0;
  onResize: ((bytes: number) => void) | null = null;
  private decoder: ResumableDecoder | null;
  private step: Promise<void> | null = null;
  private failed: Error | null = null;

  constructor(private readonly parts: PartialBlockParts) {
    this.decoder = parts.decoder;
  }

  get rowCount(): number {
    return this.parts.rowCount;
  }

  get bytesHeld(): number {
    const { bytes, rowBytes } = this.parts;
    if (!this.decoder) return bytes.byteLength;
    const written = Math.max(this.decoder.produced, this.rowsReady * rowBytes);
    const pages = Math.min(bytes.byteLength, Math.ceil(written / PAGE_BYTES) * PAGE_BYTES);
    return pages + this.decoder.heldBytes;
  }

  async rows(count: number, ctx: ReadContext): Promise<PixelArray> {
    const wanted = Math.min(Math.max(count, 1), this.rowCount);
    while (this.rowsReady < wanted) {
      if (this.failed) throw this.failed;
      this.step ??= this.advance(wanted, ctx).finally(() => {
        this.step = null;
      });
      await this.step;
    }
    const { bytes, rowBytes, view } = this.parts;
    return view(bytes.subarray(0, this.rowsReady * rowBytes));
  }

  private async advance(wanted: number, ctx: ReadContext): Promise<void> {
    const decoder = this.decoder;
    if (!decoder) return;
    const { bytes, rowBytes, rowCount } = this.parts;
    await ctx.trace.span('decode', async (annotate) => {
      const started = performance.now();
      try {
        await decoder.fill(wanted * rowBytes, wanted === rowCount);
        const complete = Math.min(rowCount, Math.floor(decoder.produced / rowBytes));
        if (complete < wanted) {
          throw new Error(`block decodes to ${decoder.produced} bytes, ${wanted * rowBytes} expected`);
        }
        this.parts.prepareRows(bytes.subarray(this.rowsReady * rowBytes, complete * rowBytes));
        this.rowsReady = complete;
        if (complete === rowCount) {
          decoder.close();
          this.decoder = null; // releases the compressed bytes and the decoder's state
        }
      } catch (error) {
        decoder.close();
        this.decoder = null;
        this.failed = this.parts.failure(error);
        throw this.failed;
      } finally {
        const ms = performance.now() - started;
        ctx.stats.decodeMs += ms;
        annotate('ms', Math.round(ms * 1000) / 1000);
        annotate('rows', this.rowsReady);
      }
    });
    this.onResize?.(this.bytesHeld);
  }
}
