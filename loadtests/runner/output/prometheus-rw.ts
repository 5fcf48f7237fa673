/**
 * Prometheus remote write with the names k6's experimental-prometheus-rw output uses, so the standard
 * k6 dashboards work on our data: prefix `k6_`; counters `_total`; rates `_rate`; gauges as is; trends
 * as one gauge per stat (`k6_http_req_duration_p95`, time values in seconds), the stats chosen by
 * K6_PROMETHEUS_RW_TREND_STATS (k6's default: p(99)). Every value is cumulative since the test start,
 * per tag set, as in k6, and every series seen is pushed at every flush until the run ends. Config by k6's env vars: K6_PROMETHEUS_RW_SERVER_URL, _PUSH_INTERVAL,
 * _TREND_STATS, _HTTP_HEADERS.
 */
import { request } from 'undici';
import { compress } from 'snappyjs';
import { parseDuration } from '../duration.ts';
import type { Metric, Registry, Series } from '../metrics/registry.ts';
import { trendStat, type Sink } from '../metrics/sinks.ts';
import { encodeWriteRequest, type PromLabel, type PromSeries } from './protobuf.ts';

export interface RemoteWriteConfig {
  url: string;
  pushIntervalMs: number;
  trendStats: string[];
  headers: Record<string, string>;
}

export function remoteWriteConfig(env: Record<string, string | undefined>): RemoteWriteConfig {
  const headers: Record<string, string> = {};
  for (const pair of (env.K6_PROMETHEUS_RW_HTTP_HEADERS ?? '').split(',').filter(Boolean)) {
    const at = pair.indexOf(':');
    if (at > 0) headers[pair.slice(0, at).trim()] = pair.slice(at + 1).trim();
  }
  return {
    url: env.K6_PROMETHEUS_RW_SERVER_URL ?? 'http://localhost:9090/api/v1/write',
    pushIntervalMs: parseDuration(env.K6_PROMETHEUS_RW_PUSH_INTERVAL, 5000),
    trendStats: (env.K6_PROMETHEUS_RW_TREND_STATS ?? 'p(99)').split(',').map((s) => s.trim()),
    headers,
  };
}

/** `p(95)` → `p95`, `p(99.9)` → `p999`, as k6 names the series. */
export function statSuffix(stat: string): string {
  const m = /^p\((.*)\)$/.exec(stat);
  return m ? `p${m[1].replace('.', '')}` : stat;
}

function labelsFor(name: string, tags: Record<string, string>): PromLabel[] {
  const labels: PromLabel[] = [{ name: '__name__', value: name }];
  for (const [key, value] of Object.entries(tags)) {
    // An empty label is the same as no label to Prometheus; invalid characters become `_`.
    if (value !== '') labels.push({ name: key.replace(/[^a-zA-Z0-9_]/g, '_'), value });
  }
  return labels.sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}

export function mapSeries(
  metric: Metric,
  series: Series,
  stats: string[],
  timestampMs: number,
): PromSeries[] {
  const base = `k6_${metric.name}`;
  const sink: Sink = series.sink;
  const one = (name: string, value: number) => ({ labels: labelsFor(name, series.tags), value, timestampMs });
  switch (sink.type) {
    case 'counter':
      return [one(`${base}_total`, sink.sum)];
    case 'gauge':
      return [one(base, sink.value)];
    case 'rate':
      // Beside k6's `_rate` gauge, how many values it counted (not a k6 series): a rate per tag set cannot be
      // combined across tag sets without its weight, and the checks chart is passes / all checks.
      return [one(`${base}_rate`, sink.rate), one(`${base}_samples_total`, sink.total)];
    case 'trend': {
      const scale = metric.contains === 'time' ? 1 / 1000 : 1;
      return stats.map((stat) => one(`${base}_${statSuffix(stat)}`, trendStat(sink.values, stat) * scale));
    }
  }
}

export class RemoteWriteOutput {
  private timer?: NodeJS.Timeout;
  private pending: Promise<void> = Promise.resolve();
  private failures = 0;
  /** The series pushed so far, or there at the start; a new counter series is started with a 0 (flush()). */
  private readonly pushed = new WeakSet<Series>();
  /** The previous push's time, or the output's start: when a series that is new now did not exist yet. */
  private previousAt = Date.now();

  constructor(
    private readonly registry: Registry,
    private readonly config: RemoteWriteConfig,
  ) {}

  start(): void {
    this.previousAt = Date.now();
    // Counters from before the output started (setup()'s requests) get no 0 at its start: their counts happened
    // earlier, and a 0 there would chart them as a burst in the run's first interval.
    for (const metric of this.registry.metrics.values())
      for (const series of metric.series.values()) this.pushed.add(series);
    this.timer = setInterval(() => {
      this.pending = this.pending.then(() => this.flush());
    }, this.config.pushIntervalMs);
  }

  async stop(): Promise<void> {
    clearInterval(this.timer);
    await this.pending;
    await this.flush();
  }

  /**
   * Pushes every series seen so far, changed or not, until the run ends (the last flush is stop()'s). The values are
   * cumulative and the dashboards read them through last_over_time(…[$__rate_interval]), which ends a line one
   * window after its last sample: pushing only the series that changed dropped a scenario from the failed-requests,
   * checks and p95 charts as soon as it stopped sending, so they showed the scenarios still running.
   */
  async flush(): Promise<void> {
    const now = Date.now();
    const out: PromSeries[] = [];
    // A counter that first appears mid-run (a later scenario's) is started with a 0 at the previous push's time:
    // rate() and increase() take a series' first sample as its start, so its first value, and the rate until its
    // second sample, were left out (a spike chart read 1,937 elevations/min for 2,302).
    const zeroAt = Math.min(this.previousAt, now - 1);
    for (const metric of this.registry.metrics.values()) {
      for (const series of metric.series.values()) {
        const mapped = mapSeries(metric, series, this.config.trendStats, now);
        if (series.sink.type === 'counter' && !this.pushed.has(series)) {
          this.pushed.add(series);
          out.push(...mapped.map((m) => ({ ...m, value: 0, timestampMs: zeroAt })));
        }
        out.push(...mapped);
      }
    }
    this.previousAt = now;
    if (out.length === 0) return;
    try {
      const res = await request(this.config.url, {
        method: 'POST',
        headers: {
          'content-type': 'application/x-protobuf',
          'content-encoding': 'snappy',
          'x-prometheus-remote-write-version': '0.1.0',
          ...this.config.headers,
        },
        body: compress(encodeWriteRequest(out)),
      });
      const text = await res.body.text();
      if (res.statusCode >= 300) throw new Error(`HTTP ${res.statusCode}: ${text.slice(0, 200)}`);
    } catch (err) {
      if (this.failures++ < 3)
        process.stderr.write(
          `WARN[prometheus-rw] push to ${this.config.url} failed: ${(err as Error).message}\n`,
        );
    }
  }
}
