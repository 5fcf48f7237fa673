/**
 * A fetched block whose rows are decoded on demand: `rows([r...])` decompresses only down to the deepest row asked
 * for and fixes byte order / undoes the predictor only for the rows asked for (both predictors work row by row),
 * and a later call for rows further down resumes the decompression where the last one stopped. Cached as is by
 * block-store, so concurrent requests share one block: decompression steps run one at a time, and a caller
 * needing rows deeper than the step in flight waits for it, then starts the next.
 *
 * Correctness first: `rows(list)` resolves with a view that ends after the deepest row decompressed, in which
 * every row of `list` is fully decoded; other rows above it may still hold raw (undecoded) bytes, so callers read
 * only the rows they asked for (window-sampler asks for exactly its windows' rows). Rows once decoded are never
 * written again. A failed step fails the block for good (the cache evicts it, see block-store).
 *
 * The whole block's buffer is allocated up front (by the decoder; zlib's own output buffer, see resumable-inflate):
 * an untouched page of a fresh buffer costs no memory (100 buffers of 4 MiB with 10% written grew RSS by 39 MiB,
 * not 400; after 50 were freed and collected, 50 new ones with 10% written grew it by 19 MiB: such buffers are
 * mapped and unmapped, not recycled resident), whereas growing would copy the rows decoded so far at each step
 * (~1 ms per 2 MiB). What a block is charged (`bytesHeld`) is what it holds: the decompressed
 * bytes, rounded up to pages, plus the compressed bytes and decoder state while it can still resume.
 */
import type { ReadContext } from '../types';
import type { PixelArray } from './raster';

export interface BlockRows {
  /** Rows the block holds (a raster's last strip may hold fewer than the block height). */
  readonly rowCount: number;
  /** Memory the block holds now: what the block cache charges for it. */
  readonly bytesHeld: number;
  /**
   * Decodes the block's rows `rows` (counted from the block's top; duplicates and any order are fine) and
   * resolves with the block's samples, indexed like the whole block: those rows are decoded; read no others.
   */
  rows(rows: readonly number[], ctx: ReadContext): Promise<PixelArray>;
  /** Called after each decode step with the new `bytesHeld`. */
  onResize: ((bytes: number) => void) | null;
}

/** Every row of a block of `count` rows: for callers that need the whole block. */
export function allRows(count: number): number[] {
  return Array.from({ length: count }, (_, r) => r);
}

/** A byte-level decompressor that can stop and resume (see resumable-inflate, resumable-lzw). */
export interface ResumableDecoder {
  /** The block's bytes (all of them allocated); the first `produced` are decompressed. */
  readonly output: Uint8Array;
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
    bytesHeld: data.byteLength,
    rows: () => Promise.resolve(data),
    onResize: null,
  };
}

export interface PartialBlockParts {
  /** `view(bytes)` is the typed array of (part of) the block's bytes, `rowBytes` one row's bytes. */
  view: (bytes: Uint8Array) => PixelArray;
  rowBytes: number;
  rowCount: number;
  decoder: ResumableDecoder;
  /** Fixes byte order and undoes the predictor, in place, on whole freshly decoded rows. */
  prepareRows: (rows: Uint8Array) => void;
  /** Maps a decode failure to the error callers see (e.g. DataSourceUnavailableError naming the block). */
  failure: (error: unknown) => Error;
  /**
   * Inflate the whole block before serving any row, so DEFLATE's Adler-32 (over all of it) is checked first; the
   * predictor still runs only on the rows asked for. Without it a row above a corruption that inflates without
   * a structural error would be served (PARTIAL_DECODE=true opts into that for speed).
   */
  wholeFirst?: boolean;
}

export class PartialBlock implements BlockRows {
  /** Rows decompressed so far (raw: byte order and predictor not yet applied unless marked in `decoded`). */
  rowsInflated = 0;
  onResize: ((bytes: number) => void) | null = null;
  private decoder: ResumableDecoder | null;
  /** The block's bytes, the decoder's output once it has produced some (kept when the decoder is released). */
  private bytes: Uint8Array = new Uint8Array(0);
  private readonly decoded: Uint8Array;
  private decodedCount = 0;
  private step: Promise<void> | null = null;
  private failed: Error | null = null;

  constructor(private readonly parts: PartialBlockParts) {
    this.decoder = parts.decoder;
    this.decoded = new Uint8Array(parts.rowCount);
  }

  get rowCount(): number {
    return this.parts.rowCount;
  }

  /** Rows fully decoded (decompressed, byte order fixed, predictor undone). */
  get rowsDecoded(): number {
    return this.decodedCount;
  }

  get bytesHeld(): number {
    const { bytes } = this;
    const { rowBytes } = this.parts;
    if (!this.decoder) return bytes.byteLength;
    const written = Math.max(this.decoder.produced, this.rowsInflated * rowBytes);
    const pages = Math.min(bytes.byteLength, Math.ceil(written / PAGE_BYTES) * PAGE_BYTES);
    return pages + this.decoder.heldBytes;
  }

  async rows(rows: readonly number[], ctx: ReadContext): Promise<PixelArray> {
    const { rowBytes, rowCount, view, prepareRows } = this.parts;
    let deepest = 0;
    for (const row of rows) if (row > deepest) deepest = row;
    const wanted = this.parts.wholeFirst ? rowCount : Math.min(deepest + 1, rowCount);
    while (this.rowsInflated < wanted) {
      if (this.failed) throw this.failed;
      this.step ??= this.advance(wanted, ctx).finally(() => {
        this.step = null;
      });
      await this.step;
    }
    // Rows inflated before a failure decoded cleanly; the predictor of the rows asked for is synchronous.
    const { bytes } = this;
    const started = performance.now();
    const before = this.decodedCount;
    for (const row of rows) {
      if (row < 0 || row >= wanted || this.decoded[row] === 1) continue;
      prepareRows(bytes.subarray(row * rowBytes, (row + 1) * rowBytes));
      this.decoded[row] = 1;
      this.decodedCount++;
    }
    // Only rows prepared now count: rows of a cached block cost no decode (and DecodeTime is per decode).
    if (this.decodedCount > before) ctx.stats.decodeMs += performance.now() - started;
    return view(bytes.subarray(0, wanted * rowBytes));
  }

  private async advance(wanted: number, ctx: ReadContext): Promise<void> {
    const decoder = this.decoder;
    if (!decoder) return;
    const { rowBytes, rowCount } = this.parts;
    await ctx.trace.span('decode', async (annotate) => {
      const started = performance.now();
      try {
        await decoder.fill(wanted * rowBytes, wanted === rowCount);
        const complete = Math.min(rowCount, Math.floor(decoder.produced / rowBytes));
        if (complete < wanted) {
          throw new Error(`block decodes to ${decoder.produced} bytes, ${wanted * rowBytes} expected`);
        }
        this.bytes = decoder.output;
        this.rowsInflated = complete;
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
        annotate('rows', this.rowsInflated);
      }
    });
    this.onResize?.(this.bytesHeld);
  }
}
