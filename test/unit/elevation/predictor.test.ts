import fc from 'fast-check';
import {
  swapBytes,
  undoFloatingPointPredictor,
  undoHorizontalPredictor,
} from '../../../layers/elevation/raster/predictor';

// Forward predictors written here from the TIFF 6.0 spec (PREDICTOR=2) and libtiff's fpDiff (PREDICTOR=3),
// independent of the library, so a round trip checks the library's inverse.

/** PREDICTOR=2 on native-endian samples: each sample minus the one `spp` before it in the same row. */
function applyHorizontalPredictor(
  samples: Uint16Array | Uint32Array | Uint8Array,
  width: number,
  spp: number,
): void {
  const rowLength = width * spp;
  for (let rowStart = 0; rowStart < samples.length; rowStart += rowLength)
    for (let i = rowStart + rowLength - 1; i >= rowStart + spp; i--) samples[i] -= samples[i - spp];
}

/** PREDICTOR=3: per row, split little-endian samples into byte planes (most significant first), then difference bytes. */
function applyFloatingPointPredictor(
  bytes: Uint8Array,
  width: number,
  bytesPerSample: number,
  spp: number,
): Uint8Array {
  const rowSamples = width * spp;
  const rowBytes = rowSamples * bytesPerSample;
  const out = new Uint8Array(bytes.length);
  for (let base = 0; base < bytes.length; base += rowBytes) {
    for (let i = 0; i < rowSamples; i++)
      for (let b = 0; b < bytesPerSample; b++)
        out[base + b * rowSamples + i] = bytes[base + i * bytesPerSample + (bytesPerSample - 1 - b)];
    for (let i = base + rowBytes - 1; i >= base + spp; i--) out[i] = (out[i] - out[i - spp]) & 0xff;
  }
  return out;
}

const asBytes = (view: ArrayBufferView) => new Uint8Array(view.buffer, view.byteOffset, view.byteLength);

describe('PREDICTOR=2 (horizontal differencing)', () => {
  it.each([
    [1, 1],
    [2, 1],
    [4, 1],
    [2, 3],
  ])('restores %i-byte samples with %i samples per pixel', (bytesPerSample, spp) => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        fc.integer(),
        (width, height, seed) => {
          const count = width * height * spp;
          const original =
            bytesPerSample === 1
              ? new Uint8Array(count)
              : bytesPerSample === 2
                ? new Uint16Array(count)
                : new Uint32Array(count);
          let state = seed >>> 0;
          for (let i = 0; i < count; i++) original[i] = state = (Math.imul(state, 1103515245) + 12345) >>> 0;
          const encoded = original.slice();
          applyHorizontalPredictor(encoded, width, spp);
          undoHorizontalPredictor(asBytes(encoded), width, bytesPerSample, spp);
          expect(Array.from(encoded)).toEqual(Array.from(original));
        },
      ),
    );
  });

  it.each([1, 2])('restores 64-bit samples (Float64 bit patterns) with %i samples per pixel', (spp) => {
    // The forward predictor in BigInt (modulo 2^64, as libtiff's uint64 differences): carries across the halves.
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 9 }),
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.double(), { minLength: 8, maxLength: 8 }),
        (width, height, pool) => {
          const original = Float64Array.from({ length: width * height * spp }, (_, i) => pool[i % 8]);
          const encoded = new BigUint64Array(original.buffer.slice(0));
          const rowLength = width * spp;
          for (let rowStart = 0; rowStart < encoded.length; rowStart += rowLength)
            for (let i = rowStart + rowLength - 1; i >= rowStart + spp; i--) encoded[i] -= encoded[i - spp];
          undoHorizontalPredictor(asBytes(encoded), width, 8, spp);
          expect(Array.from(new Float64Array(encoded.buffer))).toEqual(Array.from(original));
        },
      ),
    );
  });

  it('carries from the low half into the high half of a 64-bit sample', () => {
    const words = new Uint32Array([0xffffffff, 0, 1, 0]); // 2^32 - 1, then a difference of 1
    undoHorizontalPredictor(asBytes(words), 2, 8, 1);
    expect(Array.from(words)).toEqual([0xffffffff, 0, 0, 1]); // 2^32
  });

  it('restores Int16 heights with negative values (wrap-around arithmetic)', () => {
    const heights = Int16Array.from([-32768, 459, 460, -12, 32767, 0, 1, -1]);
    const encoded = new Uint16Array(heights.buffer.slice(0));
    applyHorizontalPredictor(encoded, 4, 1);
    undoHorizontalPredictor(asBytes(encoded), 4, 2, 1);
    expect(Array.from(new Int16Array(encoded.buffer))).toEqual(Array.from(heights));
  });
});

describe('PREDICTOR=3 (floating point)', () => {
  it('restores Float32 blocks of several rows', () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 40 }), // rows of a multiple of 4 samples take the transposing fast path
        fc.integer({ min: 1, max: 4 }),
        fc.array(fc.float({ noNaN: true }), { minLength: 32, maxLength: 32 }),
        (width, height, pool) => {
          const original = Float32Array.from({ length: width * height }, (_, i) => pool[i % pool.length]);
          const encoded = applyFloatingPointPredictor(asBytes(original.slice()), width, 4, 1);
          const decoded = undoFloatingPointPredictor(encoded, width, 4, 1);
          expect(Array.from(new Float32Array(decoded.buffer, decoded.byteOffset, width * height))).toEqual(
            Array.from(original),
          );
        },
      ),
    );
  });

  it('restores Float64 samples and interleaved samples per pixel', () => {
    const original = Float64Array.from([459.25, -0.5, 1e300, 3.14159, 0, -2e-10]);
    const encoded = applyFloatingPointPredictor(asBytes(original.slice()), 3, 8, 2);
    const decoded = undoFloatingPointPredictor(encoded, 3, 8, 2);
    expect(Array.from(new Float64Array(decoded.buffer, decoded.byteOffset, 6))).toEqual(Array.from(original));
  });
});

describe('swapBytes (big-endian files)', () => {
  it('reverses the bytes of every sample', () => {
    const two = Uint8Array.from([1, 2, 3, 4]);
    swapBytes(two, 2);
    expect(Array.from(two)).toEqual([2, 1, 4, 3]);
    const four = Uint8Array.from([1, 2, 3, 4, 5, 6, 7, 8]);
    swapBytes(four, 4);
    expect(Array.from(four)).toEqual([4, 3, 2, 1, 8, 7, 6, 5]);
  });

  it('leaves 8-bit samples alone', () => {
    const bytes = Uint8Array.from([1, 2, 3]);
    swapBytes(bytes, 1);
    expect(Array.from(bytes)).toEqual([1, 2, 3]);
  });
});
