// Prometheus HTTP API (query_range) for the report and the live panel check.

export interface RangeSeries {
  labels: Record<string, string>;
  /** [unix seconds, value]; NaN/±Inf from PromQL (0/0, empty histogram windows) become null. */
  points: [number, number | null][];
}

export interface Range {
  /** Unix seconds. */
  start: number;
  end: number;
  step: number;
}

interface QueryRangeResponse {
  status: 'success' | 'error';
  error?: string;
  data?: { resultType: string; result: { metric: Record<string, string>; values: [number, string][] }[] };
}

export const queryRange = async (baseUrl: string, expr: string, range: Range): Promise<RangeSeries[]> => {
  const url = new URL('/api/v1/query_range', baseUrl);
  const body = new URLSearchParams({
    query: expr,
    start: String(range.start),
    end: String(range.end),
    step: String(range.step),
  });
  const res = await fetch(url, { method: 'POST', body, signal: AbortSignal.timeout(15_000) });
  const json = (await res.json()) as QueryRangeResponse;
  if (json.status !== 'success' || !json.data)
    throw new Error(`Prometheus: ${json.error ?? res.statusText} for ${expr}`);
  return json.data.result.map((r) => ({
    labels: r.metric,
    points: r.values.map(([t, v]) => {
      const n = Number(v);
      return [t, Number.isFinite(n) ? n : null] as [number, number | null];
    }),
  }));
};

/** Grafana legend format: `{{label}}` replaced by the series' label value. */
export const legendFor = (format: string, labels: Record<string, string>): string =>
  format.replace(/\{\{\s*(\w+)\s*\}\}/g, (_, name: string) => labels[name] ?? '').trim() ||
  JSON.stringify(labels);
