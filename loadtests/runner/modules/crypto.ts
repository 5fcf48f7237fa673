/** The `k6/crypto` module: hashes, HMAC and random bytes over node:crypto. */
import { createHash, createHmac, randomBytes as nodeRandomBytes, type BinaryLike } from 'node:crypto';
import { paddedBase64Url } from './encoding.ts';

type Encoding = 'hex' | 'base64' | 'base64url' | 'base64rawurl' | 'binary';
const ALGORITHMS: Record<string, string> = {
  md4: 'md4',
  md5: 'md5',
  sha1: 'sha1',
  sha256: 'sha256',
  sha384: 'sha384',
  sha512: 'sha512',
  sha512_224: 'sha512-224',
  sha512_256: 'sha512-256',
  ripemd160: 'ripemd160',
};

function algorithm(name: string): string {
  const alg = ALGORITHMS[name];
  // k6's message (crypto.go createHash/createHMAC), so a script's error handling sees the same text.
  if (!alg) throw new Error(`invalid algorithm: ${name}`);
  return alg;
}

function data(input: string | ArrayBuffer): BinaryLike {
  return typeof input === 'string' ? input : new Uint8Array(input);
}

/**
 * As k6's Hasher.Digest (js/modules/k6/crypto/crypto.go): Go's base64.URLEncoding pads ('base64url'), its
 * unpadded form is 'base64rawurl' (Node's 'base64url' is that one); anything else is refused with k6's message.
 * No encoding is refused too: k6's encoding is a Go string, "" when the script leaves it out (or passes
 * undefined or null), and "" is no encoding it knows; the raw bytes are 'binary'.
 */
function output(digest: Buffer, encoding: Encoding | undefined): string | ArrayBuffer {
  switch (encoding) {
    case 'binary':
      return digest.buffer.slice(digest.byteOffset, digest.byteOffset + digest.byteLength) as ArrayBuffer;
    case 'hex':
    case 'base64':
      return digest.toString(encoding);
    case 'base64url':
      return paddedBase64Url(digest);
    case 'base64rawurl':
      return digest.toString('base64url');
    default:
      throw new Error(`invalid output encoding: ${String(encoding ?? '')}`);
  }
}

type Hashing = ReturnType<typeof createHash>;

/**
 * k6's Hasher: digest() gives the digest of everything updated so far and may be called again, with
 * more updates in between (Go's Sum does not finalise; node's digest() does). So each digest() is
 * taken from a fresh hash over the data so far, which works for HMAC too (node's Hmac has no copy()).
 */
class Hasher {
  private readonly parts: BinaryLike[] = [];
  constructor(private readonly make: () => Hashing) {}
  update(input: string | ArrayBuffer): void {
    // A copy: the script may reuse its buffer before the next digest().
    this.parts.push(typeof input === 'string' ? input : new Uint8Array(input.slice(0)));
  }
  digest(encoding?: Encoding): string | ArrayBuffer {
    const h = this.make();
    for (const part of this.parts) h.update(part);
    return output(h.digest(), encoding);
  }
}

export function createCryptoModule() {
  const hash = (name: string) => (input: string | ArrayBuffer, encoding?: Encoding) =>
    output(createHash(algorithm(name)).update(data(input)).digest(), encoding);
  return {
    ...Object.fromEntries(Object.keys(ALGORITHMS).map((name) => [name, hash(name)])),
    createHash: (name: string) => {
      const alg = algorithm(name);
      return new Hasher(() => createHash(alg));
    },
    createHMAC: (name: string, secret: string | ArrayBuffer) => {
      const alg = algorithm(name);
      const key = data(secret);
      return new Hasher(() => createHmac(alg, key) as unknown as Hashing);
    },
    hmac: (name: string, secret: string | ArrayBuffer, input: string | ArrayBuffer, encoding?: Encoding) =>
      output(createHmac(algorithm(name), data(secret)).update(data(input)).digest(), encoding),
    randomBytes: (size: number): ArrayBuffer => {
      // As k6: under 1 byte is refused (node would return an empty buffer for 0 and throw its own error below).
      if (!(size >= 1)) throw new Error('invalid size');
      const b = nodeRandomBytes(size);
      return b.buffer.slice(b.byteOffset, b.byteOffset + b.byteLength) as ArrayBuffer;
    },
  };
}
