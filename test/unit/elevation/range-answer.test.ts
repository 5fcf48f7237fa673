import {
  RangeVerificationError,
  tryParseContentRange,
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
