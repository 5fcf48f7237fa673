import { uncompress } from 'snappyjs';
import { count, runScript, startServer, type LocalServer } from './harness';

interface Decoded {
  labels: Record<string, string>;
  value: number;
  timestamp: number;
}

/** Minimal decoder for remote-write WriteRequest, independent of the runner's encoder. */
function decodeWriteRequest(buf: Uint8Array): Decoded[] {
  const read = (
    b: Uint8Array,
    visit: (field: number, wire: number, value: Uint8Array | number, at: number) => void,
  ) => {
    let i = 0;
    const varint = () => {
      let result = 0;
      let mul = 1;
      for (;;) {
        const byte = b[i++];
        result += (byte & 0x7f) * mul;
        if (byte < 0x80) return result;
        mul *= 128;
      }
    };
    while (i < b.length) {
      const key = varint();
      const field = key >> 3;
      const wire = key & 7;
      if (wire === 2) {
        const len = varint();
        visit(field, wire, b.subarray(i, i + len), i);
        i += len;
      } else if (wire === 1) {
        visit(field, wire, b.subarray(i, i + 8), i);
        i += 8;
      } else visit(field, wire, varint(), i);
    }
  };
  const out: Decoded[] = [];
  read(buf, (_f, _w, series) => {
    const d: Decoded = { labels: {}, value: NaN, timestamp: 0 };
    read(series as Uint8Array, (field, _w2, v) => {
      if (field === 1) {
        const label: string[] = [];
        read(v as Uint8Array, (_lf, _lw, text) => label.push(Buffer.from(text as Uint8Array).toString()));
        d.labels[label[0]] = label[1];
      } else {
        read(v as Uint8Array, (sf, _sw, sv) => {
          if (sf === 1) d.value = Buffer.from(sv as Uint8Array).readDoubleLE(0);
          else d.timestamp = sv as number;
        });
      }
    });
    out.push(d);
  });
  return out;
}

describe('Prometheus remote write output', () => {
  let api: LocalServer;
  let receiver: LocalServer;
  const received: Decoded[] = [];
  const headers: Record<string, string | string[] | undefined>[] = [];
  beforeAll(async () => {
    api = await startServer();
    receiver = await startServer(0, (req, body) => {
      headers.push(req.headers);
      received.push(...decodeWriteRequest(uncompress(new Uint8Array(body))));
    });
  });
  afterAll(async () => {
    await api.close();
    await receiver.close();
  });

  it("pushes snappy protobuf with k6's metric names, units and a testid label", async () => {
    const r = await runScript(
      `import http from 'k6/http';
import { check } from 'k6';
import { Counter } from 'k6/metrics';
const elevations = new Counter('elevations');
export const options = { scenarios: { s: { executor: 'constant-arrival-rate', rate: 20, duration: '2s', preAllocatedVUs: 2 } } };
export default async function () {
  const res = await http.asyncRequest('GET', __ENV.BASE_URL + '/v1/sample?locations=1,2', null, { tags: { name: 'get-1' } });
  check(res, { 'status is 200': (x) => x.status === 200 });
  elevations.add(1);
}`,
      ['-o', 'experimental-prometheus-rw', '--tag', 'testid=rw-test'],
      {
        BASE_URL: api.url,
        K6_PROMETHEUS_RW_SERVER_URL: `${receiver.url}/api/v1/write`,
        K6_PROMETHEUS_RW_PUSH_INTERVAL: '1s',
        K6_PROMETHEUS_RW_TREND_STATS: 'p(95),p(99),avg',
      },
    );
    expect(r.code).toBe(0);
    expect(headers[0]['content-encoding']).toBe('snappy');
    expect(headers[0]['content-type']).toBe('application/x-protobuf');
    const last = (name: string) => received.filter((d) => d.labels.__name__ === name).at(-1);
    const reqs = last('k6_http_reqs_total');
    expect(reqs?.labels).toMatchObject({
      testid: 'rw-test',
      name: 'get-1',
      method: 'GET',
      status: '200',
      scenario: 's',
    });
    expect(reqs?.value).toBe(count(r.summary, 'http_reqs'));
    expect(last('k6_elevations_total')?.value).toBe(count(r.summary, 'elevations'));
    expect(last('k6_checks_rate')?.value).toBe(1);
    // A Rate's sample count beside it, so the dashboards weight each tag set's rate (checks passed = passes / all).
    const checks = r.summary.metrics.checks?.values ?? {};
    expect(last('k6_checks_samples_total')?.value).toBe((checks.passes ?? 0) + (checks.fails ?? 0));
    expect(last('k6_checks_samples_total')?.value).toBeGreaterThan(0);
    expect(last('k6_http_req_failed_rate')?.value).toBe(0);
    // Trend stats as gauges, time in seconds.
    const p95 = last('k6_http_req_duration_p95');
    expect(p95?.value).toBeGreaterThan(0);
    expect(p95?.value).toBeLessThan(1);
    expect(last('k6_http_req_duration_p99')).toBeDefined();
    expect(last('k6_iteration_duration_avg')).toBeDefined();
    expect(received.every((d) => d.labels.testid === 'rw-test')).toBe(true);
    expect(received.every((d) => Math.abs(d.timestamp - Date.now()) < 60_000)).toBe(true);
  }, 30_000);

  // The dashboards read cumulative values through last_over_time(…[$__rate_interval]): a series pushed only when it
  // changed left the charts once its scenario ended (0 % failed for a run with 12–58 % failures).
  it('keeps pushing a series after its scenario ended, up to the final flush', async () => {
    received.length = 0;
    const r = await runScript(
      `import { sleep } from 'k6';
export const options = { scenarios: {
  early: { executor: 'per-vu-iterations', vus: 1, iterations: 1, exec: 'quick' },
  late: { executor: 'constant-vus', vus: 1, duration: '2s', exec: 'slow' },
} };
export function quick() {}
export function slow() { sleep(0.1); }`,
      ['-o', 'experimental-prometheus-rw', '--tag', 'testid=rw-ended'],
      {
        K6_PROMETHEUS_RW_SERVER_URL: `${receiver.url}/api/v1/write`,
        K6_PROMETHEUS_RW_PUSH_INTERVAL: '300ms',
      },
    );
    expect(r.code).toBe(0);
    const iterations = received.filter((d) => d.labels.__name__ === 'k6_iterations_total');
    const lastAt = (scenario: string) =>
      Math.max(...iterations.filter((d) => d.labels.scenario === scenario).map((d) => d.timestamp));
    expect(lastAt('early')).toBe(lastAt('late'));
    expect(iterations.filter((d) => d.labels.scenario === 'early').at(-1)?.value).toBe(1);
  }, 30_000);

  // rate() and increase() take a counter's first sample as its start: one that first appears mid-run at 5 counted
  // nothing until its second sample (the spike chart read 1,937 elevations/min for 2,302).
  it("starts a counter that first appears mid-run with a 0 at the previous push's time", async () => {
    received.length = 0;
    const r = await runScript(
      `import { sleep } from 'k6';
import { Counter } from 'k6/metrics';
const later = new Counter('later');
const before = new Counter('before');
export function setup() { before.add(3); }
export const options = { scenarios: {
  steady: { executor: 'constant-vus', vus: 1, duration: '2s', exec: 'slow' },
  late: { executor: 'per-vu-iterations', vus: 1, iterations: 1, startTime: '1s', exec: 'once' },
} };
export function slow() { sleep(0.1); }
export function once() { later.add(5); }`,
      ['-o', 'experimental-prometheus-rw', '--tag', 'testid=rw-new'],
      {
        K6_PROMETHEUS_RW_SERVER_URL: `${receiver.url}/api/v1/write`,
        K6_PROMETHEUS_RW_PUSH_INTERVAL: '300ms',
      },
    );
    expect(r.code).toBe(0);
    const samples = received.filter((d) => d.labels.__name__ === 'k6_later_total');
    expect(samples[0]?.value).toBe(0);
    expect(samples[1]?.value).toBe(5);
    expect(samples[0].timestamp).toBeLessThan(samples[1].timestamp);
    // The zero stands at a push the series was not in yet: the steady scenario's iterations were pushed then.
    const pushTimes = new Set(
      received.filter((d) => d.labels.__name__ === 'k6_iterations_total').map((d) => d.timestamp),
    );
    expect(pushTimes.has(samples[0].timestamp)).toBe(true);
    // setup()'s counts came before the output started: no 0 at its start, which would chart them inside the run.
    expect(received.find((d) => d.labels.__name__ === 'k6_before_total')?.value).toBe(3);
  }, 30_000);
});
