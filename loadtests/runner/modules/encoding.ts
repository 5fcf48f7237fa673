/** The `k6/encoding` module: base64 in k6's four flavours (std, rawstd, url, rawurl). */
type Flavour = 'std' | 'rawstd' | 'url' | 'rawurl';

/** Go's base64.URLEncoding: the URL alphabet, padded (Node's 'base64url' is Go's RawURLEncoding). */
export function paddedBase64Url(bytes: Buffer): string {
  return bytes.toString('base64url').padEnd(Math.ceil(bytes.length / 3) * 4, '=');
}

function toBytes(input: string | ArrayBuffer): Buffer {
  return typeof input === 'string' ? Buffer.from(input) : Buffer.from(new Uint8Array(input));
}

export function createEncodingModule() {
  function b64encode(input: string | ArrayBuffer, flavour: Flavour = 'std'): string {
    const bytes = toBytes(input);
    if (flavour === 'url') return paddedBase64Url(bytes);
    if (flavour === 'rawurl') return bytes.toString('base64url');
    const std = bytes.toString('base64');
    return flavour === 'rawstd' ? std.replace(/=+$/, '') : std;
  }
  function b64decode(input: string, flavour: Flavour = 'std', format?: 's'): string | ArrayBuffer {
    const bytes = Buffer.from(input, flavour === 'url' || flavour === 'rawurl' ? 'base64url' : 'base64');
    if (format === 's') return bytes.toString();
    return bytes.buffer.slice(bytes.byteOffset, bytes.byteOffset + bytes.byteLength);
  }
  return { b64encode, b64decode };
}
