// npm run dashboards:verify-live — runs every dashboard panel's query against the live Prometheus
// (PROMETHEUS_URL) and Jaeger (JAEGER_URL) over a time range and prints, panel by panel, whether it
// returned data. Exit 1 when any panel is empty: no panel may be silently blank after a smoke run.
//   --summary results/load/<run>.json | --from ISO|unix|now-15m --to …   --var name=value
//   --dashboard <uid>  (only that dashboard)
import { DEFAULT_TRACE_SERVICE, dashboards, panelsOf } from '../../dashboards/queries';
import { hasPoints, runMetricPanel, runTracePanel } from '../../dashboards/live/run-panels';
import { resolveTraceService } from '../../dashboards/live/trace-service';
import { selectRun } from './cli-args';

const main = async (): Promise<number> => {
  const run = selectRun(process.argv.slice(2), { useNewestSummary: false, padSeconds: 60 });
  const only = run.flags.get('dashboard');
  const { from, to } = run.window;
  console.log(
    `panel data ${new Date(from * 1000).toISOString()} → ${new Date(to * 1000).toISOString()}` +
      ` (Prometheus ${run.sources.prometheusUrl}, Jaeger ${run.sources.jaegerUrl})` +
      (run.summaryFile ? ` run ${run.summaryFile}` : ''),
  );
  let empty = 0;
  let total = 0;
  for (const dashboard of dashboards.filter((d) => !only || d.uid === only)) {
    console.log(`\n${dashboard.title} (${dashboard.uid})`);
    const variables = { ...run.variables };
    if (dashboard.variables.some((v) => v.name === 'service') && !variables.service) {
      variables.service = await resolveTraceService(run.sources.jaegerUrl, DEFAULT_TRACE_SERVICE).catch(
        () => DEFAULT_TRACE_SERVICE,
      );
    }
    for (const panel of panelsOf(dashboard)) {
      total += 1;
      let line: string;
      let ok: boolean;
      try {
        if (panel.datasource === 'jaeger') {
          const traces = await runTracePanel(panel, dashboard, run.window, run.sources, variables);
          ok = traces.length > 0;
          line = `${traces.length} traces of ${variables.service ?? ''}`;
        } else {
          const result = await runMetricPanel(panel, dashboard, run.window, run.sources, variables);
          ok = hasPoints(result);
          const points = result.series.reduce((n, s) => n + s.points.filter(([, v]) => v !== null).length, 0);
          line = ok
            ? `${result.series.length} series, ${points} points`
            : `no data: ${result.queries.join(' ; ')}`;
        }
      } catch (err) {
        ok = false;
        line = `error: ${(err as Error).message}`;
      }
      if (!ok) empty += 1;
      console.log(`  ${ok ? '✓' : '✗'} ${panel.key.padEnd(30)} ${panel.title.padEnd(56)} ${line}`);
    }
  }
  console.log(`\n${total - empty}/${total} panels returned data`);
  return empty === 0 ? 0 : 1;
};

main().then(
  (code) => process.exit(code),
  (err: unknown) => {
    console.error(err);
    process.exit(2);
  },
);
