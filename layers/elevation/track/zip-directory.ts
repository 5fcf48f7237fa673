/**
 * A zip's central directory (PKWARE APPNOTE 6.3.10, 4.3.12 and 4.3.16): the list of entries with, for each,
 * the CRC-32 and sizes its writer recorded and where its data starts. The directory, not the local headers, is
 * what unzip tools trust: it is written after the data, so it holds the CRC and sizes even of entries streamed
 * with a data descriptor (local header fields zero), and it tells where an archive cut short ends (no
 * directory: refused). fflate's streaming `Unzip`, used before, read the local headers and checked no CRC, so
 * a KMZ with one flipped byte was read as it was.
 *
 * Not supported, and refused with a message that says so: ZIP64 (a KMZ is bounded far below 4 GiB by
 * MAX_KMZ_UNZIPPED_MB), archives split over several files, encrypted entries.
 */
import { InvalidRequestError, excerpt } from '../errors';

export interface ZipRecord {
  readonly name: string;
  /** 0 stored, 8 deflate; others are refused by the caller, which names the entry. */
  readonly method: number;
  readonly crc32: number;
  readonly compressedSize: number;
  readonly size: number;
  /** The entry's compressed bytes: a view of the archive, not a copy. */
  readonly data: Uint8Array;
}

const EOCD_SIGNATURE = 0x06054b50;
const EOCD_BYTES = 22;
const CENTRAL_SIGNATURE = 0x02014b50;
const CENTRAL_BYTES = 46;
const LOCAL_SIGNATURE = 0x04034b50;
const LOCAL_BYTES = 30;
/** An EOCD's comment is at most 65,535 bytes: how far from the end its signature can be. */
const MAX_COMMENT_BYTES = 0xffff;
const FLAG_ENCRYPTED = 0x0001;
const FLAG_UTF8_NAME = 0x0800;

/** The archive's entries in directory order; throws `InvalidRequestError` when it is not a readable zip. */
export function readZipDirectory(bytes: Uint8Array, maxEntries: number): ZipRecord[] {
  const view = new DataView(bytes.buffer, bytes.byteOffset, bytes.byteLength);
  const eocd = endOfDirectory(view);
  if (view.getUint16(eocd + 4, true) !== 0 || view.getUint16(eocd + 6, true) !== 0)
    throw unreadable('it is split over several files');
  const count = view.getUint16(eocd + 10, true);
  const size = view.getUint32(eocd + 12, true);
  const offset = view.getUint32(eocd + 16, true);
  if (count === 0xffff || size === 0xffffffff || offset === 0xffffffff)
    throw unreadable('it is a ZIP64 archive, which is not supported');
  if (count > maxEntries) throw new InvalidRequestError(`The KMZ has more than ${maxEntries} files.`);
  if (offset + size > eocd) throw unreadable('its central directory lies outside the file');
  const records: ZipRecord[] = [];
  for (let at = offset, i = 0; i < count; i++) {
    const { record, next } = centralRecord(view, bytes, at, offset + size);
    records.push(record);
    at = next;
  }
  return records;
}

/** The offset of the end-of-central-directory record: the last signature whose comment ends the file. */
function endOfDirectory(view: DataView): number {
  const lowest = Math.max(0, view.byteLength - EOCD_BYTES - MAX_COMMENT_BYTES);
  for (let at = view.byteLength - EOCD_BYTES; at >= lowest; at--) {
    if (
      view.getUint32(at, true) === EOCD_SIGNATURE &&
      at + EOCD_BYTES + view.getUint16(at + 20, true) === view.byteLength
    )
      return at;
  }
  throw unreadable('it has no central directory (cut short, or not a zip)');
}

function centralRecord(
  view: DataView,
  bytes: Uint8Array,
  at: number,
  end: number,
): { record: ZipRecord; next: number } {
  if (at + CENTRAL_BYTES > end || view.getUint32(at, true) !== CENTRAL_SIGNATURE)
    throw unreadable('its central directory is damaged');
  const flags = view.getUint16(at + 8, true);
  const nameLength = view.getUint16(at + 28, true);
  const next =
    at + CENTRAL_BYTES + nameLength + view.getUint16(at + 30, true) + view.getUint16(at + 32, true);
  if (next > end) throw unreadable('its central directory is damaged');
  const nameBytes = bytes.subarray(at + CENTRAL_BYTES, at + CENTRAL_BYTES + nameLength);
  // Without the UTF-8 flag a name is in code page 437; latin1 reads its ASCII part, all KMZ names need.
  const name = new TextDecoder(flags & FLAG_UTF8_NAME ? 'utf-8' : 'latin1').decode(nameBytes);
  if (flags & FLAG_ENCRYPTED)
    throw new InvalidRequestError(`The KMZ entry '${excerpt(name)}' is encrypted; send it unencrypted.`);
  const compressedSize = view.getUint32(at + 20, true);
  const start = dataStart(view, view.getUint32(at + 42, true), name);
  if (start + compressedSize > bytes.length)
    throw unreadable(`the entry '${excerpt(name)}' runs past the end of the file`);
  const record: ZipRecord = {
    name,
    method: view.getUint16(at + 10, true),
    crc32: view.getUint32(at + 16, true),
    compressedSize,
    size: view.getUint32(at + 24, true),
    data: bytes.subarray(start, start + compressedSize),
  };
  return { record, next };
}

/** Where an entry's data starts: after its local header, whose name and extra field lengths may differ. */
function dataStart(view: DataView, local: number, name: string): number {
  if (local + LOCAL_BYTES > view.byteLength || view.getUint32(local, true) !== LOCAL_SIGNATURE)
    throw unreadable(`the entry '${excerpt(name)}' is not where its directory says`);
  return local + LOCAL_BYTES + view.getUint16(local + 26, true) + view.getUint16(local + 28, true);
}

function unreadable(why: string): InvalidRequestError {
  return new InvalidRequestError(`The file is not a readable KMZ (zip) archive: ${why}.`);
}
