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
  DataSourceAccessDeniedError,
  loadDatasetRegistry,
  loadS3Settings,
  newReadStats,
  SettingsError,
} from '../../layers/elevation';
import { createS3 } from '../../layers/elevation/data/s3-source';

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
    if (url.pathname.startsWith(`/${BUCKET}/private/`)) {
      response
        .writeHead(403, { 'content-type': 'application/xml' })
        .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
      return;
    }
    if (!file || !fs.existsSync(file)) {
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
  - name: private-folder
    path: s3://${BUCKET}/private/
`,
  );
});

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

/** ListObjectsV2 over the fixtures folder, two keys a page so pagination is exercised; 403 under private/. */
function listObjects(url: URL, response: http.ServerResponse): void {
  const prefix = url.searchParams.get('prefix') ?? '';
  if (prefix.startsWith('private/')) {
    response
      .writeHead(403, { 'content-type': 'application/xml' })
      .end('<Error><Code>AccessDenied</Code><Message>Access Denied</Message></Error>');
    return;
  }
  const folder = path.join(FIXTURES, prefix);
  const keys = fs.existsSync(folder)
    ? fs
        .readdirSync(folder)
        .sort()
        .map((name) => prefix + name)
    : [];
  const start = Number(url.searchParams.get('continuation-token') ?? 0);
  const page = keys.slice(start, start + 2);
  const truncated = start + 2 < keys.length;
  response
    .writeHead(200, { 'content-type': 'application/xml' })
    .end(
      `<?xml version="1.0" encoding="UTF-8"?><ListBucketResult><Name>${BUCKET}</Name><Prefix>${prefix}</Prefix>` +
        `<KeyCount>${page.length}</KeyCount><MaxKeys>2</MaxKeys><IsTruncated>${truncated}</IsTruncated>` +
        (truncated ? `<NextContinuationToken>${start + 2}</NextContinuationToken>` : '') +
        page.map((key) => `<Contents><Key>${key}</Key><Size>1</Size></Contents>`).join('') +
        '</ListBucketResult>',
    );
}

describe('S3 errors and settings', () => {
  it('turns 403 AccessDenied into DataSourceAccessDeniedError (a 502 that says access was denied), not retried', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(workDir, 'config.yaml'), retries: 2 });
    const before = requests.length;
    await expect(
      registry.get('private').sample([{ lat: 49.9, lon: 10.1 }], 'nearest'),
    ).rejects.toBeInstanceOf(DataSourceAccessDeniedError);
    expect(requests.length - before).toBe(1);
  });

  it('builds a path-style client when S3_FORCE_PATH_STYLE is true, virtual-hosted by default', async () => {
    expect(loadS3Settings({})).toEqual({ forcePathStyle: false });
    expect(loadS3Settings({ S3_FORCE_PATH_STYLE: 'true' })).toEqual({ forcePathStyle: true });
    expect(() => loadS3Settings({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow(SettingsError);
    expect(() => loadS3Settings({ S3_FORCE_PATH_STYLE: 'yes' })).toThrow(/S3_FORCE_PATH_STYLE/);
    const { client } = await createS3({ forcePathStyle: true });
    expect(client.config.forcePathStyle).toBe(true);
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
