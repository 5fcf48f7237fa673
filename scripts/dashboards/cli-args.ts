// Shared command-line options of `dashboards:verify-live` and `report`: which run (summary file or
// --from/--to) and where Prometheus and Jaeger are.
import type { LiveSources, TimeWindow } from '../../dashboards/live/run-panels';
import {
  newestSummary,
  parseTime,
  readSummary,
  windowOfRun,
  type RunSummary,
} from '../../dashboards/live/window';

export interface RunSelection {
  window: TimeWindow;
  summary?: RunSummary;
  summaryFile?: string;
  variables: Record<string, string>;
  sources: LiveSources;
  flags: Map<string, string>;
}

const parseFlags = (argv: string[]): { flags: Map<string, string>; vars: Record<string, string> } => {
  const flags = new Map<string, string>();
  const vars: Record<string, string> = {};
  for (let i = 0; i < argv.length; i++) {
    const [name, inline] = argv[i].replace(/^--/, '').split(/=(.*)/s);
    const value = inline ?? (argv[i + 1] && !argv[i + 1].startsWith('--') ? argv[++i] : 'true');
    if (name === 'var') {
      const [k, v] = value.split(/=(.*)/s);
      vars[k] = v ?? '';
    } else flags.set(name, value);
  }
  return { flags, vars };
};

/**
 * --summary FILE (or the newest results/load/*.json when `useNewestSummary`), else --from/--to
 * (default: the last 15 minutes). A summary sets $testid to its run. --var name=value overrides.
 */
export const selectRun = (
  argv: string[],
  options: { useNewestSummary: boolean; padSeconds: number },
): RunSelection => {
  const { flags, vars } = parseFlags(argv);
  const sources: LiveSources = {
    prometheusUrl: process.env.PROMETHEUS_URL ?? 'http://127.0.0.1:9090',
    jaegerUrl: process.env.JAEGER_URL ?? 'http://127.0.0.1:16686',
    scrapeSeconds: Number(process.env.SCRAPE_INTERVAL_SECONDS ?? flags.get('scrape-interval') ?? 5),
  };
  const explicitWindow = flags.has('from') || flags.has('to');
  const summaryFile =
    flags.get('summary') ?? (options.useNewestSummary && !explicitWindow ? newestSummary() : undefined);
  if (summaryFile) {
    const summary = readSummary(summaryFile);
    const window = explicitWindow
      ? { from: parseTime(flags.get('from') ?? 'now-15m'), to: parseTime(flags.get('to') ?? 'now') }
      : windowOfRun(summary, options.padSeconds);
    const variables = { ...(summary.testid ? { testid: summary.testid } : {}), ...vars };
    return { window, summary, summaryFile, variables, sources, flags };
  }
  const window = { from: parseTime(flags.get('from') ?? 'now-15m'), to: parseTime(flags.get('to') ?? 'now') };
  return { window, variables: vars, sources, flags };
};
