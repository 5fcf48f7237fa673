/**
 * HTTP byte ranges (RFC 9110 §14): the one piece of the data layer worth testing without a socket.
 * Only a single range is served; a multi-range request is answered in full (RFC 9110 lets a server
 * ignore Range), because no COG reader sends one and multipart bodies would only add code.
 */

/** Inclusive byte interval within a file. */
export interface ByteRange {
  start: number;
  end: number;
}

export type RangeDecision =
  { kind: 'full' } | { kind: 'partial'; range: ByteRange } | { kind: 'unsatisfiable' };

const SINGLE_RANGE = /^bytes=(\d*)-(\d*)$/;

/**
 * Decides what part of a file of `size` bytes a `Range` header asks for.
 * Syntactically invalid or multi-range headers are ignored (full answer), as the RFC allows;
 * ranges that start beyond the end, or suffixes of 0 bytes, are unsatisfiable (416).
 */
export function decideRange(header: string | undefined, size: number): RangeDecision {
  if (header === undefined) return { kind: 'full' };
  const match = SINGLE_RANGE.exec(header.trim());
  if (!match) return { kind: 'full' };
  const [, first = '', last = ''] = match;
  if (first === '' && last === '') return { kind: 'full' };

  if (first === '') {
    const suffixLength = Number(last);
    if (suffixLength === 0 || size === 0) return { kind: 'unsatisfiable' };
    return { kind: 'partial', range: { start: Math.max(0, size - suffixLength), end: size - 1 } };
  }

  const start = Number(first);
  const requestedEnd = last === '' ? Infinity : Number(last);
  if (requestedEnd < start) return { kind: 'full' };
  if (start >= size) return { kind: 'unsatisfiable' };
  return { kind: 'partial', range: { start, end: Math.min(requestedEnd, size - 1) } };
}

export function contentRange(range: ByteRange, size: number): string {
  return `bytes ${range.start}-${range.end}/${size}`;
}

export function unsatisfiedContentRange(size: number): string {
  return `bytes */${size}`;
}
