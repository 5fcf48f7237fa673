/**
 * s3:// datasets through the real AWS SDK v3 client against a local S3 stand-in (path-style GetObject with
 * Range, NoSuchKey for missing keys) on an ephemeral loopback port: no AWS account, no network.
 */
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import {
  DatasetConfigError,
  DataSourceAccessDeniedError,
  DataSourceMisconfiguredError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  loadS3Settings,
  newReadStats,
  SettingsError,
} from '../../layers/elevation';
import { listFolder, MAX_LISTED_KEYS, MAX_LISTING_PAGES } from '../../layers/elevation/data/folder-listing';
import { TransientSourceError } from '../../layers/elevation/data/byte-source';
import { createS3, S3Source } from '../../layers/elevation/data/s3-source';
import { SourceNotFoundError } from '../../layers/elevation/errors';

const FIXTURES = path.resolve('test/fixtures');
const BUCKET = 'dem-bucket';

let server: http.Server;
let workDir: string;
const requests: { path: string; range: string | undefined }[] = [];

/** The SDK warns once that its 2027 releases need Node 22; true but noise in this suite's output. */
function silenceSdkNodeVersionWarning(): void {
  const emit = process.emitWarning.bind(process) as (...args: unknown[]) => void;
  jest.spyOn(process, 'emitWarning').mockImplementation((...args: unknown[]) => {
    if (!String(args[0]).startsWith('NodeVersionSupportWarning')) emit(...args);
  });
}

beforeAll(async () => {
  silenceSdkNodeVersionWarning();
  server = http.createServer((request, response) => {
    const url = new URL(request.url ?? '/', 'http://s3.local');
    requests.push({ path: url.pathname, range: request.headers.range });
    if (url.searchParams.get('list-type') === '2') return listObjects(url, response);
    const prefix = `/${BUCKET}/`;
    const file = url.pathname.startsWith(prefix)
      ? path.join(FIXTURES, url.pathname.slice(prefix.length))
      : '';
    // Faults by key prefix: /faults/<kind>/<fixture>. slowdown-once answers 503 SlowDown to the first GET of
    // each range, then the bytes; error always 500; whole answers 200 with the object and no Content-Range;
    // short sends fewer bytes than its Content-Range says.
    const fault = /^\/[^/]+\/faults\/([A-Za-z0-9-]+)\/(.+)$/.exec(url.pathname);
    if (fault) return faulty(fault[1], fault[2], request, response);
    if (url.pathname.startsWith(`/${BUCKET}/private/`)) {
      response
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      return;
    }
    if (!file) {
      response
        .writeHead(404, { 'content-type': 'application/xml' })
        .end(
          '<Error><Code>NoSuchBucket</Code><Message>The specified bucket does not exist</Message></Error>',
        );
      return;
    }
    // An empty object, as S3 answers one: a ranged GET is 416 InvalidRange (without the object's size), from
    // byte 0 as from any other.
    if (url.pathname.startsWith(`/${BUCKET}/empty/`)) {
      if (!request.headers.range) return void response.writeHead(200, { 'content-length': '0' }).end();
      response
        .writeHead(416, { 'content-type': 'application/xml' })
        .end(
          '<Error><Code>InvalidRange</Code><Message>The requested range is not satisfiable</Message></Error>',
        );
      return;
    }
    if (!fs.existsSync(file)) {
      response
        .writeHead(404, { 'content-type': 'application/xml' })
        .end('<Error><Code>NoSuchKey</Code><Message>The specified key does not exist.</Message></Error>');
      return;
    }
    const bytes = fs.readFileSync(file);
    const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
    const start = match ? Number(match[1]) : 0;
    const end = match ? Math.min(Number(match[2]), bytes.length - 1) : bytes.length - 1;
    response
      .writeHead(match ? 206 : 200, {
        'content-range': `bytes ${start}-${end}/${bytes.length}`,
        'content-length': String(end - start + 1),
      })
      .end(bytes.subarray(start, end + 1));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  // Read by the SDK when the S3 client is created, lazily, on the first s3:// read. Dummy keys for the stand-in.
  Object.assign(process.env, {
    AWS_ENDPOINT_URL_S3: `http://127.0.0.1:${port}`,
    AWS_ACCESS_KEY_ID: 'test',
    AWS_SECRET_ACCESS_KEY: 'test',
    AWS_REGION: 'eu-central-1',
  });
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 's3-source-'));
  fs.writeFileSync(
    path.join(workDir, 'config.yaml'),
    `datasets:
  - name: plane-point
    path: s3://${BUCKET}/plane-point.tif
  - name: private
    path: s3://${BUCKET}/private/plane-point.tif
  - name: copernicus
    path: s3://${BUCKET}/copernicus-2x2/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif"
  - name: copernicus-listed
    path: s3://${BUCKET}/copernicus-2x2/
  - name: bucket-gone
    path: s3://no-such-bucket/copernicus-2x2/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif"
  - name: private-folder
    path: s3://${BUCKET}/private/
  - name: slowdown
    path: s3://${BUCKET}/faults/slowdown-once/plane-point.tif
  - name: toomany
    path: s3://${BUCKET}/faults/toomany-once/plane-point.tif
  - name: failing
    path: s3://${BUCKET}/faults/error/plane-point.tif
  - name: whole
    path: s3://${BUCKET}/faults/whole/plane-point.tif
  - name: short
    path: s3://${BUCKET}/faults/short/plane-point.tif
`,
  );
});

const slowedDown = new Set<string>();

function faulty(
  kind: string,
  name: string,
  request: http.IncomingMessage,
  response: http.ServerResponse,
): void {
  const bytes = fs.readFileSync(path.join(FIXTURES, name));
  const match = /^bytes=(\d+)-(\d+)$/.exec(request.headers.range ?? '');
  const start = match ? Number(match[1]) : 0;
  const end = match ? Math.min(Number(match[2]), bytes.length - 1) : bytes.length - 1;
  const xml = (status: number, code: string): void => {
    response
      .writeHead(status, { 'content-type': 'application/xml' })
      .end(`<Error><Code>${code}</Code></Error>`);
  };
  if (kind === 'slowdown-once' && !slowedDown.has(`${name}${request.headers.range}`)) {
    slowedDown.add(`${name}${request.headers.range}`);
    return xml(503, 'SlowDown');
  }
  if (kind === 'toomany-once' && !slowedDown.has(`429${name}${request.headers.range}`)) {
    slowedDown.add(`429${name}${request.headers.range}`);
    return xml(429, 'TooManyRequests'); // S3-compatible stores that rate-limit with 429
  }
  if (kind === 'error') return xml(500, 'InternalError');
  // stall-body: the answer's headers and its first bytes, then nothing (a connection gone quiet mid-body).
  if (kind === 'stall-body') {
    response.writeHead(206, {
      'content-range': `bytes ${start}-${end}/${bytes.length}`,
      'content-length': String(end - start + 1),
    });
    response.write(bytes.subarray(start, start + 10));
    return;
  }
  // wrong-region: S3's answer for a bucket in another region than the client's.
  if (kind === 'wrong-region') {
    response
      .writeHead(301, { 'content-type': 'application/xml', 'x-amz-bucket-region': 'eu-west-1' })
      .end(
        '<Error><Code>PermanentRedirect</Code><Message>The bucket you are attempting to access must be addressed using the specified endpoint.</Message><Endpoint>dem-bucket.s3.eu-west-1.amazonaws.com</Endpoint></Error>',
      );
    return;
  }
  // answer-<status>-<code>: that status and error code, whatever was asked.
  const answer = /^answer-(\d{3})-(\w+)$/.exec(kind);
  if (answer) return xml(Number(answer[1]), answer[2]);
  if (kind === 'versioned') {
    response
      .writeHead(206, {
        'content-range': `bytes ${start}-${end}/${bytes.length}`,
        'content-length': String(end - start + 1),
        etag: '"v1-etag"',
        'last-modified': 'Tue, 01 Dec 2026 10:00:00 GMT',
      })
      .end(bytes.subarray(start, end + 1));
    return;
  }
  if (kind === 'whole') {
    response.writeHead(200, { 'content-length': String(bytes.length) }).end(bytes);
    return;
  }
  const body = kind === 'short' ? bytes.subarray(start, end) : bytes.subarray(start, end + 1);
  response
    .writeHead(206, {
      'content-range': `bytes ${start}-${end}/${bytes.length}`,
      'content-length': String(body.length),
    })
    .end(body);
}

afterAll(async () => {
  fs.rmSync(workDir, { recursive: true, force: true });
  server.closeAllConnections();
  await new Promise<void>((resolve) => server.close(() => resolve()));
});

describe('s3:// datasets', () => {
  it('reads a COG from S3 with ranged GetObject: one request for the header, one per block', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    const stats = newReadStats();
    const before = requests.length;
    const values = await registry.get('plane-point').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats });
    expect(values).toEqual([1036]);
    const sent = requests.slice(before);
    expect(sent).toHaveLength(2);
    expect(
      sent.every((r) => r.path === `/${BUCKET}/plane-point.tif` && /^bytes=\d+-\d+$/.test(r.range ?? '')),
    ).toBe(true);
    expect(stats.rangeRequests).toBe(2);
  });

  it('answers null for a tile whose key does not exist (NoSuchKey), not an error', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    await expect(
      registry.get('copernicus').sample(
        [
          { lat: 34.5, lon: -118.5 },
          { lat: -40.5, lon: 170.5 },
        ],
        'bilinear',
      ),
    ).resolves.toEqual([1000 + 64 * -0.5 + 32 * 0.5, null]);
  });

  it('an empty object (0 bytes) is a file an operator must replace (500), a GeoTIFF as an .hgt', async () => {
    const configPath = path.join(workDir, 'empty.yaml');
    fs.writeFileSync(
      configPath,
      `datasets:\n  - name: tif\n    path: s3://${BUCKET}/empty/N49E009.tif\n` +
        `  - name: hgt\n    path: s3://${BUCKET}/empty/N49E009.hgt\n`,
    );
    const registry = loadDatasetRegistry({ configPath });
    for (const [name, kind] of [
      ['tif', 'a GeoTIFF'],
      ['hgt', 'an SRTM \\.hgt file'],
    ]) {
      const answer = registry.get(name).sample([{ lat: 49.5, lon: 9.5 }], 'nearest');
      await expect(answer).rejects.toBeInstanceOf(DatasetConfigError);
      await expect(answer).rejects.toThrow(
        new RegExp(`empty/N49E009\\.${name} is empty \\(0 bytes\\), not ${kind}$`),
      );
    }
  });

  it('refuses to answer from a bucket that does not exist (502): its tiles are not missing, the store is', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    const answer = registry.get('bucket-gone').sample([{ lat: 34.5, lon: -118.5 }], 'bilinear');
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(answer).rejects.toThrow('NoSuchBucket');
  });
});

describe('s3:// folders are listed (ListObjectsV2) where s3:ListBucket allows', () => {
  it('discovers corner-named tiles under a prefix without filename_tile_size or tile_template', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    const before = requests.length;
    const values = await registry.get('copernicus-listed').sample([{ lat: 34.5, lon: -118.5 }], 'bilinear');
    expect(values).toEqual([1000 + 64 * -0.5 + 32 * 0.5]);
    expect(
      requests.slice(before).filter((r) => r.path === `/${BUCKET}` || r.path === `/${BUCKET}/`),
    ).toHaveLength(3); // 5 keys, 2 a page
    expect((await registry.get('copernicus-listed').describe()).tileCount).toBe(5);
  });

  it('answers a folder it may not list (403) with a message saying what to configure', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    await expect(
      registry.get('private-folder').sample([{ lat: 49.9, lon: 10.1 }], 'nearest'),
    ).rejects.toThrow(/cannot be listed; name the file in `path`/);
  });
});

/** Pages of the never-ending listing (loop/) asked for. */
let listedLoopPages = 0;

/** ListObjectsV2 over the fixtures folder, two keys a page so pagination is exercised; 403 under private/. */
function listObjects(url: URL, response: http.ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  if (prefix.startsWith('private/')) {
    response
      .writeHead(403, { 'content-type': 'application/xml' })
      .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
    return;
  }
  // status<nnn>/: that error (405 and 501 from stores without listing, 500 a failing one).
  const failing = /^status(\d{3})\/$/.exec(prefix);
  if (failing) {
    response
      .writeHead(Number(failing[1]), { 'content-type': 'application/xml' })
      .end('<Error><Code>Failing</Code><Message>Not this time</Message></Error>');
    return;
  }
  // marker/: a folder-marker key (the prefix itself), keys out of order, and an entry without a Key.
  if (prefix === 'marker/') {
    response
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix>` +
          '<KeyCount>4</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>false</IsTruncated>' +
          ['marker/z.tif', 'marker/', 'marker/a.tif']
            .map((key) => `<Contents><Key>${key}</Key></Contents>`)
            .join('') +
          '<Contents><Size>1</Size></Contents></ListBucketResult>',
      );
    return;
  }
  // loop/: a store that answers every page as truncated with the same token and no keys (a listing that never ends).
  if (prefix === 'loop/') {
    listedLoopPages++;
    response
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix>` +
          '<KeyCount>0</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>' +
          '<NextContinuationToken>again</NextContinuationToken></ListBucketResult>',
      );
    return;
  }
  // no-token/: a page that says it is truncated but gives no continuation token (a listing cut short).
  if (prefix === 'no-token/') {
    response
      .writeHead(200, { 'content-type': 'application/xml' })
      .end(
        `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix>` +
          '<KeyCount>1</KeyCount><MaxKeys>1000</MaxKeys><IsTruncated>true</IsTruncated>' +
          `<Contents><Key>${prefix}N48E009.tif</Key><Size>1</Size></Contents></ListBucketResult>`,
      );
    return;
  }
  // pages/<n>/: n pages of one key each, every one with a new token (a store that pages very finely).
  const paged = /^pages\/(\d+)\/$/.exec(prefix);
  if (paged)
    return listPages(
      Array.from({ length: Number(paged[1]) }, (_, i) => `${prefix}p${i}.tif`),
      1,
      url,
      response,
    );
  // huge/<n>/: n synthetic keys, 10,000 a page (S3 gives 1,000; the SDK takes any), for the listing's key bound.
  const huge = /^huge\/(\d+)\/$/.exec(prefix);
  if (huge)
    return listPages(
      Array.from({ length: Number(huge[1]) }, (_, i) => `${prefix}k${i}.tif`),
      1000,
      url,
      response,
    );
  const folder = path.join(FIXTURES, prefix);
  const keys = fs.existsSync(folder)
    ? fs
        .readdirSync(folder)
        .sort()
        // Real keys: a prefix without its slash (a folder named by it) still lists `<folder>/<name>`.
        .map((name) => (prefix === '' || prefix.endsWith('/') ? prefix : `${prefix}/`) + name)
    : [];
  listPages(keys, 2, url, response);
}

function listPages(keys: string[], size: number, url: URL, response: http.ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  const start = Number(url.searchParams.get('continuation-token') ?? 0);
  const page = keys.slice(start, start + size);
  const truncated = start + size < keys.length;
  response
    .writeHead(200, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix>` +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>${size}</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextContinuationToken>${start + size}</NextContinuationToken>` : '') +
        page.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join('') +
        '</ListBucketResult>',
    );
}

describe('an S3 folder listing', () => {
  it('lists a prefix given with or without its trailing slash, names relative to it', async () => {
    const names = await listFolder(`s3://${BUCKET}/copernicus-2x2/`);
    expect(names).toEqual(fs.readdirSync(path.join(FIXTURES, 'copernicus-2x2')).sort());
    await expect(listFolder(`s3://${BUCKET}/copernicus-2x2`)).resolves.toEqual(names);
  });

  it('lists a whole bucket, with or without the slash after its name', async () => {
    const root = fs.readdirSync(FIXTURES).sort();
    await expect(listFolder(`s3://${BUCKET}/`)).resolves.toEqual(root);
    await expect(listFolder(`s3://${BUCKET}`)).resolves.toEqual(root);
  });

  it('leaves out the folder marker and entries without a key, and sorts what it lists', async () => {
    await expect(listFolder(`s3://${BUCKET}/marker/`)).resolves.toEqual(['a.tif', 'z.tif']);
  });

  it.each([405, 501])('a store that cannot list (%d) is unlistable: names are computed', async (status) => {
    await expect(listFolder(`s3://${BUCKET}/status${status}/`)).resolves.toBeNull();
  });

  it('a listing that fails (500) is an error naming the folder, not "unlistable"', async () => {
    const listing = listFolder(`s3://${BUCKET}/status500/`);
    await expect(listing).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(listing).rejects.toThrow(`Cannot list s3://${BUCKET}/status500/: `);
  });
});

describe('an S3 listing that would not end is stopped', () => {
  it('a page that repeats the token before it is a store fault (502), asked twice, not a loop', async () => {
    listedLoopPages = 0;
    const listing = listFolder(`s3://${BUCKET}/loop/`);
    await expect(listing).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(listing).rejects.toThrow(
      `Cannot list s3://${BUCKET}/loop/: the store answered the continuation token 'again' twice (a listing that would never end)`,
    );
    expect(listedLoopPages).toBe(2);
  });

  it('a page truncated without a continuation token is a store fault (502), not the end of the folder', async () => {
    const listing = listFolder(`s3://${BUCKET}/no-token/`);
    await expect(listing).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(listing).rejects.toThrow(
      `Cannot list s3://${BUCKET}/no-token/: the store answered a page as truncated without a continuation token`,
    );
  });

  it(`reads ${MAX_LISTING_PAGES} pages, and refuses a listing of more (502) instead of paging without end`, async () => {
    await expect(listFolder(`s3://${BUCKET}/pages/${MAX_LISTING_PAGES}/`)).resolves.toHaveLength(
      MAX_LISTING_PAGES,
    );
    const listing = listFolder(`s3://${BUCKET}/pages/${MAX_LISTING_PAGES + 1}/`);
    await expect(listing).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(listing).rejects.toThrow(
      `Cannot list s3://${BUCKET}/pages/${MAX_LISTING_PAGES + 1}/: the store answered more than ${MAX_LISTING_PAGES} pages`,
    );
  }, 30_000);
});

describe('an S3 listing reads at most MAX_LISTED_KEYS keys', () => {
  it('reads a folder of exactly that many keys, every page', async () => {
    const files = await listFolder(`s3://${BUCKET}/huge/${MAX_LISTED_KEYS}/`);
    expect(files).toHaveLength(MAX_LISTED_KEYS);
    expect(files?.[MAX_LISTED_KEYS - 1]).toBe('k99999.tif');
  }, 60_000);

  it('refuses a longer one, saying so, instead of cutting it (the tiles past a cut would answer null)', async () => {
    const location = `s3://${BUCKET}/huge/${MAX_LISTED_KEYS + 1}/`;
    const listing = listFolder(location);
    await expect(listing).rejects.toBeInstanceOf(DatasetConfigError);
    await expect(listing).rejects.toThrow(
      `${location} holds more than 100,000 keys, more than a listing reads; set filename_tile_size and tile_template`,
    );
  }, 60_000);
});

describe('what an S3 answer means (S3Source, one GetObject each)', () => {
  const read = (kind: string) =>
    new S3Source(`s3://${BUCKET}/faults/${kind}/plane-point.tif`).readRange(
      0,
      100,
      AbortSignal.timeout(5000),
    );

  it.each([
    ['answer-404-NotFound', 'a 404 of any code'],
    ['answer-404-NoSuchKey', 'NoSuchKey'],
  ])('%s is a missing tile (%s): no data, not an error', async (kind) => {
    await expect(read(kind)).rejects.toBeInstanceOf(SourceNotFoundError);
  });

  it('answer-404-NoSuchBucket is a data store gone (502), never a missing tile answered as no data', async () => {
    const answer = read('answer-404-NoSuchBucket');
    await expect(answer).rejects.toBeInstanceOf(DataSourceUnavailableError);
    await expect(answer).rejects.toThrow(
      /^S3 404 NoSuchBucket: the bucket of s3:\/\/dem-bucket\/faults\/answer-404-NoSuchBucket\/plane-point\.tif does not exist$/,
    );
  });

  it.each([
    [
      'answer-401-Unauthorized',
      /^S3 401 Unauthorized for s3:\/\/dem-bucket\/faults\/answer-401-Unauthorized\/plane-point\.tif$/,
    ],
    ['answer-403-Forbidden', /^S3 403 Forbidden for /],
    ['answer-400-InvalidAccessKeyId', /^S3 400 InvalidAccessKeyId for /],
    ['answer-400-SignatureDoesNotMatch', /^S3 400 SignatureDoesNotMatch for /],
  ])('%s is access denied, saying the status and code', async (kind, message) => {
    const answer = read(kind);
    await expect(answer).rejects.toBeInstanceOf(DataSourceAccessDeniedError);
    await expect(answer).rejects.toThrow(message);
  });

  it.each(['answer-416-InvalidRange', 'answer-416-RequestedRangeNotSatisfiable', 'answer-400-InvalidRange'])(
    '%s is a range past the object end: no bytes; from byte 0, an empty object',
    async (kind) => {
      await expect(read(kind)).resolves.toEqual({
        bytes: new Uint8Array(0),
        start: 0,
        total: 0,
        identity: { etag: null, lastModified: null },
      });
      const later = new S3Source(`s3://${BUCKET}/faults/${kind}/plane-point.tif`).readRange(
        100,
        100,
        AbortSignal.timeout(5000),
      );
      await expect(later).resolves.toEqual({
        bytes: new Uint8Array(0),
        start: 100,
        total: null,
        identity: { etag: null, lastModified: null },
      });
    },
  );

  it.each([
    ['answer-502-BadGateway', 502],
    ['answer-429-TooManyRequests', 429],
  ])('%s is worth another attempt', async (kind, status) => {
    const answer = read(kind);
    await expect(answer).rejects.toBeInstanceOf(TransientSourceError);
    await expect(answer).rejects.toMatchObject({
      status,
      message: `S3 ${status} for s3://${BUCKET}/faults/${kind}/plane-point.tif`,
    });
  });

  it('a body that stalls after its headers is a timeout (504 after the retries), as a request that hangs is', async () => {
    const answer = new S3Source(`s3://${BUCKET}/faults/stall-body/plane-point.tif`).readRange(
      0,
      100,
      AbortSignal.timeout(300),
    );
    await expect(answer).rejects.toMatchObject({ name: 'TimeoutError' });
  });

  it.each([
    [
      'wrong-region',
      /^S3 301 PermanentRedirect for s3:\/\/dem-bucket\/faults\/wrong-region\/plane-point\.tif \(the bucket is in eu-west-1\)$/,
    ],
    ['answer-400-AuthorizationHeaderMalformed', /^S3 400 AuthorizationHeaderMalformed for /],
    ['answer-400-IllegalLocationConstraintException', /^S3 400 IllegalLocationConstraintException for /],
    ['answer-400-InvalidBucketName', /^S3 400 InvalidBucketName for /],
  ])(
    '%s is a data store misconfigured (a 502 no retry helps), saying the status and code',
    async (kind, message) => {
      const answer = read(kind);
      await expect(answer).rejects.toBeInstanceOf(DataSourceMisconfiguredError);
      await expect(answer).rejects.toThrow(message);
    },
  );

  it('any other error (418) is not retried as transient', async () => {
    const answer = read('answer-418-Teapot');
    await expect(answer).rejects.toThrow();
    await expect(answer).rejects.not.toBeInstanceOf(TransientSourceError);
    await expect(answer).rejects.not.toBeInstanceOf(DataSourceAccessDeniedError);
  });

  it('an answer shorter than its Content-Range says so, to be retried', async () => {
    const size = fs.statSync(path.join(FIXTURES, 'plane-point.tif')).size;
    await expect(read('short')).rejects.toThrow(
      new TransientSourceError(
        `S3 s3://${BUCKET}/faults/short/plane-point.tif: Content-Range bytes 0-99/${size} but 99 bytes`,
      ),
    );
  });

  it("keeps the object's ETag and Last-Modified, which pin its version", async () => {
    const answer = await read('versioned');
    expect(answer.identity).toEqual({ etag: '"v1-etag"', lastModified: 'Tue, 01 Dec 2026 10:00:00 GMT' });
    expect([answer.start, answer.bytes.byteLength]).toEqual([0, 100]);
  });

  it('refuses a URL without a bucket and key', () => {
    expect(() => new S3Source('s3://dem-bucket/')).toThrow(
      new DataSourceUnavailableError('Not an s3://bucket/key URL: s3://dem-bucket/'),
    );
  });
});

describe('S3 errors and settings', () => {
  it('turns 403 AccessDenied into DataSourceAccessDeniedError (a 502 that says access was denied), not retried', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 2 });
    const before = requests.length;
    await expect(
      registry.get('private').sample([{ lat: 49.9, lon: 10.1 }], 'nearest'),
    ).rejects.toBeInstanceOf(DataSourceAccessDeniedError);
    expect(requests.length - before).toBe(1);
  });

  it("retries S3's 503 SlowDown with backoff, counts it as throttled, and answers the right height", async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 2 });
    const stats = newReadStats();
    await expect(
      registry.get('slowdown').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats }),
    ).resolves.toEqual([1036]);
    expect(stats.dataAnswers.throttled).toBeGreaterThanOrEqual(2); // the header and the block were each slowed once
    expect(stats.dataAnswers.ok).toBeGreaterThanOrEqual(2);
  });

  it('retries a 429 from an S3-compatible store like SlowDown, counted as throttled', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 2 });
    const stats = newReadStats();
    await expect(
      registry.get('toomany').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats }),
    ).resolves.toEqual([1036]);
    expect(stats.dataAnswers.throttled).toBeGreaterThanOrEqual(2);
    expect(stats.dataAnswers.server_error ?? 0).toBe(0);
  });

  it('a persistent S3 500 is a 502 after the retries, never a height', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 1 });
    const before = requests.length;
    const stats = newReadStats();
    await expect(
      registry.get('failing').sample([{ lat: 49.9, lon: 10.1 }], 'nearest', { stats }),
    ).rejects.toBeInstanceOf(DataSourceUnavailableError);
    expect(requests.length - before).toBe(2); // one try and one retry
    expect(stats.dataAnswers.server_error).toBe(2);
  });

  it('slices a 200 whole-object answer (a store that ignores Range) to the asked range', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml') });
    await expect(registry.get('whole').sample([{ lat: 49.9, lon: 10.1 }], 'nearest')).resolves.toEqual([
      1036,
    ]);
  });

  it('an answer shorter than its Content-Range is never read as data', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 1 });
    await expect(registry.get('short').sample([{ lat: 49.9, lon: 10.1 }], 'nearest')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
  });

  it('builds a path-style client when S3_FORCE_PATH_STYLE is true, virtual-hosted by default', async () => {
    expect(loadS3Settings({})).toEqual({ forcePathStyle: false });
    expect(loadS3Settings({ S3_FORCE_PATH_STYLE: 'true' })).toEqual({ forcePathStyle: true });
    expect(() => loadS3Settings({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow(SettingsError);
    expect(() => loadS3Settings({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    const { client } = await createS3({ forcePathStyle: true });
    expect(client.config.forcePathStyle).toBe(true);
    expect(await client.config.maxAttempts()).toBe(1); // retries are ours, counted and within the deadline
    client.destroy();
  });

  it('creates the S3 client at module init when DATA_ROOT is an s3:// URL, and not otherwise', () => {
    const started = (dataRoot: string | undefined): boolean => {
      const saved = process.env.DATA_ROOT;
      if (dataRoot === undefined) delete process.env.DATA_ROOT;
      else process.env.DATA_ROOT = dataRoot;
      let result = false;
      jest.isolateModules(() => {
        // eslint-disable-next-line @typescript-eslint/no-require-imports
        const fresh = require('../../layers/elevation/data/s3-source') as { s3ClientStarted(): boolean };
        result = fresh.s3ClientStarted();
      });
      if (saved === undefined) delete process.env.DATA_ROOT;
      else process.env.DATA_ROOT = saved;
      return result;
    };
    expect(started('s3://dem-bucket/dem/')).toBe(true);
    expect(started(undefined)).toBe(false);
    expect(started('https://example.org/dem/')).toBe(false);
  });
});
