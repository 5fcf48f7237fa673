/**
 * KMZ: a zip whose main document is `doc.kml` (or, as Google Earth does, the first `.kml` at the archive's
 * root). Unzipped with fflate's streaming reader in small input slices while counting output bytes, so a zip
 * bomb stops at `maxUnzippedBytes` with a 413 whatever its headers claim, holding at most one slice's output
 * (deflate expands at most ~1032x) beyond the limit. Only the main document is read as KML; every other
 * entry (icons, overlays) is copied into the answer unchanged, in the same order.
 */
import { Unzip, UnzipInflate, UnzipPassThrough, zipSync, type Zippable } from 'fflate';
import { InvalidRequestError, PayloadTooLargeError } from '../errors';

/** 16 KiB of deflate input inflates to at most ~16.5 MiB: the memory one push can add past the limit. */
const INPUT_SLICE_BYTES = 16 * 1024;
/** Real KMZs hold a document and some icons; thousands of entries only cost time. */
const MAX_ENTRIES = 1000;

export interface KmzEntry {
  readonly name: string;
  readonly data: Uint8Array;
  /** Stored (not deflated) in the original; kept so on the way back. */
  readonly stored: boolean;
}

export interface KmzArchive {
  readonly entries: readonly KmzEntry[];
  readonly mainIndex: number;
}

export function readKmz(bytes: Uint8Array, maxUnzippedBytes: number): KmzArchive {
  const entries: KmzEntry[] = [];
  let total = 0;
  // fflate catches what ondata throws and hands it back as `error`: remember ours to answer it, not a wrapper.
  let failure: Error | null = null;
  const unzip = new Unzip((file) => {
    if (entries.length >= MAX_ENTRIES)
      throw new InvalidRequestError(`The KMZ has more than ${MAX_ENTRIES} files.`);
    if (file.compression !== 0 && file.compression !== 8) {
      throw new InvalidRequestError(`The KMZ entry '${file.name}' uses an unsupported compression method.`);
    }
    if ((file.originalSize ?? 0) > maxUnzippedBytes) throw tooLarge(maxUnzippedBytes);
    const chunks: Uint8Array[] = [];
    file.ondata = (error, data, final) => {
      if (error) {
        throw (
          failure ??
          new InvalidRequestError(`The KMZ entry '${file.name}' cannot be unzipped: ${error.message}.`)
        );
      }
      total += data.length;
      if (total > maxUnzippedBytes) throw (failure = tooLarge(maxUnzippedBytes));
      chunks.push(data);
      if (final) entries.push({ name: file.name, data: concat(chunks), stored: file.compression === 0 });
    };
    file.start();
  });
  unzip.register(UnzipInflate);
  unzip.register(UnzipPassThrough);
  try {
    for (let at = 0; at < bytes.length; at += INPUT_SLICE_BYTES) {
      unzip.push(bytes.subarray(at, at + INPUT_SLICE_BYTES), at + INPUT_SLICE_BYTES >= bytes.length);
    }
  } catch (error) {
    if (failure) throw failure;
    if (error instanceof InvalidRequestError || error instanceof PayloadTooLargeError) throw error;
    throw new InvalidRequestError(
      `The file is not a readable KMZ (zip) archive: ${(error as Error).message}.`,
    );
  }
  return { entries, mainIndex: mainDocumentIndex(entries) };
}

function mainDocumentIndex(entries: readonly KmzEntry[]): number {
  const doc = entries.findIndex((e) => e.name === 'doc.kml');
  const index = doc !== -1 ? doc : entries.findIndex((e) => !e.name.includes('/') && /\.kml$/i.test(e.name));
  if (index === -1) throw new InvalidRequestError('The KMZ holds no doc.kml (nor any .kml at its root).');
  return index;
}

/** The archive again, with the main document replaced. */
export function writeKmz(archive: KmzArchive, mainDocument: Uint8Array): Uint8Array {
  const files: Zippable = {};
  archive.entries.forEach((entry, i) => {
    const data = i === archive.mainIndex ? mainDocument : entry.data;
    files[entry.name] = [data, { level: entry.stored ? 0 : 6 }];
  });
  return zipSync(files);
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The KMZ unzips to more than ${limit / (1024 * 1024)} MiB, the limit (MAX_KMZ_UNZIPPED_MB). Send the doc.kml itself, or a smaller archive.`,
  );
}

function concat(chunks: readonly Uint8Array[]): Uint8Array {
  if (chunks.length === 1) return chunks[0];
  const out = new Uint8Array(chunks.reduce((n, c) => n + c.length, 0));
  let at = 0;
  for (const chunk of chunks) {
    out.set(chunk, at);
    at += chunk.length;
  }
  return out;
}
