/**
 * ZSTD and DEFLATE decoded to a known most: a block of a DEM file a store holds is decoded into at most the bytes
 * it can hold, never into whatever its stream inflates to. geotiff.js's ZSTD decoder (zstddec's streaming
 * build) grew its WebAssembly memory to a frame's full output and kept it (a 32 KB block inflating to 1 GiB left
 * a worker 2 GB larger, a helper's probe); LERC_DEFLATE's inflate had no bound either.
 */
import { promisify } from 'node:util';
import { inflate } from 'node:zlib';
import { ZSTDDecoder } from 'zstddec';

const inflateAsync = promisify(inflate);

let zstd: Promise<ZSTDDecoder> | null = null;

/** The zlib stream `compressed` inflated, or an error once it passes `maxBytes`. */
export async function inflateAtMost(compressed: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  try {
    return new Uint8Array(await inflateAsync(compressed, { maxOutputLength: maxBytes }));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE')
      throw new Error(`the DEFLATE stream inflates to more than the ${maxBytes} bytes a block can hold`);
    throw error;
  }
}

/**
 * The ZSTD frame `compressed` decoded into a buffer of `maxBytes` (zstddec's one-shot ZSTD_decompress: a frame
 * larger than that fails before it is decoded, or as soon as it outgrows the buffer), or an error.
 */
export async function zstdAtMost(compressed: Uint8Array, maxBytes: number): Promise<Uint8Array> {
  const decoded = (await zstdDecoder()).decode(compressed, maxBytes);
  // An error comes back as a negative size (an empty slice) or one past the buffer: neither is the frame's bytes.
  if (decoded.byteLength === 0 || decoded.byteLength > maxBytes)
    throw new Error(`the ZSTD frame does not decode into the ${maxBytes} bytes a block can hold`);
  return decoded;
}

/** The ZSTD decoder, its WebAssembly loaded once: asked for when a ZSTD file is opened, so a load failure fails the open. */
export function zstdDecoder(): Promise<ZSTDDecoder> {
  zstd ??= (async () => {
    const decoder = new ZSTDDecoder();
    await decoder.init();
    return decoder;
  })();
  return zstd;
}

/**
 * A PackBits stream (TIFF compression 32773) decoded into at most `maxBytes`, as libtiff decodes it: output past
 * the block's end is discarded (libtiff warns "Discarding … bytes to avoid buffer overrun"), input that runs out
 * ends the block short (its caller refuses a short block). geotiff.js decoded the whole stream into an array that
 * grew with it: 5 MiB of runs asked for 335 MB and crashed serverless-offline (a helper's probe).
 */
export function packbitsAtMost(compressed: Uint8Array, maxBytes: number): Uint8Array {
  const out = new Uint8Array(maxBytes);
  let at = 0;
  let i = 0;
  while (i < compressed.length && at < maxBytes) {
    const n = (compressed[i++] << 24) >> 24; // the header byte, signed
    if (n >= 0) {
      const literal = compressed.subarray(i, Math.min(i + n + 1, compressed.length));
      const kept = literal.subarray(0, maxBytes - at);
      out.set(kept, at);
      at += kept.length;
      i += n + 1;
    } else if (n !== -128) {
      if (i >= compressed.length) break;
      const end = Math.min(at + 1 - n, maxBytes);
      out.fill(compressed[i++], at, end);
      at = end;
    }
  }
  return out.subarray(0, at);
}
