/**
 * Load-generator bench script, k6's synchronous style (`http.get` blocks the VU): the same load as
 * bare-get.ts. Env: BASE_URL, BENCH_PATH (/bench), VUS (32), DURATION (10s).
 */
import { check } from 'k6';
import http from 'k6/http';
import type { Options } from 'k6/options';

export const options: Options = {
  scenarios: {
    bare: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS ?? '32'),
      duration: __ENV.DURATION ?? '10s',
      gracefulStop: '2s',
    },
  },
  thresholds: { http_req_failed: ['rate<0.01'] },
};

export default function (): void {
  const url = `${__ENV.BASE_URL}${__ENV.BENCH_PATH ?? '/bench'}`;
  for (let i = 0; i < 8; i++) {
    const res = http.get(url, { tags: { name: 'bench' } });
    check(res, { 'status is 200': (r) => r.status === 200 });
  }
}
