/**
 * Load-generator bench script: closed-model GETs against a bare local server, to measure how many
 * requests per second the runner itself can generate. Env: BASE_URL, VUS (128), DURATION (10s).
 */
import { check } from 'k6';
import http from 'k6/http';
import type { Options } from 'k6/options';

export const options: Options = {
  scenarios: {
    bare: {
      executor: 'constant-vus',
      vus: Number(__ENV.VUS ?? '128'),
      duration: __ENV.DURATION ?? '10s',
      gracefulStop: '2s',
    },
  },
  thresholds: { http_req_failed: ['rate<0.01'] },
};

export default async function (): Promise<void> {
  const res = await http.asyncRequest('GET', `${__ENV.BASE_URL}/bench`, null, { tags: { name: 'bench' } });
  check(res, { 'status is 200': (r) => r.status === 200 });
}
