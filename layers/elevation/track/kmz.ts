/**
 * KMZ: a zip whose main document is its first `.kml` entry in archive order, in any folder: Google Earth reads
 * that one and ignores later ones, and so does OGR (`doc.kml` is only the usual name). Entries are found through the zip's central directory (zip-directory.ts) and each one is checked
 * against it: unzipped size and CRC-32 must match, or the request is refused, since a damaged byte in a
 * coordinate would otherwise answer the height of another place. Deflate runs in node:zlib with
 * `maxOutputLength` set to what is left of `maxUnzippedBytes`, so a zip bomb stops at the limit with a 413
 * whatever its headers claim (overlapping entries too: the budget is over all entries). Only the main
 * document is read as KML; every other entry (icons, overlays) is copied into the answer unchanged, in the
 * same order.
 */
import { crc32, inflateRawSync } from 'node:zlib';
import { Zip, ZipDeflate, ZipPassThrough } from 'fflate';
import { InvalidRequestError, PayloadTooLargeError, excerpt } from '../errors';
import { readZipDirectory, type ZipRecord } from './zip-directory';

/** Real KMZs hold a document and some icons; thousands of entries only cost time. */
const MAX_ENTRIES = 1000;
const STORED = 0;
const DEFLATE = 8;

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
  let left = maxUnzippedBytes;
  const records = readZipDirectory(bytes, MAX_ENTRIES);
  refuseRepeatedNames(records);
  const entries = records.map((record): KmzEntry => {
    if (record.method !== STORED && record.method !== DEFLATE) {
      throw new InvalidRequestError(
        `The KMZ entry '${excerpt(record.name)}' uses an unsupported compression method.`,
      );
    }
    if (record.size > left) throw tooLarge(maxUnzippedBytes);
    const data = unzipEntry(record, left, maxUnzippedBytes);
    if (data.length !== record.size || crc32(data) !== record.crc32) {
      throw new InvalidRequestError(
        `The KMZ entry '${excerpt(record.name)}' is damaged: its ${data.length !== record.size ? 'size' : 'CRC-32'} does not match the archive's directory. Send the file again, or its doc.kml alone.`,
      );
    }
    left -= data.length;
    return { name: record.name, data, stored: record.method === STORED };
  });
  return { entries, mainIndex: mainDocumentIndex(entries) };
}

/**
 * Two entries of one name: which is meant is unclear (Google Earth reads the first one, unzip tools leave the
 * last on disk), and the answer could not hold both under that name for the tools that read it. Refused.
 */
function refuseRepeatedNames(records: readonly ZipRecord[]): void {
  const seen = new Set<string>();
  for (const { name } of records) {
    if (seen.has(name)) {
      throw new InvalidRequestError(
        `The KMZ holds two entries named '${name.slice(0, 100)}': which one is meant is unclear. Zip the files again, each once.`,
      );
    }
    seen.add(name);
  }
}

/** The entry's bytes, never more than `left` of them (a larger output is a 413, whatever the header said). */
function unzipEntry(record: ZipRecord, left: number, limit: number): Uint8Array {
  if (record.method === STORED) return record.data;
  try {
    // maxOutputLength must be at least 1; one byte over an empty budget fails the size check instead.
    const out = inflateRawSync(record.data, { maxOutputLength: Math.max(1, left) });
    return new Uint8Array(out.buffer, out.byteOffset, out.byteLength); // a Buffer's extras are not ours to hand on
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === 'ERR_BUFFER_TOO_LARGE') throw tooLarge(limit);
    throw new InvalidRequestError(
      `The KMZ entry '${excerpt(record.name)}' cannot be unzipped: ${(error as Error).message}.`,
    );
  }
}

/**
 * The first `.kml` in archive order, in any folder, as Google Earth and OGR take it: filling a later `doc.kml`
 * answered heights in a document no viewer shows. A folder entry (`trip.kml/`) does not end in `.kml`.
 */
function mainDocumentIndex(entries: readonly KmzEntry[]): number {
  const index = entries.findIndex((e) => /\.kml$/i.test(e.name) && !isAppleDouble(e.name));
  if (index === -1) {
    // A zip of another track file (route.gpx.zip): say what it holds and what to send instead.
    const track = entries.find((e) => /\.(gpx|tcx|geojson|json)$/i.test(e.name));
    throw new InvalidRequestError(
      track
        ? `The zip holds '${track.name.slice(0, 100)}', not a KML: a zip is read as a KMZ only; send that file itself, or gzip-compressed.`
        : 'The KMZ holds no .kml file (a KMZ is a zip whose first .kml, usually doc.kml, is the document).',
    );
  }
  return index;
}

/**
 * The archive again, with the main document replaced: its entries in their order, each under its own name (written
 * one by one, never as keys of an object, where a name such as `__proto__` is not a key).
 */
export function writeKmz(archive: KmzArchive, mainDocument: Uint8Array): Uint8Array {
  const parts: Uint8Array[] = [];
  const zip = new Zip((error, chunk) => {
    if (error) throw error;
    parts.push(chunk);
  });
  archive.entries.forEach((entry, i) => {
    const file = entry.stored ? new ZipPassThrough(entry.name) : new ZipDeflate(entry.name, { level: 6 });
    zip.add(file);
    file.push(i === archive.mainIndex ? mainDocument : entry.data, true);
  });
  zip.end();
  return Buffer.concat(parts);
}

function tooLarge(limit: number): PayloadTooLargeError {
  return new PayloadTooLargeError(
    `The KMZ unzips to more than ${limit / (1024 * 1024)} MiB, the limit (MAX_KMZ_UNZIPPED_MB). Send the doc.kml itself, or a smaller archive.`,
  );
}

/**
 * macOS's resource-fork entries (AppleDouble): `__MACOSX/…` and `._name` beside each file, which Finder's
 * "Compress" adds. Binary, never a KML, whatever their name ends in.
 */
function isAppleDouble(name: string): boolean {
  return /(^|\/)__MACOSX\//.test(name) || /(^|\/)\._[^/]*$/.test(name);
}
