/**
 * One test run: init context, setup(), the scenarios (in this thread or split across worker threads),
 * teardown(), thresholds, summary and outputs. Exit codes as k6: 0 ok, 99 thresholds failed (also when
 * abortOnFail stopped the test), 104 invalid config, 107 script error, 108 test.abort().
 */
import { writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatDuration } from './duration.ts';
import { WHOLE } from './executors/common.ts';
import { mergeInto } from './metrics/registry.ts';
import { DEFAULT_TREND_STATS, newSink, sinkValues } from './metrics/sinks.ts';
import { ProgressLine } from './output/progress.ts';
import { RemoteWriteOutput, remoteWriteConfig } from './output/prometheus-rw.ts';
import { buildSummaryData } from './output/summary-data.ts';
import { writeSummaryFile } from './output/summary-file.ts';
import { textSummary } from './output/summary-text.ts';
import { maxScenarioEndMs, maxVUsOf } from './scenarios.ts';
import { ConfigError, loadScript, runScenarios, type LoadOptions } from './script-runtime.ts';
import { evaluateThresholds, parseThresholds, validateThresholds, type ThresholdInput } from './thresholds.ts';
import { prepareWorkers } from './worker-pool.ts';

export { ConfigError };

export interface RunConfig extends LoadOptions {
  summaryExport?: string;
  outputs: string[];
  progress: boolean;
  /** Worker threads generating the load; 1 = this thread only. */
  workers: number;
  log: (text: string) => void;
  /** Called when the scenarios start and when they have ended (benchmarks measure between). */
  onExecution?: (phase: 'start' | 'end') => void;
}

export interface RunOutcome {
  exitCode: number;
  summaryPath: string;
  abortReason?: string;
}

export async function runTest(config: RunConfig): Promise<RunOutcome> {
  const loaded = await loadScript(config);
  const { runtime, script, options, scenarios, runs } = loaded;
  const thresholdGroups = parseThresholds(options.thresholds as Record<string, ThresholdInput[]> | undefined);
  try {
    validateThresholds(thresholdGroups, runtime.registry);
  } catch (err) {
    throw new ConfigError((err as Error).message);
  }
  const trendStats = (options.summaryTrendStats as string[] | undefined) ?? DEFAULT_TREND_STATS;
  const maxVUs = scenarios.reduce((n, s) => n + maxVUsOf(s), 0);
  const maxMs = Math.max(...scenarios.map(maxScenarioEndMs));
  config.log(
    `\n  execution: local (elevation k6-compatible runner, ${config.workers} thread(s))\n` +
      `     script: ${config.scriptPath}\n     output: ${config.outputs.join(', ') || '-'}\n\n` +
      `  scenarios: ${scenarios.length} scenario(s), ${maxVUs} max VUs, ${formatDuration(maxMs)} max duration (incl. graceful stop):\n` +
      scenarios.map((s) => `           * ${s.name}: ${s.executor} (exec: ${s.exec})`).join('\n') +
      '\n\n',
  );

  const startedAt = new Date().toISOString();
  let exitCode = 0;
  let abortReason: string | undefined;
  runtime.onAbort((reason, code) => {
    abortReason = reason;
    exitCode = code;
  });

  runtime.outsideGroup = '::setup';
  const setupData = script.setup ? JSON.parse(JSON.stringify((await script.setup()) ?? null)) : undefined;
  runtime.outsideGroup = '';

  const remoteWrite = config.outputs.includes('experimental-prometheus-rw')
    ? new RemoteWriteOutput(runtime.registry, remoteWriteConfig(config.env))
    : undefined;
  remoteWrite?.start();
  const workerRun =
    config.workers > 1 ? await prepareWorkers(loaded, config, setupData, config.workers) : undefined;
  config.onExecution?.('start');

  const executionStart = performance.now();
  const progress = new ProgressLine(runs, executionStart, maxVUs, config.progress);
  progress.start();
  const sum = (f: (r: (typeof runs)[number]) => number) => runs.reduce((n, r) => n + f(r), 0);
  // vus / vus_max samples once a second, as k6 emits them.
  const vusTimer = setInterval(() => {
    runtime.registry.add(
      runtime.builtins.vus,
      sum((r) => r.activeVUs),
      { ...config.tags },
    );
    runtime.registry.add(
      runtime.builtins.vus_max,
      sum((r) => r.allocatedVUs),
      { ...config.tags },
    );
  }, 1000);
  // abortOnFail thresholds are checked every 2 s, like k6, once their delayAbortEval has passed.
  const abortTimer = setInterval(() => {
    const elapsed = performance.now() - executionStart;
    const failed = evaluateThresholds(
      thresholdGroups,
      runtime.registry,
      elapsed,
      (t) => t.abortOnFail && elapsed >= t.delayAbortEvalMs,
    ).filter((r) => !r.ok);
    if (failed.length)
      runtime.abort(`thresholds on metrics '${failed.map((r) => r.group.key).join(', ')}' were crossed`, 99);
  }, 2000);

  if (workerRun) await workerRun.start();
  else {
    const next = runs.map(() => 0);
    await runScenarios(loaded, setupData, WHOLE, (i, limit) => (next[i] < limit ? next[i]++ : -1));
  }
  const executionMs = performance.now() - executionStart;
  config.onExecution?.('end');
  clearInterval(abortTimer);
  clearInterval(vusTimer);
  progress.stop();
  if (abortReason) config.log(`\nTest aborted: ${abortReason}\n`);

  runtime.outsideGroup = '::teardown';
  if (script.teardown) await script.teardown(setupData);
  await loaded.closeHttp();

  const testRunDurationMs = runtime.elapsedMs();
  const results = evaluateThresholds(thresholdGroups, runtime.registry, testRunDurationMs);
  const failed = results.filter((r) => !r.ok);
  if (failed.length && exitCode === 0) exitCode = 99;
  const data = buildSummaryData(runtime.registry, results, testRunDurationMs, trendStats, setupData);
  await remoteWrite?.stop();

  if (script.handleSummary) {
    const files = (await script.handleSummary(data)) as Record<string, string> | undefined;
    for (const [target, content] of Object.entries(files ?? {})) {
      if (target === 'stdout') process.stdout.write(content);
      else if (target === 'stderr') process.stderr.write(content);
      else writeFileSync(path.resolve(target), content);
    }
  } else config.log(textSummary(data));
  if (failed.length) {
    const names = [...new Set(failed.map((r) => r.group.key))].join(', ');
    config.log(
      `ERRO[${formatDuration(testRunDurationMs)}] thresholds on metrics '${names}' have been crossed\n`,
    );
  }

  const summaryPath = writeSummaryFile(
    config.summaryExport ?? defaultSummaryPath(config.scriptPath, startedAt),
    {
      script: config.scriptPath,
      testid: config.tags.testid ?? '',
      startedAt,
      executionMs,
      exitCode,
      abortReason,
      results,
      data,
      scenarioValues: (name) => {
        const metric = runtime.registry.metrics.get(name);
        if (!metric) return undefined;
        const total = newSink(metric.type);
        for (const series of metric.series.values()) if (series.tags.scenario) mergeInto(total, series.sink);
        return sinkValues(total, executionMs, trendStats);
      },
    },
  );
  config.log(`summary: ${summaryPath}\n`);
  return { exitCode, summaryPath, abortReason };
}

export function defaultSummaryPath(scriptPath: string, startedAt: string): string {
  const base = path.basename(scriptPath).replace(/\.[jt]s$/, '');
  return path.join('results', 'load', `${base}-${startedAt.replace(/[:.]/g, '-')}.json`);
}
