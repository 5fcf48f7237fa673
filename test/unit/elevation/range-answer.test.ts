import {
  RangeVerificationError,
  tryParseContentRange,
  tryParseUnsatisfiedRange,
  verifyRangeAnswer,
  type RangeAnswer,
} from '../../../layers/elevation/data/range-answer';
import { ObjectChangedError } from '../../../layers/elevation';

const URL_ = 'http://data/tile.tif';
const identity = { etag: '"v1"', lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' };

function answer(start: number, length: number, total: number | null, etag = '"v1"'): RangeAnswer {
  return { bytes: new Uint8Array(length), start, total, identity: { ...identity, etag } };
}

describe('verifyRangeAnswer', () => {
  it('accepts exactly the asked bytes', () => {
    expect(verifyRangeAnswer(URL_, 100, 50, answer(100, 50, 1000), null).byteLength).toBe(50);
  });

  it('accepts fewer bytes only where the object ends', () => {
    expect(verifyRangeAnswer(URL_, 990, 50, answer(990, 10, 1000), null).byteLength).toBe(10);
    expect(verifyRangeAnswer(URL_, 1000, 50, answer(1000, 0, 1000), null).byteLength).toBe(0);
  });

  it('rejects a short but self-consistent answer (fewer bytes than the object has)', () => {
    expect(() => verifyRangeAnswer(URL_, 100, 50, answer(100, 25, 1000), null)).toThrow(
      RangeVerificationError,
    );
  });

  it('rejects an answer that starts elsewhere than asked', () => {
    expect(() => verifyRangeAnswer(URL_, 100, 50, answer(101, 50, 1000), null)).toThrow(/starts at 101/);
  });

  it('rejects a short answer when the source does not say the size', () => {
    expect(() => verifyRangeAnswer(URL_, 0, 50, answer(0, 49, null), null)).toThrow(RangeVerificationError);
  });

  it('uses the pinned size when an answer does not repeat it', () => {
    const pinned = { identity, total: 1000 };
    expect(verifyRangeAnswer(URL_, 990, 50, answer(990, 10, null), pinned).byteLength).toBe(10);
  });

  it('reports a changed ETag or size as a changed object, not as data', () => {
    const pinned = { identity, total: 1000 };
    expect(() => verifyRangeAnswer(URL_, 0, 10, answer(0, 10, 1000, '"v2"'), pinned)).toThrow(
      ObjectChangedError,
    );
    expect(() => verifyRangeAnswer(URL_, 0, 10, answer(0, 10, 2000), pinned)).toThrow(ObjectChangedError);
  });
});

describe('tryParseContentRange', () => {
  it('parses a complete range and an unknown total', () => {
    expect(tryParseContentRange('bytes 0-99/1000')).toEqual({ start: 0, end: 99, total: 1000 });
    expect(tryParseContentRange('bytes 5-9/*')).toEqual({ start: 5, end: 9, total: null });
  });

  it('returns null for malformed or impossible ranges', () => {
    expect(tryParseContentRange(undefined)).toBeNull();
    expect(tryParseContentRange('bytes 9-5/100')).toBeNull();
    expect(tryParseContentRange('bytes 0-100/100')).toBeNull();
    expect(tryParseContentRange('items 0-1/2')).toBeNull();
  });
});

describe('verifyRangeAnswer when sizes are unknown, and what its errors say', () => {
  it('accepts the asked bytes from a source that never says the size', () => {
    expect(verifyRangeAnswer(URL_, 100, 50, answer(100, 50, null), null).byteLength).toBe(50);
    expect(verifyRangeAnswer(URL_, 0, 50, answer(0, 50, null), { identity, total: null }).byteLength).toBe(
      50,
    );
  });

  it('accepts a size learnt after the first read gave none: a size appearing is not a change', () => {
    const pinned = { identity, total: null };
    expect(verifyRangeAnswer(URL_, 0, 10, answer(0, 10, 1000), pinned).byteLength).toBe(10);
  });

  it('says what was asked and what came, with the size when known', () => {
    expect(() => verifyRangeAnswer(URL_, 100, 50, answer(100, 25, 1000), null)).toThrow(
      new RangeVerificationError('http://data/tile.tif: asked for 50 bytes at 100 of 1000, got 25'),
    );
    expect(() => verifyRangeAnswer(URL_, 0, 50, answer(0, 49, null), null)).toThrow(
      new RangeVerificationError('http://data/tile.tif: asked for 50 bytes at 0, got 49'),
    );
  });

  it('says which version was pinned and which answered, by ETag, else by Last-Modified', () => {
    const pinned = { identity, total: 1000 };
    expect(() => verifyRangeAnswer(URL_, 0, 10, answer(0, 10, 1000, '"v2"'), pinned)).toThrow(
      'http://data/tile.tif changed while in use (was "v1"/1000 bytes, now "v2"/1000 bytes)',
    );
    const byDate = { identity: { etag: null, lastModified: 'Mon, 01 Jan 2024 00:00:00 GMT' }, total: 1000 };
    const later: RangeAnswer = {
      bytes: new Uint8Array(10),
      start: 0,
      total: 1000,
      identity: { etag: null, lastModified: 'Tue, 02 Jan 2024 00:00:00 GMT' },
    };
    expect(() => verifyRangeAnswer(URL_, 0, 10, later, byDate)).toThrow(
      'http://data/tile.tif changed while in use (was Mon, 01 Jan 2024 00:00:00 GMT/1000 bytes, now Tue, 02 Jan 2024 00:00:00 GMT/1000 bytes)',
    );
  });
});

describe('Content-Range headers, exactly', () => {
  it('parses a one-byte range and a header with surrounding spaces, in any letter case', () => {
    expect(tryParseContentRange('bytes 5-5/10')).toEqual({ start: 5, end: 5, total: 10 });
    expect(tryParseContentRange('  BYTES 0-9/10 ')).toEqual({ start: 0, end: 9, total: 10 });
  });

  it('refuses anything before or after the range', () => {
    expect(tryParseContentRange('xbytes 0-9/10')).toBeNull();
    expect(tryParseContentRange('bytes 0-9/10x')).toBeNull();
    expect(tryParseContentRange('bytes 0-9/10, bytes 20-29/100')).toBeNull();
  });

  it('reads the size of a 416 answer, and nothing else', () => {
    expect(tryParseUnsatisfiedRange('bytes */1000')).toBe(1000);
    expect(tryParseUnsatisfiedRange(' bytes */1000 ')).toBe(1000);
    expect(tryParseUnsatisfiedRange(undefined)).toBeNull();
    expect(tryParseUnsatisfiedRange('xbytes */1000')).toBeNull();
    expect(tryParseUnsatisfiedRange('bytes */1000x')).toBeNull();
    expect(tryParseUnsatisfiedRange('bytes 0-9/1000')).toBeNull();
  });
});
