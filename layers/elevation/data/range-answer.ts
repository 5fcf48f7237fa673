/**
 * What a range read answered, and the check every answer passes before its bytes are used or cached. A data
 * layer that is faulty (a proxy cutting bodies short, a server ignoring Range, a wrong Content-Range, an object
 * replaced while we read it) must never turn into heights: it becomes a transient error (retried, then 502).
 */
import { ObjectChangedError } from '../errors';

export interface RangeAnswer {
  bytes: Uint8Array;
  /** First byte position the bytes are from (Content-Range start; the asked offset for files and sliced 200s). */
  start: number;
  /** Size of the whole object when the source says so (Content-Range total, Content-Length of a 200, stat). */
  total: number | null;
  /** Which version of the object answered (ETag, Last-Modified); fields the source did not send are null. */
  identity: ObjectIdentity;
}

export interface ObjectIdentity {
  etag: string | null;
  lastModified: string | null;
}

export const UNKNOWN_IDENTITY: ObjectIdentity = { etag: null, lastModified: null };

/** A check failed: the answer is not the bytes asked for. Transient (the next attempt may be fine). */
export class RangeVerificationError extends Error {}

/** The version pinned when an object is first read; later answers must come from the same version. */
export interface PinnedObject {
  identity: ObjectIdentity;
  total: number | null;
}

/**
 * Checks an answer for `length` bytes at `offset`: it starts there, it is exactly as long as the object allows
 * (shorter only where the object ends), and it comes from the pinned version of the object. Returns the bytes.
 */
export function verifyRangeAnswer(
  url: string,
  offset: number,
  length: number,
  answer: RangeAnswer,
  pinned: PinnedObject | null,
): Uint8Array {
  if (pinned && changed(pinned, answer)) {
    throw new ObjectChangedError(url, `${url} changed while in use (${describe(pinned, answer)})`);
  }
  if (answer.start !== offset) {
    throw new RangeVerificationError(
      `${url}: asked for bytes from ${offset}, the answer starts at ${answer.start}`,
    );
  }
  const total = answer.total ?? pinned?.total ?? null;
  const expected = total === null ? length : Math.max(0, Math.min(length, total - offset));
  if (answer.bytes.byteLength !== expected) {
    throw new RangeVerificationError(
      `${url}: asked for ${length} bytes at ${offset}${total === null ? '' : ` of ${total}`}, got ${answer.bytes.byteLength}`,
    );
  }
  return answer.bytes;
}

function changed(pinned: PinnedObject, answer: RangeAnswer): boolean {
  const a = pinned.identity;
  const b = answer.identity;
  return (
    differs(a.etag, b.etag) ||
    differs(a.lastModified, b.lastModified) ||
    (pinned.total !== null && answer.total !== null && pinned.total !== answer.total)
  );
}

function differs(a: string | null, b: string | null): boolean {
  return a !== null && b !== null && a !== b;
}

function describe(pinned: PinnedObject, answer: RangeAnswer): string {
  return `was ${pinned.identity.etag ?? pinned.identity.lastModified}/${pinned.total} bytes, now ${answer.identity.etag ?? answer.identity.lastModified}/${answer.total} bytes`;
}

/** `bytes 0-99/1000` -> {start: 0, end: 99, total: 1000}; `*` total -> null; null when malformed. */
export function tryParseContentRange(
  header: string | undefined,
): { start: number; end: number; total: number | null } | null {
  const match = /^bytes (\d+)-(\d+)\/(\d+|\*)$/i.exec(header?.trim() ?? '');
  if (!match) return null;
  const start = Number(match[1]);
  const end = Number(match[2]);
  const total = match[3] === '*' ? null : Number(match[3]);
  if (end < start || (total !== null && end >= total)) return null;
  return { start, end, total };
}

/** `bytes *\/1000` (a 416's Content-Range) -> 1000; null otherwise. */
export function tryParseUnsatisfiedRange(header: string | undefined): number | null {
  const match = /^bytes \*\/(\d+)$/i.exec(header?.trim() ?? '');
  return match ? Number(match[1]) : null;
}
