/**
 * What the handlers print for telemetry (EMF documents and the wide log line), read from stdout/stderr as
 * CloudWatch would: metric dimensions no client can multiply, failed requests that can be diagnosed from their
 * line, and the data layer's answers by outcome.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { DATA_ANSWERS } from '../../layers/elevation/types';
import { invoke, type EventOptions, type Handler } from './support/api-gateway';
import { startFlakyServer, type FlakyServer } from './support/flaky-data-server';
import { FIXTURE_CONFIG, loadHandlers } from './support/handlers';
import { loadTrackHandlers } from './support/track-handlers';
import YAML from 'yaml';

/** Powertools prints EMF and logs to stdout/stderr through its own Console; the fast wide line writes directly. */
const LOUD = {
  POWERTOOLS_DEV: 'false',
  POWERTOOLS_METRICS_DISABLED: 'false',
  POWERTOOLS_LOG_LEVEL: 'INFO',
  POWERTOOLS_METRICS_NAMESPACE: 'ElevationAPI',
};
const DISTINCT_CHAINS = 200;
const V1_TEMPLATE = '/v1/{dataset}';

type Json = Record<string, unknown>;

/** Everything the handler writes during `fn`, one JSON object per line. */
async function captured(fn: () => Promise<void>): Promise<Json[]> {
  const written: string[] = [];
  const spies = [process.stdout, process.stderr].map((stream) =>
    jest.spyOn(stream, 'write').mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    }),
  );
  try {
    await fn();
  } finally {
    for (const spy of spies) spy.mockRestore();
  }
  return written
    .join('')
    .split('\n')
    .filter((line) => line.trim().startsWith('{'))
    .map((line) => JSON.parse(line) as Json);
}

const emfDocuments = (lines: Json[]) => lines.filter((l) => '_aws' in l);
const wideLines = (lines: Json[]) => lines.filter((l) => l.message === 'request');

/** One series per distinct metric name x dimension values, as CloudWatch and the bridge count them. */
function seriesOf(documents: Json[]): Set<string> {
  const series = new Set<string>();
  for (const doc of documents) {
    const directive = (doc._aws as { CloudWatchMetrics: { Dimensions: string[][]; Metrics: Json[] }[] })
      .CloudWatchMetrics[0];
    const labels = directive.Dimensions.flat()
      .map((d) => `${d}=${String(doc[d])}`)
      .join(',');
    for (const metric of directive.Metrics) series.add(`${String(metric.Name)}{${labels}}`);
  }
  return series;
}

const configuredNames = (
  YAML.parse(fs.readFileSync(FIXTURE_CONFIG, 'utf8')) as { datasets: Json[] }
).datasets.map((d) => String(d.name));

/** The first `count` ordered pairs and triples of distinct configured names: "a,b", "a,c", …, "a,b,c", … */
function chains(count: number): string[] {
  const out: string[] = [];
  for (const a of configuredNames)
    for (const b of configuredNames) {
      if (b === a) continue;
      out.push(`${a},${b}`);
      for (const c of configuredNames) if (c !== a && c !== b) out.push(`${a},${b},${c}`);
    }
  return out.slice(0, count);
}

const v1 = (dataset: string, query: Record<string, string>): EventOptions => ({
  path: `/v1/${dataset}`,
  template: V1_TEMPLATE,
  pathParameters: { dataset },
  query,
});

describe('metric dimensions', () => {
  let elevation: Handler;
  beforeAll(async () => {
    ({ elevation } = await loadHandlers(LOUD));
  });

  it(`keeps the series count flat over ${DISTINCT_CHAINS} distinct fallback chains`, async () => {
    const all = chains(DISTINCT_CHAINS);
    expect(new Set(all).size).toBe(DISTINCT_CHAINS);
    const send = (list: string[]) =>
      captured(async () => {
        for (const chain of list) await invoke(elevation, v1(chain, { locations: '49.9,10.1' }));
      });
    // Both lengths of chain appear in the first 20 (a pair, then triples), so every series exists after them.
    const first = seriesOf(emfDocuments(await send(all.slice(0, 20))));
    const rest = await send(all.slice(20));
    const after = new Set([...first, ...seriesOf(emfDocuments(rest))]);
    expect(after.size).toBe(first.size);

    const datasets = new Set(emfDocuments(rest).map((d) => String(d.dataset)));
    for (const value of datasets) expect([...configuredNames, 'chain:2', 'chain:3']).toContain(value);
    // The chain itself is still in the log line, for whoever diagnoses a request.
    expect(wideLines(rest).map((l) => l.chain)).toContain(all[DISTINCT_CHAINS - 1]);
  });

  it('counts a path naming an unknown dataset under "none", never under the name it sent', async () => {
    const lines = await captured(async () => {
      for (let i = 0; i < 5; i++) await invoke(elevation, v1(`made-up-${i}`, { locations: '49.9,10.1' }));
    });
    expect(new Set(emfDocuments(lines).map((d) => d.dataset))).toEqual(new Set(['none']));
  });
});

/** A one-point GeoJSON document for the file route. */
const GEOJSON_POINT = JSON.stringify({ type: 'Point', coordinates: [10.1, 49.9] });

const fileEvent = (dataset: string): EventOptions => ({
  method: 'POST',
  path: `/v1/${dataset}/file`,
  template: '/v1/{dataset}/file',
  pathParameters: { dataset },
  body: Buffer.from(GEOJSON_POINT).toString('base64'),
  isBase64Encoded: true,
  headers: { 'content-type': 'application/geo+json' },
});

const profileEvent = (dataset: string): EventOptions => ({
  path: `/v1/${dataset}/profile`,
  template: '/v1/{dataset}/profile',
  pathParameters: { dataset },
  query: { locations: '49.9,10.1|49.91,10.11', samples: '3' },
});

describe('metric dimensions of the file, profile and Google routes', () => {
  it.each([
    ['file', fileEvent],
    ['profile', profileEvent],
  ] as const)(
    `keeps the %s route's series count flat over ${DISTINCT_CHAINS} distinct chains, dataset = chain:<n>`,
    async (routeName, event) => {
      const handlers = await loadTrackHandlers(LOUD, FIXTURE_CONFIG);
      const handler = handlers[routeName];
      const all = chains(DISTINCT_CHAINS);
      const send = (list: string[]) =>
        captured(async () => {
          for (const chain of list) expect((await invoke(handler, event(chain))).status).toBe(200);
        });
      const first = seriesOf(emfDocuments(await send(all.slice(0, 20))));
      const rest = await send(all.slice(20));
      expect(new Set([...first, ...seriesOf(emfDocuments(rest))]).size).toBe(first.size);
      const requestDocs = emfDocuments(rest).filter((d) => 'Requests' in d);
      expect(new Set(requestDocs.map((d) => d.dataset))).toEqual(new Set(['chain:2', 'chain:3']));
      const lines = wideLines(rest);
      expect(lines.map((l) => l.dataset)).not.toContain(all[DISTINCT_CHAINS - 1]);
      expect(lines.map((l) => l.chain)).toContain(all[DISTINCT_CHAINS - 1]);
    },
  );

  it('keeps a configured name as the dimension on the file and profile routes', async () => {
    const handlers = await loadTrackHandlers(LOUD, FIXTURE_CONFIG);
    const lines = await captured(async () => {
      await invoke(handlers.file, fileEvent('plane-point'));
      await invoke(handlers.profile, profileEvent('plane-point'));
    });
    const docs = emfDocuments(lines).filter((d) => 'Requests' in d);
    expect(docs.map((d) => d.dataset)).toEqual(['plane-point', 'plane-point']);
    expect(wideLines(lines).map((l) => l.chain)).toEqual([undefined, undefined]);
  });

  it('counts a GOOGLE_DATASET chain as chain:<n> on the Google route', async () => {
    const handlers = await loadTrackHandlers(
      { ...LOUD, GOOGLE_DATASET: 'plane-point,plane-area' },
      FIXTURE_CONFIG,
    );
    const lines = await captured(async () => {
      const response = await invoke(handlers.google, {
        path: '/maps/api/elevation/json',
        query: { locations: '49.9,10.1' },
      });
      expect(response.status).toBe(200);
    });
    const docs = emfDocuments(lines).filter((d) => 'Requests' in d);
    expect(docs.map((d) => d.dataset)).toEqual(['chain:2']);
    expect(wideLines(lines)[0]).toMatchObject({ dataset: 'chain:2', chain: 'plane-point,plane-area' });
  });

  it('counts no elevations for a Google answer without heights (DATA_NOT_AVAILABLE), and logs why', async () => {
    const handlers = await loadTrackHandlers(LOUD, FIXTURE_CONFIG);
    const lines = await captured(async () => {
      for (const locations of ['49.9,10.1|0,0', '49.9,10.1']) {
        const response = await invoke(handlers.google, {
          path: '/maps/api/elevation/json',
          query: { locations },
        });
        expect(response.status).toBe(200);
      }
    });
    const docs = emfDocuments(lines).filter((d) => 'Requests' in d);
    expect(docs.map((d) => [d.ElevationsComputed, d.PointsPerRequest])).toEqual([
      [0, 2],
      [1, 1],
    ]);
    expect(wideLines(lines).map((l) => [l.points, l.answered, l.googleStatus])).toEqual([
      [2, 0, 'DATA_NOT_AVAILABLE'],
      [1, undefined, undefined],
    ]);
  });
});

describe('the wide log line of a failed request', () => {
  let elevation: Handler;
  beforeAll(async () => {
    ({ elevation } = await loadHandlers(LOUD));
  });

  it('carries method, route, path template, status, error code and the message the client got (4xx)', async () => {
    let clientError: unknown;
    const lines = await captured(async () => {
      const response = await invoke(elevation, v1('plane-point', { locations: '91,10' }));
      expect(response.status).toBe(400);
      clientError = (response.json as Json).error;
    });
    const [line] = wideLines(lines);
    expect(line).toMatchObject({
      level: 'WARN',
      method: 'GET',
      route: 'v1',
      pathTemplate: V1_TEMPLATE,
      status: 400,
      errorCode: 'InvalidLocationError',
      errorMessage: clientError,
    });
    expect(line).not.toHaveProperty('error'); // no internal cause for a 4xx
  });

  it('gives the help route’s 404 line its error code and message too', async () => {
    await loadHandlers(LOUD);
    let help: Handler | undefined;
    await jest.isolateModulesAsync(async () => {
      help = (await import('../../functions/help')).handler;
    });
    const lines = await captured(async () => {
      expect((await invoke(help as Handler, { path: '/' })).status).toBe(404);
    });
    expect(wideLines(lines)[0]).toMatchObject({
      level: 'WARN',
      status: 404,
      errorCode: 'NoDatasetName',
      errorMessage: expect.stringMatching(/^No dataset name provided\. Try a url like/) as string,
    });
  });

  it('has exactly one cold-start key', async () => {
    const lines = await captured(async () => {
      await invoke(elevation, v1('plane-point', { locations: '49.9,10.1' }));
    });
    const [line] = wideLines(lines);
    expect(Object.keys(line).filter((k) => /cold.?start/i.test(k))).toEqual(['cold_start']);
  });
});

describe('the data layer answers by outcome', () => {
  let flaky: FlakyServer;
  let workDir: string;
  let elevation: Handler;
  let configPath: string;

  beforeAll(async () => {
    workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'telemetry-output-'));
    configPath = path.join(workDir, 'config.yaml');
    fs.writeFileSync(configPath, 'datasets:\n  - name: plane-point\n    path: plane-point.tif\n');
    flaky = await startFlakyServer(path.resolve('test/fixtures'));
    ({ elevation } = await loadHandlers({
      ...LOUD,
      CONFIG_PATH: configPath,
      DATA_ROOT: flaky.url,
      RANGE_RETRIES: '2',
      RANGE_TIMEOUT_MS: '2000',
    }));
  });

  afterAll(async () => {
    await flaky.close();
    fs.rmSync(workDir, { recursive: true, force: true });
  });

  const answers = (lines: Json[]) =>
    Object.fromEntries(
      emfDocuments(lines)
        .filter((d) => 'DataSourceAnswers' in d)
        .map((d) => [String(d.answer), d.DataSourceAnswers]),
    );

  it('counts throttled (503) attempts, retried with backoff, beside the ones that succeeded', async () => {
    flaky.mode = 'ok';
    flaky.failNext = 2;
    const lines = await captured(async () => {
      const response = await invoke(elevation, v1('plane-point', { locations: '49.9,10.1' }));
      expect(response.status).toBe(200);
    });
    const [line] = wideLines(lines);
    expect(answers(lines)).toMatchObject({ throttled: 2, ok: expect.any(Number) });
    expect(line).toMatchObject({ dataAnswers: { throttled: 2 } });
    for (const answer of Object.keys(answers(lines))) expect(DATA_ANSWERS).toContain(answer);
  });

  it("counts an attempt cut by the request's deadline as deadline, in the request's own documents", async () => {
    flaky.mode = 'hang';
    const lines = await captured(async () => {
      // 700 ms left, DEADLINE_MARGIN_MS 500 by default: the deadline cuts the read long before its 2 s timeout.
      const response = await invoke(elevation, v1('plane-point', { locations: '49.69,10.31' }), 700);
      expect(response.status).toBe(504);
    });
    flaky.mode = 'ok';
    expect(answers(lines)).toEqual({ deadline: 1 });
    const [line] = wideLines(lines);
    expect(line).toMatchObject({ status: 504, rangeRequests: 1, dataAnswers: { deadline: 1 } });
  });

  it.each([
    ['datasets', '/v1/datasets', {}],
    ['health', '/health', { deep: '1' }],
  ] as const)('counts the reads %s makes to describe the datasets (%s)', async (name, path, query) => {
    // Fresh handlers: nothing opened yet, so describing the dataset reads its header.
    const handlers = await loadHandlers({ ...LOUD, CONFIG_PATH: configPath, DATA_ROOT: flaky.url });
    flaky.mode = 'ok';
    const lines = await captured(async () => {
      expect((await invoke(handlers[name], { path, query })).status).toBe(200);
    });
    const [line] = wideLines(lines);
    expect(line.rangeRequests).toBeGreaterThan(0);
    expect(line).toMatchObject({ dataAnswers: { ok: line.rangeRequests } });
    expect(answers(lines)).toEqual({ ok: line.rangeRequests });
  });

  it('counts a 403 as denied and logs the internal cause only beside the generic 5xx message', async () => {
    flaky.mode = 'forbidden';
    let clientError: unknown;
    const lines = await captured(async () => {
      // Another point, so the answer is not already in the block cache.
      const response = await invoke(elevation, v1('plane-point', { locations: '49.39,10.61' }));
      expect(response.status).toBe(502);
      clientError = (response.json as Json).error;
    });
    flaky.mode = 'ok';
    expect(answers(lines)).toMatchObject({ denied: 1 });
    const [line] = wideLines(lines);
    expect(line).toMatchObject({
      level: 'ERROR',
      status: 502,
      errorCode: expect.stringMatching(/Error$/),
      errorMessage: clientError,
      error: { message: expect.stringContaining('403') },
    });
  });
});
