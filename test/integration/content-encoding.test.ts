/**
 * Request bodies compressed by HTTP (`Content-Encoding`), in-process over the bundled sample: each one is
 * answered as the plain body is, a coding that cannot be undone is a 415, and a damaged or oversized one a 4xx.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { brotliCompressSync, deflateRawSync, deflateSync, gunzipSync, gzipSync } from 'node:zlib';
import { MAX_DECODED_BODY_BYTES } from '../../functions/content-encoding';
import { invoke, type Handler } from './support/api-gateway';
import { loadTrackHandlers, postFile, postProfile, type TrackHandlers } from './support/track-handlers';

const GPX = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
const LOCATIONS = JSON.stringify({ locations: '48.742275,9.101177|48.8,9.2', interpolation: 'cubic' });

let handlers: TrackHandlers;
beforeAll(async () => {
  handlers = await loadTrackHandlers();
});

/** A binary body as the gateways pass it (base64), with a Content-Encoding. */
function postEncoded(handler: Handler, route: string, body: Buffer, coding: string, base64 = true) {
  return invoke(handler, {
    method: 'POST',
    path: `/v1/sample${route}`,
    pathParameters: { dataset: 'sample' },
    body: base64 ? body.toString('base64') : body.toString('utf8'),
    isBase64Encoded: base64,
    headers: { 'content-type': 'application/octet-stream', 'content-encoding': coding },
  });
}

const plainLocations = () =>
  invoke(handlers.elevation, {
    method: 'POST',
    path: '/v1/sample',
    pathParameters: { dataset: 'sample' },
    body: LOCATIONS,
    headers: { 'content-type': 'application/json' },
  });

describe.each([
  ['gzip', gzipSync],
  ['x-gzip', gzipSync],
  ['deflate', deflateSync],
  ['deflate', deflateRawSync], // raw deflate, as some clients send it under that name
  ['br', brotliCompressSync],
  ['GZIP, identity', gzipSync],
])('Content-Encoding: %s', (coding, compress) => {
  it('answers /v1 as for the plain body', async () => {
    const [plain, encoded] = await Promise.all([
      plainLocations(),
      postEncoded(handlers.elevation, '', compress(Buffer.from(LOCATIONS)), coding),
    ]);
    expect(plain.status).toBe(200);
    expect(encoded.status).toBe(200);
    expect(encoded.json).toEqual(plain.json);
  });

  it('answers /file with the plain file filled (the coding was the transport, not the file)', async () => {
    const [plain, encoded] = await Promise.all([
      postFile(handlers, GPX),
      postEncoded(handlers.file, '/file', compress(GPX), coding),
    ]);
    expect(encoded.status).toBe(200);
    expect(encoded.headers['content-type']).toBe('application/gpx+xml');
    expect(encoded.body).toBe(plain.body);
  });

  it('answers /profile as for the plain file', async () => {
    const [plain, encoded] = await Promise.all([
      postProfile(handlers, GPX, { samples: '5' }),
      invoke(handlers.profile, {
        method: 'POST',
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: { samples: '5' },
        body: compress(GPX).toString('base64'),
        isBase64Encoded: true,
        headers: { 'content-encoding': coding },
      }),
    ]);
    expect(plain.status).toBe(200);
    expect(encoded.json).toEqual(plain.json);
  });
});

it('answers a gzip file sent with Content-Encoding: gzip as a gzip file (one coding undone, the file kept)', async () => {
  const response = await postEncoded(handlers.file, '/file', gzipSync(gzipSync(GPX)), 'gzip');
  expect(response.status).toBe(200);
  expect(response.headers['content-type']).toBe('application/gzip');
  const plain = await postFile(handlers, GPX);
  expect(gunzipSync(Buffer.from(response.body, 'base64')).toString('utf8')).toBe(plain.body);
});

it('reads a body with Content-Encoding: identity as it is', async () => {
  const response = await invoke(handlers.elevation, {
    method: 'POST',
    path: '/v1/sample',
    pathParameters: { dataset: 'sample' },
    body: LOCATIONS,
    headers: { 'content-type': 'application/json', 'content-encoding': 'identity' },
  });
  expect(response.json).toEqual((await plainLocations()).json);
});

describe('a coding that cannot be undone is a 415 naming the ones that can', () => {
  it.each(['compress', 'zstd', 'gzip, br', 'foo'])('%s', async (coding) => {
    const response = await postEncoded(handlers.elevation, '', gzipSync(Buffer.from(LOCATIONS)), coding);
    expect(response.status).toBe(415);
    expect((response.json as { error: string }).error).toBe(
      `Content-Encoding '${coding}' is not supported: send the body plain or with one of gzip, deflate, br.`,
    );
  });
});

describe('a compressed body that cannot be read is a 4xx saying why', () => {
  it('refuses a gzip body whose CRC-32 does not match (a damaged byte), never reading it as other locations', async () => {
    const damaged = gzipSync(Buffer.from(LOCATIONS));
    damaged[damaged.length - 8] ^= 1;
    const response = await postEncoded(handlers.elevation, '', damaged, 'gzip');
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      'The gzip-compressed request body cannot be decompressed (incorrect data check): send it again, or plain.',
    );
  });

  it('refuses a body that is not compressed at all', async () => {
    const response = await postEncoded(handlers.elevation, '', Buffer.from(LOCATIONS), 'br');
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toMatch(
      /^The br-compressed request body cannot be decompressed \(/,
    );
  });

  it('refuses a compressed body that arrived as text (bytes lost), saying how to send it', async () => {
    const response = await postEncoded(
      handlers.elevation,
      '',
      gzipSync(Buffer.from(LOCATIONS)),
      'gzip',
      false,
    );
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      'The gzip-compressed body arrived as text and lost bytes on the way: send it with Content-Type: application/octet-stream.',
    );
  });

  it('says so when a text body labelled gzip is not gzip at all (it was not damaged on the way)', async () => {
    const response = await postEncoded(handlers.elevation, '', Buffer.from(LOCATIONS), 'gzip', false);
    expect(response.status).toBe(400);
    expect((response.json as { error: string }).error).toBe(
      `The body is labelled Content-Encoding: gzip but is not gzip data (it starts '${JSON.stringify(LOCATIONS.slice(0, 16)).slice(1, -1)}'): drop the header, or send the compressed bytes with Content-Type: application/octet-stream.`,
    );
  });

  it('reads a JSON body that starts with a byte order mark (RFC 8259 lets a reader ignore it)', async () => {
    const response = await invoke(handlers.elevation, {
      method: 'POST',
      path: '/v1/sample',
      pathParameters: { dataset: 'sample' },
      body: `\uFEFF${LOCATIONS}`,
      headers: { 'content-type': 'application/json' },
    });
    expect(response.status).toBe(200);
    expect(response.body).toBe((await plainLocations()).body);
  });

  it('stops a body that decompresses past Lambda’s 6 MB request limit (a gzip bomb) with a 413', async () => {
    const bomb = gzipSync(Buffer.alloc(MAX_DECODED_BODY_BYTES + 1, 0x20));
    const response = await postEncoded(handlers.elevation, '', bomb, 'gzip');
    expect(response.status).toBe(413);
    expect((response.json as { error: string }).error).toBe(
      `The gzip-compressed request body decompresses to more than ${MAX_DECODED_BODY_BYTES} bytes, the limit.`,
    );
  });

  it('applies the route’s own limit to the decoded body (MAX_FILE_BYTES to a file)', async () => {
    const small = await loadTrackHandlers({ MAX_FILE_BYTES: '1024' });
    expect(GPX.length).toBeGreaterThan(1024);
    expect(gzipSync(GPX).length).toBeLessThan(1024);
    const response = await postEncoded(small.file, '/file', gzipSync(GPX), 'gzip');
    expect(response.status).toBe(413);
    expect((response.json as { error: string }).error).toMatch(
      new RegExp(`^The file is ${GPX.length} bytes; the limit is 1024 bytes \\(MAX_FILE_BYTES\\)`),
    );
  });
});
