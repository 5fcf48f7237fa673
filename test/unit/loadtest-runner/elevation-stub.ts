/**
 * A stand-in for the elevation API's HTTP contract (both formats), for running the real load profiles
 * in unit tests: every location gets a height (or null with `nulls`), no DEM behind it.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export const STUB_BOUNDS = [9, 48, 10, 49];
const HEIGHT = 321.5;

interface Point {
  lat: number;
  lon: number;
}

function parsePairs(text: string, separator: string): Point[] {
  return text
    .split(separator)
    .filter(Boolean)
    .map((pair) => {
      const [lat, lon] = pair.split(',').map(Number);
      return { lat, lon };
    });
}

export interface ElevationStub {
  url: string;
  /** Requests answered so far. */
  requests: () => number;
  close: () => Promise<void>;
}

export async function startElevationStub(options: { nulls?: boolean } = {}): Promise<ElevationStub> {
  const height = options.nulls ? null : HEIGHT;
  let requests = 0;
  const server = http.createServer((req, res) => {
    requests++;
    const chunks: Buffer[] = [];
    req.on('data', (c: Buffer) => chunks.push(c));
    req.on('end', () => {
      const url = new URL(req.url ?? '/', 'http://stub');
      const body = Buffer.concat(chunks).toString();
      const json = (status: number, value: unknown) => {
        res.writeHead(status, { 'content-type': 'application/json' });
        res.end(JSON.stringify(value));
      };
      if (url.pathname === '/v1/datasets')
        return json(200, { status: 'OK', results: [{ name: 'sample', bounds: STUB_BOUNDS }] });
      if (url.pathname === '/v1/sample') {
        const points =
          req.method === 'POST'
            ? (JSON.parse(body) as { locations: { lat: number; lng: number }[] }).locations.map((l) => ({
                lat: l.lat,
                lon: l.lng,
              }))
            : parsePairs(url.searchParams.get('locations') ?? '', '|');
        return json(200, {
          status: 'OK',
          results: points.map((p) => ({ elevation: height, location: { lat: p.lat, lng: p.lon } })),
        });
      }
      if (url.pathname === '/api/elevation') {
        const points =
          req.method === 'POST'
            ? (JSON.parse(body) as { latitude: number; longitude: number }[]).map((l) => ({
                lat: l.latitude,
                lon: l.longitude,
              }))
            : parsePairs(url.searchParams.get('coordinates') ?? '', ';');
        return json(
          200,
          points.map((p) => ({ latitude: p.lat, longitude: p.lon, altitude: height })),
        );
      }
      return json(404, { status: 'INVALID_REQUEST', error: 'not found' });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}`,
    requests: () => requests,
    close: () =>
      new Promise<void>((resolve) => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
