/**
 * A stand-in elevation API that speaks the HTTP contract (docs: contracts) with a synthetic terrain,
 * for testing the load scripts and the runner without the real stack. Not a reference implementation:
 * no DEM, no validation beyond what the scripts exercise.
 * `tsx loadtests/runner/stub-api.ts [port]` prints its URL.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

const BOUNDS: [number, number, number, number] = [9.0, 48.6, 9.3, 48.9];

function elevation(lat: number, lon: number): number | null {
  const [w, s, e, n] = BOUNDS;
  if (lat < s || lat > n || lon < w || lon > e) return null;
  return Math.round((300 + 120 * Math.sin(lat * 40) * Math.cos(lon * 30)) * 10) / 10;
}

function parsePipe(text: string): { lat: number; lon: number }[] {
  return text
    .split(/[|;]/)
    .filter(Boolean)
    .map((pair) => {
      const [lat, lon] = pair.split(',').map(Number);
      return { lat, lon };
    });
}

function locationsFromBody(body: string): { lat: number; lon: number }[] {
  const parsed = JSON.parse(body) as unknown;
  if (Array.isArray(parsed))
    return parsed.map((p: { latitude: number; longitude: number }) => ({
      lat: p.latitude,
      lon: p.longitude,
    }));
  const locations = (parsed as { locations: unknown }).locations;
  if (typeof locations === 'string') return parsePipe(locations);
  return (locations as { lat: number; lng: number }[]).map((l) => ({ lat: l.lat, lon: l.lng }));
}

function answer(res: http.ServerResponse, status: number, body: unknown): void {
  const text = JSON.stringify(body);
  res.writeHead(status, { 'content-type': 'application/json', 'content-length': Buffer.byteLength(text) });
  res.end(text);
}

export function createStubApi(latencyMs = 0): http.Server {
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const reply = () => route(req, Buffer.concat(chunks).toString(), res);
      if (latencyMs > 0) setTimeout(reply, latencyMs);
      else reply();
    });
  });
  server.keepAliveTimeout = 65_000;
  return server;
}

function route(req: http.IncomingMessage, body: string, res: http.ServerResponse): void {
  const url = new URL(req.url ?? '/', 'http://stub');
  try {
    if (url.pathname === '/health') return answer(res, 200, { status: 'OK' });
    if (url.pathname === '/v1/datasets')
      return answer(res, 200, {
        status: 'OK',
        results: [
          { name: 'sample', bounds: BOUNDS, resolution: 0.000833, crs: 'EPSG:4326', pixelType: 'Int16' },
        ],
      });
    if (url.pathname === '/api/elevation') {
      const locations =
        req.method === 'POST'
          ? locationsFromBody(body)
          : parsePipe(url.searchParams.get('coordinates') ?? '');
      return answer(
        res,
        200,
        locations.map((l) => ({ latitude: l.lat, longitude: l.lon, altitude: elevation(l.lat, l.lon) })),
      );
    }
    const dataset = /^\/v1\/([^/]+)$/.exec(url.pathname)?.[1];
    if (dataset !== 'sample')
      return answer(res, 404, { status: 'INVALID_REQUEST', error: 'unknown dataset' });
    const locations =
      req.method === 'POST' ? locationsFromBody(body) : parsePipe(url.searchParams.get('locations') ?? '');
    return answer(res, 200, {
      status: 'OK',
      results: locations.map((l) => ({
        dataset,
        elevation: elevation(l.lat, l.lon),
        location: { lat: l.lat, lng: l.lon },
      })),
    });
  } catch (err) {
    return answer(res, 400, { status: 'INVALID_REQUEST', error: (err as Error).message });
  }
}

if (require.main === module) {
  const server = createStubApi(Number(process.env.STUB_LATENCY_MS ?? 0));
  server.listen(Number(process.argv[2] ?? 0), '127.0.0.1', () => {
    process.stdout.write(
      `stub elevation API on http://127.0.0.1:${(server.address() as AddressInfo).port}\n`,
    );
  });
}
