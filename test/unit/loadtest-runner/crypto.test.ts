/**
 * k6/crypto's output encodings as k6's Hasher.Digest writes them (js/modules/k6/crypto/crypto.go): 'base64'
 * and 'base64url' padded (Go's StdEncoding, URLEncoding), 'base64rawurl' unpadded, 'hex', 'binary'; any
 * other encoding is refused with k6's message.
 */
import { createCryptoModule } from '../../../loadtests/runner/modules/crypto';

/** sha256 of the empty string, whose base64 has both URL-unsafe characters and padding. */
const EMPTY_SHA256 = {
  hex: 'e3b0c44298fc1c149afbf4c8996fb92427ae41e4649b934ca495991b7852b855',
  base64: '47DEQpj8HBSa+/TImW+5JCeuQeRkm5NMpJWZG3hSuFU=',
  base64url: '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU=',
  base64rawurl: '47DEQpj8HBSa-_TImW-5JCeuQeRkm5NMpJWZG3hSuFU',
};

describe('k6/crypto output encodings', () => {
  const crypto = createCryptoModule() as unknown as Record<string, (...args: unknown[]) => unknown> & {
    createHash: (alg: string) => { update: (s: string) => void; digest: (enc: string) => unknown };
  };

  it.each(Object.entries(EMPTY_SHA256))('writes %s as k6 (Go) does', (encoding, want) => {
    expect(crypto.sha256('', encoding)).toBe(want);
    const h = crypto.createHash('sha256');
    h.update('');
    expect(h.digest(encoding)).toBe(want);
  });

  it("refuses an encoding k6 does not know with k6's message, 'base64raw' included", () => {
    expect(() => crypto.sha256('', 'base64raw')).toThrow('invalid output encoding: base64raw');
    expect(() => crypto.md5('', 'latin1')).toThrow('invalid output encoding: latin1');
  });

  // k6's digest functions take the encoding as a Go string (Hasher.Digest(outputEncoding string)): a call without
  // it gets "" (sobek fills a missing argument with the zero value), which no case matches, so k6 throws rather
  // than return the raw bytes ('binary' must be asked for).
  it('refuses a digest without an encoding, as k6 does', () => {
    const message = /^invalid output encoding: $/;
    expect(() => crypto.sha256('')).toThrow(message);
    expect(() => crypto.md5('', undefined)).toThrow(message);
    expect(() => crypto.hmac('sha256', 'key', 'data')).toThrow(message);
    const h = crypto.createHash('sha256');
    h.update('');
    expect(() => (h.digest as () => unknown)()).toThrow(message);
    const mac = (crypto.createHMAC as (alg: string, key: string) => { digest: () => unknown })('sha1', 'key');
    expect(() => mac.digest()).toThrow(message);
    expect(crypto.sha256('', 'binary')).toBeInstanceOf(ArrayBuffer);
  });

  // k6's createHash/createHMAC (and the helpers over them): "invalid algorithm: <name>"; randomBytes: "invalid size"
  // below 1 byte.
  it("refuses an unknown algorithm and a size under 1 with k6's messages", () => {
    const create = crypto.createHMAC as (alg: string, key: string) => unknown;
    expect(() => crypto.createHash('sha3')).toThrow(new Error('invalid algorithm: sha3'));
    expect(() => create('whirlpool', 'k')).toThrow(new Error('invalid algorithm: whirlpool'));
    expect(() => crypto.hmac('sha3', 'k', 'd', 'hex')).toThrow(new Error('invalid algorithm: sha3'));
    for (const size of [0, -1]) expect(() => crypto.randomBytes(size)).toThrow(new Error('invalid size'));
  });
});
