/**
 * Range reads through a real HTTP data layer: the project's own data server (scripts/data-server.ts) over the
 * committed fixtures on an ephemeral port, plus a tiny flaky server for failures, retries and timeouts.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { startDataServer, type DataServer, type DataServerStats } from '../../scripts/data-server';
import {
  blockCache,
  configureBlockCache,
  DataSourceTimeoutError,
  DataSourceUnavailableError,
  loadDatasetRegistry,
  newReadStats,
} from '../../layers/elevation';
import { invoke } from './support/api-gateway';
import { startFlakyServer, type FlakyServer } from './support/flaky-data-server';
import { leaksInternals, loadHandlers } from './support/handlers';

const FIXTURES = path.resolve('test/fixtures');
const VALUE_TOLERANCE_M = 1e-3;
/** Short enough to keep the suite fast, long enough for a loopback answer on a busy 2-core machine. */
const TIMEOUT_MS = 300;
const CACHE_BYTES = 16 * 1024 * 1024;

// Two points of plane-point.tif in different 16x16 blocks: pixel (6,6) in block 0, pixel (39,39) in block 8.
const BLOCK_0_POINT = { lat: 49.9, lon: 10.1 };
const BLOCK_8_POINT = { lat: 49.39, lon: 10.61 };

let workDir: string;
let configPath: string;

beforeAll(() => {
  workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'range-reads-'));
  configPath = path.join(workDir, 'config.yaml');
  // Remote tiles are never listed: the Copernicus names are computed from the template.
  fs.writeFileSync(
    configPath,
    `datasets:
  - name: plane-point
    path: plane-point.tif
  - name: copernicus
    path: copernicus-2x2/
    filename_epsg: 4326
    filename_tile_size: 1
    tile_template: "Copernicus_DSM_COG_10_{NS}{lat:02}_00_{EW}{lon:03}_00_DEM.tif"
`,
  );
});

afterAll(() => fs.rmSync(workDir, { recursive: true, force: true }));

function diff(after: DataServerStats, before: DataServerStats) {
  return {
    requests: after.requests - before.requests,
    rangeRequests: after.rangeRequests - before.rangeRequests,
    fullRequests: after.fullRequests - before.fullRequests,
    notFound: after.notFound - before.notFound,
  };
}

describe('range reads from the data-layer server', () => {
  let server: DataServer;
  beforeAll(async () => {
    server = await startDataServer({ root: FIXTURES, port: 0 });
  });
  afterAll(() => server.close());

  const openRegistry = () => {
    configureBlockCache(CACHE_BYTES); // a cold block cache
    return loadDatasetRegistry({ configPath, dataRoot: server.url, timeoutMs: 2000, retries: 1 });
  };

  it('reads the header in one request and one block in one more on a cold start', async () => {
    const registry = openRegistry();
    const before = server.stats();
    const stats = newReadStats();
    const [value] = await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest', { stats });
    expect(value).toBe(1036);
    expect(diff(server.stats(), before)).toEqual({
      requests: 2,
      rangeRequests: 2,
      fullRequests: 0,
      notFound: 0,
    });
    expect(stats.rangeRequests).toBe(2);
    expect(stats.blockCacheMisses).toBe(1);
    expect(stats.rangeBytes).toBeGreaterThan(0);
  });

  it('costs exactly one range request for a cold point once the header is cached', async () => {
    const registry = openRegistry();
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest'); // opens the header
    const before = server.stats();
    const stats = newReadStats();
    const [value] = await registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest', { stats });
    expect(value).toBe(1234);
    expect(diff(server.stats(), before).rangeRequests).toBe(1);
    expect(diff(server.stats(), before).requests).toBe(1);
    expect(stats).toMatchObject({ rangeRequests: 1, blockCacheMisses: 1, blockCacheHits: 0, blocksRead: 1 });
  });

  it('costs no request at all for a warm point', async () => {
    const registry = openRegistry();
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'bilinear');
    const before = server.stats();
    const stats = newReadStats();
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'bilinear', { stats });
    expect(diff(server.stats(), before).requests).toBe(0);
    expect(stats).toMatchObject({ rangeRequests: 0, blockCacheMisses: 0, blockCacheHits: 1 });
  });

  it('shares one block fetch between concurrent requests for the same block', async () => {
    const registry = openRegistry();
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest');
    const before = server.stats();
    await Promise.all(
      Array.from({ length: 5 }, () => registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')),
    );
    expect(diff(server.stats(), before).requests).toBe(1);
  });

  it('reads Copernicus tiles by computed names and answers null for a missing (404) tile, asking only once', async () => {
    const registry = openRegistry();
    const copernicus = registry.get('copernicus');
    const [present] = await copernicus.sample([{ lat: 34.0, lon: -118.0 }], 'nearest');
    expect(present).toBe(1000);
    const before = server.stats();
    await expect(copernicus.sample([{ lat: -40.5, lon: 170.5 }], 'bilinear')).resolves.toEqual([null]);
    expect(diff(server.stats(), before).notFound).toBe(1);
    await expect(copernicus.sample([{ lat: -40.5, lon: 170.5 }], 'bilinear')).resolves.toEqual([null]);
    expect(diff(server.stats(), before).notFound).toBe(1);
  });

  it('opens the header once and fetches each block once for twelve concurrent cold callers', async () => {
    const registry = openRegistry();
    const before = server.stats();
    // Four points in four different 16x16 blocks of plane-point.tif, each asked for by three callers at once.
    const points = [BLOCK_0_POINT, BLOCK_8_POINT, { lat: 49.755, lon: 10.245 }, { lat: 49.9, lon: 10.5 }];
    await Promise.all(
      points.flatMap((point) => [1, 2, 3].map(() => registry.get('plane-point').sample([point], 'nearest'))),
    );
    expect(diff(server.stats(), before).requests).toBe(1 + points.length);
  });

  it('keeps the decoded-block cache within its byte bound', async () => {
    const registry = openRegistry();
    const BLOCK_BYTES = 16 * 16 * 4; // one Float32 16x16 block of plane-point.tif
    const cache = configureBlockCache(2 * BLOCK_BYTES);
    const grid = Array.from({ length: 9 }, (_, i) => ({
      lat: 49.99 - Math.floor(i / 3) * 0.25,
      lon: 10.01 + (i % 3) * 0.25,
    }));
    await registry.get('plane-point').sample(grid, 'nearest');
    expect(cache).toBe(blockCache());
    expect(cache.bytes).toBeLessThanOrEqual(2 * BLOCK_BYTES);
    expect(cache.counters.misses).toBe(9);
    expect(cache.counters.evictions).toBe(7);
  });

  it('reads the same values over HTTP as from local files', async () => {
    const remote = openRegistry();
    const local = loadDatasetRegistry({ configPath: path.join(FIXTURES, 'config.yaml') });
    const points = [BLOCK_0_POINT, BLOCK_8_POINT, { lat: 49.755, lon: 10.245 }];
    for (const interpolation of ['nearest', 'bilinear', 'cubic'] as const) {
      const a = await remote.get('plane-point').sample(points, interpolation);
      const b = await local.get('plane-point').sample(points, interpolation);
      a.forEach((v, i) => expect(Math.abs((v as number) - (b[i] as number))).toBeLessThan(VALUE_TOLERANCE_M));
    }
  });
});

describe('range reads of a COG larger than the header prefetch (the bundled sample)', () => {
  let server: DataServer;
  const SAMPLE_ROOT = path.resolve('layers/dem-sample');
  const PREFETCH = 64 * 1024;
  beforeAll(async () => {
    server = await startDataServer({ root: SAMPLE_ROOT, port: 0 });
  });
  afterAll(() => server.close());

  it('opens the header with one prefetch request, then costs one range request per cold block', async () => {
    configureBlockCache(CACHE_BYTES);
    const registry = loadDatasetRegistry({
      configPath: path.join(SAMPLE_ROOT, 'config.yaml'),
      dataRoot: server.url,
      headerPrefetchBytes: PREFETCH,
    });
    const file = '/sample/stuttgart.tif';
    const fileSize = fs.statSync(path.join(SAMPLE_ROOT, 'sample/stuttgart.tif')).size;
    expect(fileSize).toBeGreaterThan(PREFETCH); // otherwise this test proves nothing about the prefetch
    const first = newReadStats();
    const [hdm] = await registry.get('sample').sample([{ lat: 48.742275, lon: 9.101177 }], 'bilinear', {
      stats: first,
    });
    expect(hdm).toBeGreaterThan(400); // SRTM3 at the HdM entrance: about 457 m
    expect(hdm).toBeLessThan(520);
    expect(server.stats().files[file].rangeRequests).toBe(2);
    expect(first.rangeRequests).toBe(2);
    const second = newReadStats();
    await registry.get('sample').sample([{ lat: 48.65, lon: 9.25 }], 'bilinear', { stats: second });
    expect(server.stats().files[file].rangeRequests).toBe(3);
    expect(second).toMatchObject({ rangeRequests: 1, blockCacheMisses: 1 });
    expect(second.rangeBytes).toBeLessThan(PREFETCH);
  });
});

describe('data-layer failures', () => {
  let flaky: FlakyServer;
  beforeAll(async () => {
    flaky = await startFlakyServer(FIXTURES);
  });
  afterAll(() => flaky.close());
  beforeEach(() => {
    flaky.mode = 'ok';
    flaky.failNext = 0;
    flaky.resetNext = 0;
  });

  const openRegistry = (retries: number) => {
    configureBlockCache(CACHE_BYTES);
    return loadDatasetRegistry({ configPath, dataRoot: flaky.url, timeoutMs: TIMEOUT_MS, retries });
  };

  it('retries a block read that fails once with 503 and answers correctly', async () => {
    const registry = openRegistry(2);
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest'); // header
    flaky.failNext = 1;
    const before = flaky.requests;
    const stats = newReadStats();
    const [value] = await registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest', { stats });
    expect(value).toBe(1234);
    expect(flaky.requests - before).toBe(2);
    expect(stats.rangeRequests).toBe(2); // both attempts are counted
  });

  it('reads correctly from a server that ignores Range and sends the whole file', async () => {
    const registry = openRegistry(0);
    flaky.mode = 'whole-file';
    await expect(
      registry.get('plane-point').sample([BLOCK_0_POINT, BLOCK_8_POINT], 'nearest'),
    ).resolves.toEqual([1036, 1234]);
  });

  it('follows a redirect to where the file really is', async () => {
    const registry = openRegistry(0);
    flaky.mode = 'redirect';
    const before = flaky.requests;
    await expect(
      registry.get('plane-point').sample([BLOCK_0_POINT, BLOCK_8_POINT], 'nearest'),
    ).resolves.toEqual([1036, 1234]);
    expect(flaky.requests - before).toBe(6); // the header and two blocks, each a 307 and then the range read
  });

  it('gives up after the configured retries with DataSourceUnavailableError, then recovers on the next call', async () => {
    const registry = openRegistry(1);
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest');
    flaky.failNext = 2;
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).rejects.toBeInstanceOf(
      DataSourceUnavailableError,
    );
    // The failed block must not stay cached as a rejected promise.
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).resolves.toEqual([1234]);
  });

  it('times out a hung block read with DataSourceTimeoutError and does not cache the failure', async () => {
    const registry = openRegistry(0);
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest');
    flaky.mode = 'hang';
    const started = Date.now();
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).rejects.toBeInstanceOf(
      DataSourceTimeoutError,
    );
    expect(Date.now() - started).toBeLessThan(TIMEOUT_MS * 10);
    flaky.mode = 'ok';
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).resolves.toEqual([1234]);
  });

  it('times out a response whose body stalls after the headers', async () => {
    const registry = openRegistry(0);
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest');
    flaky.mode = 'stall-body';
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).rejects.toBeInstanceOf(
      DataSourceTimeoutError,
    );
  });

  it('retries a connection reset in the middle of a body', async () => {
    const registry = openRegistry(1);
    await registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest');
    flaky.resetNext = 1;
    await expect(registry.get('plane-point').sample([BLOCK_8_POINT], 'nearest')).resolves.toEqual([1234]);
    expect(flaky.resetNext).toBe(0);
  });

  it('times out a hung header read and opens the file on the next call', async () => {
    const registry = openRegistry(0);
    flaky.mode = 'hang';
    await expect(registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest')).rejects.toBeInstanceOf(
      DataSourceTimeoutError,
    );
    flaky.mode = 'ok';
    await expect(registry.get('plane-point').sample([BLOCK_0_POINT], 'nearest')).resolves.toEqual([1036]);
  });

  describe('through the handler', () => {
    it('answers 504 with a generic SERVER_ERROR body when the data layer does not answer, then 200', async () => {
      const { elevation } = await loadHandlers({
        CONFIG_PATH: configPath,
        DATA_ROOT: flaky.url,
        RANGE_TIMEOUT_MS: String(TIMEOUT_MS),
        RANGE_RETRIES: '0',
      });
      const request = {
        path: '/v1/plane-point',
        pathParameters: { dataset: 'plane-point' },
        query: { locations: '49.9,10.1' },
      };
      flaky.mode = 'hang';
      const timedOut = await invoke(elevation, request);
      expect(timedOut.status).toBe(504);
      expect(timedOut.json).toEqual({
        status: 'SERVER_ERROR',
        error: 'The elevation data store did not answer in time. Please retry.',
      });
      expect(leaksInternals(timedOut.body)).toBe(false);
      flaky.mode = 'ok';
      const recovered = await invoke(elevation, request);
      expect(recovered.status).toBe(200);
      expect(recovered.json).toMatchObject({ results: [{ elevation: 1038.4 }] });
    });

    it('writes the cause of a 504 to the wide log line (error level) while the body stays generic', async () => {
      const { elevation } = await loadHandlers({
        CONFIG_PATH: configPath,
        DATA_ROOT: flaky.url,
        RANGE_TIMEOUT_MS: String(TIMEOUT_MS),
        RANGE_RETRIES: '0',
        POWERTOOLS_LOG_LEVEL: 'INFO',
      });
      // Powertools' dev mode logs through the global console; otherwise through its own Console on stdout.
      const written: string[] = [];
      const capture = (...args: unknown[]) => void written.push(args.map(String).join(' '));
      const spies = [
        ...(['log', 'info', 'warn', 'error'] as const).map((level) =>
          jest.spyOn(console, level).mockImplementation(capture),
        ),
        jest.spyOn(process.stdout, 'write').mockImplementation((chunk: string | Uint8Array) => {
          capture(chunk);
          return true;
        }),
      ];
      flaky.mode = 'hang';
      try {
        const response = await invoke(elevation, {
          path: '/v1/plane-point',
          pathParameters: { dataset: 'plane-point' },
          query: { locations: '49.9,10.1' },
        });
        expect(response.status).toBe(504);
      } finally {
        for (const spy of spies) spy.mockRestore();
      }
      const log = written.join('');
      expect(log).toContain('DataSourceTimeoutError');
      expect(log).toMatch(/"level":\s*"ERROR"/);
    });

    it('answers 502 with a generic body when the data layer refuses (403)', async () => {
      const { elevation } = await loadHandlers({
        CONFIG_PATH: configPath,
        DATA_ROOT: flaky.url,
        RANGE_TIMEOUT_MS: String(TIMEOUT_MS),
        RANGE_RETRIES: '0',
      });
      flaky.mode = 'forbidden';
      const refused = await invoke(elevation, {
        path: '/v1/plane-point',
        pathParameters: { dataset: 'plane-point' },
        query: { locations: '49.9,10.1' },
      });
      expect(refused.status).toBe(502);
      expect(refused.json).toEqual({
        status: 'SERVER_ERROR',
        error: 'The elevation data store denied access to its files; an operator must fix its permissions.',
      });
      expect(leaksInternals(refused.body)).toBe(false);
    });

    it('answers 504 at its deadline (remaining time minus the margin), long before reads would give up', async () => {
      const { elevation } = await loadHandlers({
        CONFIG_PATH: configPath,
        DATA_ROOT: flaky.url,
        RANGE_TIMEOUT_MS: '5000',
        RANGE_RETRIES: '3',
        DEADLINE_MARGIN_MS: '200',
      });
      flaky.mode = 'hang';
      const started = Date.now();
      const late = await invoke(
        elevation,
        {
          path: '/v1/plane-point',
          pathParameters: { dataset: 'plane-point' },
          query: { locations: '49.9,10.1' },
        },
        1000,
      );
      const elapsed = Date.now() - started;
      flaky.mode = 'ok';
      expect(late.status).toBe(504);
      expect(late.json).toEqual({
        status: 'SERVER_ERROR',
        error: 'The elevation data store did not answer in time. Please retry.',
      });
      expect(elapsed).toBeGreaterThanOrEqual(700);
      expect(elapsed).toBeLessThan(1000); // before the function's own timeout; reads alone would take 4 x 5 s
    });
  });
});
