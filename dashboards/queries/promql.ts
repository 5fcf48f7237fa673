// Small PromQL builders so every panel spells rates, ratios and quantiles the same way.

/** Per-second rate over Grafana's $__rate_interval (≥ 4 scrape intervals, so never empty). */
export const rate = (metric: string, matcher = '', window = '$__rate_interval'): string =>
  `rate(${metric}${matcher ? `{${matcher}}` : ''}[${window}])`;

export const sumRate = (metric: string, matcher = '', by: string[] = []): string =>
  `sum${by.length ? ` by (${by.join(', ')})` : ''} (${rate(metric, matcher)})`;

/** φ-quantile from a classic histogram's buckets, aggregated over everything but `by`. */
export const quantile = (q: number, histogram: string, matcher = '', by: string[] = []): string =>
  `histogram_quantile(${q}, sum by (${['le', ...by].join(', ')}) (${rate(`${histogram}_bucket`, matcher)}))`;

/**
 * `expr or <zero with the same labels>`: a counter that has not moved yet (no 5xx, no dropped
 * iteration) has no series at all, which would leave a panel empty instead of showing 0.
 * Parenthesised whole because `or` binds looser than every arithmetic operator.
 */
export const orZero = (expr: string, shapeOf: string): string => `((${expr}) or (${shapeOf} * 0))`;
