/** Random locations inside a dataset's bounds, which setup() reads from `GET /v1/datasets`. */
import http from 'k6/http';
import { BASE_URL, DATASET, num } from './settings.ts';

export interface Location {
  lat: number;
  lon: number;
}

/** [west, south, east, north] in degrees. */
export type Bounds = [number, number, number, number];

export interface SetupData {
  dataset: string;
  bounds: Bounds;
  /** Epoch ms when setup() ended and the scenarios began: handleSummary's measured window. */
  measuredFrom: number;
}

interface DatasetsResponse {
  status: string;
  results: { name: string; bounds: Bounds }[];
}

/** setup(): the bounds of DATASET, shrunk by 1% per side so bilinear/cubic windows stay inside. */
export async function loadDatasetBounds(): Promise<SetupData> {
  const res = await http.asyncRequest('GET', `${BASE_URL}/v1/datasets`, null, { tags: { name: 'datasets' } });
  let body: DatasetsResponse | undefined;
  try {
    body = JSON.parse(res.body as string) as DatasetsResponse;
  } catch {
    body = undefined;
  }
  if (res.status !== 200 || !body || !Array.isArray(body.results)) {
    const detail = res.error || String(res.body).slice(0, 200);
    throw new Error(`GET ${BASE_URL}/v1/datasets answered ${res.status} (${detail}): is the API up?`);
  }
  const dataset = body.results.find((d) => d.name === DATASET);
  if (!dataset)
    throw new Error(
      `dataset "${DATASET}" not in /v1/datasets (${body.results.map((d) => d.name).join(', ')})`,
    );
  const [w, s, e, n] = dataset.bounds;
  const dx = (e - w) * 0.01;
  const dy = (n - s) * 0.01;
  const data: SetupData = { dataset: DATASET, bounds: [w + dx, s + dy, e - dx, n - dy], measuredFrom: 0 };
  await warmUp(data);
  data.measuredFrom = Date.now();
  return data;
}

/**
 * Serverless-offline, like Lambda, starts one worker (a cold start) per concurrent request: WARMUP
 * rounds of WARMUP_CONCURRENCY parallel requests per route start them before the measured phase.
 */
async function warmUp(data: SetupData): Promise<void> {
  const rounds = num('WARMUP', 2, 2);
  const concurrency = num('WARMUP_CONCURRENCY', 4, 4);
  const point = randomLocations(data.bounds, 1)[0];
  const tags = { tags: { name: 'warmup' } };
  for (let round = 0; round < rounds; round++) {
    const requests = [];
    for (let i = 0; i < concurrency; i++) {
      requests.push(
        http.asyncRequest(
          'GET',
          `${BASE_URL}/v1/${data.dataset}?locations=${point.lat},${point.lon}`,
          null,
          tags,
        ),
      );
      requests.push(
        http.asyncRequest(
          'GET',
          `${BASE_URL}/api/elevation?coordinates=${point.lat},${point.lon}`,
          null,
          tags,
        ),
      );
    }
    await Promise.all(requests);
  }
}

export function randomLocations(bounds: Bounds, count: number): Location[] {
  const [w, s, e, n] = bounds;
  const out: Location[] = [];
  for (let i = 0; i < count; i++) {
    // 6 decimals ≈ 0.1 m: realistic client precision, keeps URLs short.
    out.push({
      lat: +(s + Math.random() * (n - s)).toFixed(6),
      lon: +(w + Math.random() * (e - w)).toFixed(6),
    });
  }
  return out;
}

/** A whole number in [min, max]. */
export function randomInt(min: number, max: number): number {
  return min + Math.floor(Math.random() * (max - min + 1));
}
