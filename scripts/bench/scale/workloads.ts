/**
 * bench:scale's request mixes over a square of 1-degree tiles: uniform random points over the whole dataset
 * (nearly every point a different block: the cold case), a city (a 0.15-degree box, ~17 km: its blocks fit the
 * cache, the warm case) and one tile. Seeded, so every run asks the same points.
 */
import type { LoadRequest } from './closed-loop';

export interface Extent {
  south: number;
  west: number;
  tilesAcross: number;
}

export interface Workload {
  name: string;
  make(extent: Extent, seed: number): () => LoadRequest;
}

const CITY_DEGREES = 0.15;

type Box = [south: number, west: number, north: number, east: number];

function random(seed: number): () => number {
  let state = seed >>> 0 || 1;
  return () => {
    // xorshift32: fast, seeded, good enough to spread points
    state ^= state << 13;
    state ^= state >>> 17;
    state ^= state << 5;
    return (state >>> 0) / 4294967296;
  };
}

function points(n: number, box: Box, next: () => number): string[] {
  return Array.from({ length: n }, () => {
    const lat = box[0] + next() * (box[2] - box[0]);
    const lon = box[1] + next() * (box[3] - box[1]);
    return `${lat.toFixed(6)},${lon.toFixed(6)}`;
  });
}

const whole = (e: Extent): Box => [e.south, e.west, e.south + e.tilesAcross, e.west + e.tilesAcross];
/** The tile north-east of the centre, and a city inside it away from its edges. */
const centreTile = (e: Extent): Box => {
  const s = e.south + Math.floor(e.tilesAcross / 2);
  const w = e.west + Math.floor(e.tilesAcross / 2);
  return [s, w, s + 1, w + 1];
};
const city = (e: Extent): Box => {
  const [s, w] = centreTile(e);
  return [s + 0.3, w + 0.3, s + 0.3 + CITY_DEGREES, w + 0.3 + CITY_DEGREES];
};

function get1(box: (e: Extent) => Box): Workload['make'] {
  return (extent, seed) => {
    const next = random(seed);
    const b = box(extent);
    return () => ({ method: 'GET', path: `/v1/scale?locations=${points(1, b, next)[0]}`, points: 1 });
  };
}

function post(n: number, box: (e: Extent) => Box): Workload['make'] {
  return (extent, seed) => {
    const next = random(seed);
    const b = box(extent);
    return () => ({
      method: 'POST',
      path: '/v1/scale',
      body: JSON.stringify({ locations: points(n, b, next).join('|') }),
      points: n,
    });
  };
}

export const WORKLOADS: Workload[] = [
  { name: 'GET-1 uniform', make: get1(whole) },
  { name: 'POST-100 uniform', make: post(100, whole) },
  { name: 'POST-100 city', make: post(100, city) },
  { name: 'POST-512 one tile', make: post(512, centreTile) },
];
