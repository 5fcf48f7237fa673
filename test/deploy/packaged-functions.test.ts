/**
 * The packaged zips (`npm run package`) under AWS's Lambda Runtime Interface Emulator with aws-lambda-ric on Node
 * 24, the `dem` layer as their /opt, invoked with API Gateway HTTP API v2 events as API Gateway sends them.
 */
import fs from 'node:fs';
import path from 'node:path';
import { describeIfAvailable } from '../support/requirements';
import { httpEvent, type EventOptions } from '../integration/support/api-gateway';
import { makeWorkDir, PackagedFunction, unzipLayer } from './support/lambda';
import { deployRequirements } from './support/tools';

// The README's reference point over the bundled sample (SRTM3 Stuttgart): bilinear 456.889 m.
const STUTTGART = { lat: 48.742275, lon: 9.101177, bilinear: 456.889 };

describeIfAvailable(
  'packaged functions under the Lambda Runtime Interface Emulator',
  deployRequirements('rie', 'node24', 'ric'),
  () => {
    let workDir: string;
    const fns: Record<string, PackagedFunction> = {};

    beforeAll(async () => {
      workDir = makeWorkDir('deploy-fn-');
      const opt = unzipLayer(workDir);
      const env = { CONFIG_PATH: path.join(opt, 'config.yaml') };
      for (const name of ['elevation', 'legacy', 'datasets', 'health', 'google']) {
        fns[name] = new PackagedFunction(name, `functions/${name}.handler`, env);
      }
      fns.openelevation = new PackagedFunction('openelevation', 'functions/open-elevation.handler', env);
      for (const name of ['file', 'profile', 'help']) {
        fns[name] = new PackagedFunction(name, `functions/${name}.handler`, env);
      }
      fns.app = new PackagedFunction('app', 'functions/web-app.handler', env);
      await Promise.all(Object.values(fns).map((fn) => fn.start(workDir)));
    }, 60_000);

    afterAll(async () => {
      await Promise.all(Object.values(fns).map((fn) => fn.stop()));
      fs.rmSync(workDir, { recursive: true, force: true });
    });

    const v1 = (options: Omit<EventOptions, 'path'> & { dataset?: string }) => {
      const dataset = options.dataset ?? 'sample';
      return fns.elevation.invoke(
        httpEvent({ path: `/v1/${dataset}`, pathParameters: { dataset }, ...options }),
      );
    };
    const heights = (json: unknown) =>
      (json as { results: { elevation: number | null }[] }).results.map((r) => r.elevation);

    it('answers GET with query parameters, with Cache-Control and an ETag', async () => {
      const answer = await v1({ query: { locations: `${STUTTGART.lat},${STUTTGART.lon}` } });
      expect(answer.statusCode).toBe(200);
      expect(heights(answer.json)).toEqual([STUTTGART.bilinear]);
      expect(answer.headers['cache-control']).toBe('public, max-age=86400');
      expect(answer.headers.etag).toMatch(/^".+"$/);
    });

    it('answers POST with a JSON body', async () => {
      const answer = await v1({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({
          locations: [{ lat: STUTTGART.lat, lng: STUTTGART.lon }],
          interpolation: 'nearest',
        }),
      });
      expect(answer.statusCode).toBe(200);
      expect(heights(answer.json)).toHaveLength(1);
      expect(heights(answer.json)[0]).toEqual(expect.any(Number));
    });

    it('decodes a base64 body (isBase64Encoded, as API Gateway sends non-text payloads)', async () => {
      const answer = await v1({
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: Buffer.from(JSON.stringify({ locations: `${STUTTGART.lat},${STUTTGART.lon}` })).toString(
          'base64',
        ),
        isBase64Encoded: true,
      });
      expect(answer.statusCode).toBe(200);
      expect(heights(answer.json)).toEqual([STUTTGART.bilinear]);
    });

    it('accepts a form body', async () => {
      const answer = await v1({
        method: 'POST',
        headers: { 'content-type': 'application/x-www-form-urlencoded' },
        body: new URLSearchParams({ locations: `${STUTTGART.lat},${STUTTGART.lon}` }).toString(),
      });
      expect(answer.statusCode).toBe(200);
      expect(heights(answer.json)).toEqual([STUTTGART.bilinear]);
    });

    it('answers a CORS preflight (OPTIONS) with 204 and the allowed methods', async () => {
      const answer = await v1({ method: 'OPTIONS', headers: { origin: 'https://example.org' } });
      expect(answer.statusCode).toBe(204);
      expect(answer.headers['access-control-allow-methods']).toBe('GET, POST, OPTIONS');
    });

    it('answers 400 for an unknown dataset (as OpenTopoData), 405 for DELETE, 400 for a bad latitude', async () => {
      const unknown = await v1({ dataset: 'nope', query: { locations: '48.7,9.1' } });
      expect(unknown.statusCode).toBe(400);
      const del = await v1({ method: 'DELETE', query: { locations: '48.7,9.1' } });
      expect(del.statusCode).toBe(405);
      expect(del.headers.allow).toBe('GET, POST, OPTIONS, HEAD');
      const bad = await v1({ query: { locations: '91,9.1' } });
      expect(bad.statusCode).toBe(400);
      expect((bad.json as { error: string }).error).toMatch(/latitude/i);
    });

    it("serves the original system's API, the dataset list and health from their own zips", async () => {
      const legacy = await fns.legacy.invoke(
        httpEvent({ path: '/api/elevation', query: { coordinates: `${STUTTGART.lat},${STUTTGART.lon}` } }),
      );
      expect(legacy.statusCode).toBe(200);
      expect(legacy.json).toEqual([
        { latitude: STUTTGART.lat, longitude: STUTTGART.lon, altitude: STUTTGART.bilinear },
      ]);
      const datasets = await fns.datasets.invoke(httpEvent({ path: '/v1/datasets' }));
      expect(datasets.statusCode).toBe(200);
      expect(JSON.stringify(datasets.json)).toContain('"sample"');
      const health = await fns.health.invoke(httpEvent({ path: '/health', query: { deep: '1' } }));
      expect(health.statusCode).toBe(200);
      expect(health.json).toMatchObject({ status: 'OK', datasets: ['sample'] });
    });

    it("serves Google's XML and Open-Elevation's lookup from their own zips", async () => {
      const xml = await fns.google.invoke(
        httpEvent({
          path: '/maps/api/elevation/xml',
          query: { locations: `${STUTTGART.lat},${STUTTGART.lon}` },
        }),
      );
      expect(xml.statusCode).toBe(200);
      expect(xml.headers['content-type']).toBe('application/xml; charset=UTF-8');
      expect(xml.body).toContain(`<elevation>${STUTTGART.bilinear}</elevation>`);
      const lookup = await fns.openelevation.invoke(
        httpEvent({
          method: 'POST',
          path: '/api/v1/lookup',
          headers: { 'content-type': 'application/json' },
          body: JSON.stringify({ locations: [{ latitude: STUTTGART.lat, longitude: STUTTGART.lon }] }),
        }),
      );
      expect(lookup.statusCode).toBe(200);
      expect(lookup.json).toEqual({
        results: [{ latitude: STUTTGART.lat, longitude: STUTTGART.lon, elevation: STUTTGART.bilinear }],
      });
    });

    it('fills a track file, draws a profile, serves the page and the help from their own zips', async () => {
      const gpx = `<?xml version="1.0" encoding="UTF-8"?>
<gpx version="1.1" creator="test" xmlns="http://www.topografix.com/GPX/1/1"><trk><trkseg>
<trkpt lat="${STUTTGART.lat}" lon="${STUTTGART.lon}"><ele>0</ele></trkpt>
</trkseg></trk></gpx>
`;
      const filled = await fns.file.invoke(
        httpEvent({
          method: 'POST',
          path: '/v1/sample/file',
          pathParameters: { dataset: 'sample' },
          headers: { 'content-type': 'application/gpx+xml' },
          body: gpx,
        }),
      );
      expect(filled.statusCode).toBe(200);
      expect(filled.headers['x-elevation-filled']).toBe('1');
      expect(filled.body).toBe(gpx.replace('<ele>0</ele>', `<ele>${STUTTGART.bilinear}</ele>`));

      const profile = await fns.profile.invoke(
        httpEvent({
          path: '/v1/sample/profile',
          pathParameters: { dataset: 'sample' },
          query: { locations: '48.65,9.05|48.85,9.25', samples: '5' },
        }),
      );
      expect(profile.statusCode).toBe(200);
      expect(profile.json).toMatchObject({ status: 'OK', summary: { samples: 5, nodata: 0 } });

      const page = await fns.app.invoke(httpEvent({ path: '/app' }));
      expect(page.statusCode).toBe(200);
      expect(page.headers['content-type']).toBe('text/html; charset=utf-8');
      expect(page.body).toMatch(/^<!doctype html>/);

      const help = await fns.help.invoke(httpEvent({ path: '/' }));
      expect(help.statusCode).toBe(404);
      expect(help.json).toMatchObject({ status: 'INVALID_REQUEST' });
    });

    it('runs on Node 24 without --enable-source-maps (the production environment)', async () => {
      // The emulator prints its own REPORT line per invocation: proof the answers above went through it.
      expect(fns.elevation.log).toMatch(/REPORT RequestId: [\w-]+\s+(Init Duration: [\d.]+ ms\s+)?Duration:/);
      expect(fns.elevation.log).not.toMatch(/enable-source-maps/);
    });
  },
);
