import fc from 'fast-check';
import { encodePolyline, tryDecodePolyline } from '../../../layers/elevation/request/polyline';

/** From Google's "Encoded Polyline Algorithm Format" documentation. */
const GOOGLE_POLYLINE = '_p~iF~ps|U_ulLnnqC_mqNvxq`@';
const GOOGLE_POINTS: [number, number][] = [
  [38.5, -120.2],
  [40.7, -120.95],
  [43.252, -126.453],
];
const DECODE_TOLERANCE = 1e-9;

describe('Google encoded polylines', () => {
  it("decodes Google's documented example", () => {
    const decoded = tryDecodePolyline(GOOGLE_POLYLINE);
    expect(decoded).toHaveLength(3);
    decoded?.forEach(([lat, lon], i) => {
      expect(Math.abs(lat - GOOGLE_POINTS[i][0])).toBeLessThan(DECODE_TOLERANCE);
      expect(Math.abs(lon - GOOGLE_POINTS[i][1])).toBeLessThan(DECODE_TOLERANCE);
    });
  });

  it("encodes Google's documented example to the documented string", () => {
    expect(encodePolyline(GOOGLE_POINTS)).toBe(GOOGLE_POLYLINE);
  });

  it('encodes a single value like the documented example (-179.9832104 -> `~oia@)', () => {
    expect(encodePolyline([[-179.9832104, 0]]).startsWith('`~oia@')).toBe(true);
  });

  it('returns null for an empty string, a truncated value or characters outside the alphabet', () => {
    expect(tryDecodePolyline('')).toBeNull();
    expect(tryDecodePolyline('_p~iF')).toBeNull(); // a latitude without its longitude
    expect(tryDecodePolyline('_p~iF~ps|')).toBeNull(); // continuation bit set on the last character
    expect(tryDecodePolyline('_p~iF ps|U')).toBeNull(); // space (32) is below '?' (63)
    expect(tryDecodePolyline('\u00ff\u00ff')).toBeNull();
    // '??' is (0, 0); with '>' (62, below the alphabet) as its last character it is no polyline, not (0, -0.00016).
    expect(tryDecodePolyline('??')).toEqual([[0, 0]]);
    expect(tryDecodePolyline('?>')).toBeNull();
  });

  it('returns null instead of overflowing on an endless run of continuation characters', () => {
    expect(tryDecodePolyline('~'.repeat(40))).toBeNull();
    // Seven continuation characters are 35 bits, more than a value holds, even when a terminator follows.
    expect(tryDecodePolyline(`${'~'.repeat(6)}??`)).not.toBeNull();
    expect(tryDecodePolyline(`${'~'.repeat(7)}??`)).toBeNull();
  });

  it('round-trips any list of points on the 1e-5 degree grid', () => {
    const coordinate = (max: number) => fc.integer({ min: -max * 1e5, max: max * 1e5 }).map((v) => v / 1e5);
    fc.assert(
      fc.property(
        fc.array(fc.tuple(coordinate(90), coordinate(180)), { minLength: 1, maxLength: 30 }),
        (points) => {
          const decoded = tryDecodePolyline(encodePolyline(points));
          expect(decoded).toHaveLength(points.length);
          decoded?.forEach(([lat, lon], i) => {
            expect(Math.abs(lat - points[i][0])).toBeLessThan(DECODE_TOLERANCE);
            expect(Math.abs(lon - points[i][1])).toBeLessThan(DECODE_TOLERANCE);
          });
        },
      ),
    );
  });

  it('never throws on arbitrary text', () => {
    fc.assert(
      fc.property(fc.oneof(fc.string(), fc.string({ unit: 'grapheme' })), (text) => {
        const decoded = tryDecodePolyline(text);
        expect(decoded === null || decoded.every(([a, b]) => Number.isFinite(a) && Number.isFinite(b))).toBe(
          true,
        );
      }),
    );
  });
});
