/**
 * The wide log line of issue 13's routes: one JSON line per request with the route, dataset, points and the
 * route's own fields (format, filled, nodata), INFO on stdout for 200 and WARN on stderr for a 4xx.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import { invoke } from './support/api-gateway';
import { XXE_KML } from './support/hostile-files';
import { loadTrackHandlers, type TrackHandlers } from './support/track-handlers';

let handlers: TrackHandlers;
beforeAll(async () => {
  // Not dev mode: there the Logger pretty-prints through console instead of the one-line fast path.
  handlers = await loadTrackHandlers({ POWERTOOLS_LOG_LEVEL: 'INFO', POWERTOOLS_DEV: 'false' });
});

/** Request lines written to stdout and stderr while `fn` runs. */
async function requestLines(fn: () => Promise<unknown>) {
  const out = jest.spyOn(process.stdout, 'write').mockImplementation(() => true);
  const err = jest.spyOn(process.stderr, 'write').mockImplementation(() => true);
  try {
    await fn();
    const parse = (spy: jest.SpyInstance) =>
      spy.mock.calls
        .map((call) => String(call[0]))
        .filter((text) => text.includes('"message":"request"'))
        .map((text) => JSON.parse(text) as Record<string, unknown>);
    return { stdout: parse(out), stderr: parse(err) };
  } finally {
    out.mockRestore();
    err.mockRestore();
  }
}

const postFile = (body: Buffer | string) =>
  invoke(handlers.file, {
    method: 'POST',
    path: '/v1/sample/file',
    pathParameters: { dataset: 'sample' },
    body: Buffer.from(body).toString('base64'),
    isBase64Encoded: true,
  });

describe('wide log line', () => {
  it('logs a filled file at INFO with route file, format and counts', async () => {
    const gpx = readFileSync(path.resolve('test/fixtures/tracks/garmin.gpx'));
    const { stdout, stderr } = await requestLines(() => postFile(gpx));
    expect(stderr).toEqual([]);
    expect(stdout).toHaveLength(1);
    expect(stdout[0]).toMatchObject({
      level: 'INFO',
      route: 'file',
      status: 200,
      dataset: 'sample',
      points: 6,
      format: 'gpx',
      filled: 5,
      nodata: 1,
      interpolation: 'bilinear',
    });
  });

  it('logs a refused file at WARN on stderr with its status', async () => {
    const { stdout, stderr } = await requestLines(() => postFile(XXE_KML));
    expect(stdout).toEqual([]);
    expect(stderr).toHaveLength(1);
    expect(stderr[0]).toMatchObject({ level: 'WARN', route: 'file', status: 400 });
  });

  it('logs profile and Google requests under their own routes', async () => {
    const { stdout } = await requestLines(async () => {
      await invoke(handlers.profile, {
        path: '/v1/sample/profile',
        pathParameters: { dataset: 'sample' },
        query: { locations: '48.65,9.05|48.85,9.25', samples: '7' },
      });
      await invoke(handlers.google, {
        path: '/maps/api/elevation/json',
        query: { locations: '48.742275,9.101177|48.8,9.2' },
      });
    });
    expect(stdout.map((l) => [l.route, l.dataset, l.points])).toEqual([
      ['profile', 'sample', 7],
      ['google', 'sample', 2],
    ]);
  });
});
