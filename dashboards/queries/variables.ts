// Grafana substitutes dashboard variables and $__rate_interval before a query runs; the report and
// the live check run the same text outside Grafana, so they substitute the same way here.
import type { DashboardDefinition } from './types';

/**
 * Grafana's $__rate_interval is max($__interval + scrape interval, 4 × scrape interval). Outside
 * Grafana we know the step: use max(step + scrape, 4 × scrape) so a rate always spans ≥ 4 samples.
 */
export const rateIntervalFor = (stepSeconds: number, scrapeSeconds = 5): string =>
  `${Math.max(stepSeconds + scrapeSeconds, 4 * scrapeSeconds)}s`;

/** Replace `$name` / `${name}` with the given values, falling back to each variable's default. */
export const interpolate = (
  text: string,
  dashboard: DashboardDefinition,
  values: Record<string, string>,
): string => {
  const all: Record<string, string> = {};
  for (const v of dashboard.variables) all[v.name] = v.defaultValue;
  Object.assign(all, values);
  return text.replace(
    /\$\{(\w+)\}|\$(\w+)/g,
    (whole, braced: string | undefined, bare: string | undefined) => {
      const name = braced ?? bare ?? '';
      return name in all ? all[name] : whole;
    },
  );
};
