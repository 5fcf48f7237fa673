/**
 * One test run, in k6's order: load the script (init context → options), initialise the VUs (one
 * thread each), setup() in VU 0, the scenarios, teardown(), thresholds, handleSummary() or the
 * end-of-test summary, outputs. Exit codes as k6: 0 ok, 99 thresholds failed (also when abortOnFail
 * stopped the test), 100/101 setup()/teardown() timed out, 104 invalid config, 107 script error,
 * 105 stopped by Ctrl-C or SIGTERM, 108 test.abort(), 110 exec.test.fail().
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import path from 'node:path';
import { formatDuration } from './duration.ts';
import { runArrivalRate } from './executors/arrival-rate.ts';
import { delay, type ExecutorContext } from './executors/common.ts';
import { runLoopingVUs } from './executors/looping-vus.ts';
import { loadTest, ConfigError, type LoadOptions } from './load-test.ts';
import { applyDeltas } from './metrics/delta.ts';
import { LAG_WARNING_MS } from './metrics/builtin.ts';
import { DEFAULT_TREND_STATS } from './metrics/sinks.ts';
import { resolveToughCookie } from './modules/cookies.ts';
import { resolveCheerio } from './modules/html.ts';
import { Pools } from './modules/http-transport.ts';
import { ProgressLine } from './output/progress.ts';
import { RemoteWriteOutput, remoteWriteConfig } from './output/prometheus-rw.ts';
import { buildSummaryData } from './output/summary-data.ts';
import { writeSummaryExport } from './output/summary-export.ts';
import { writeRunRecord } from './output/run-record.ts';
import { textSummary, type ObservedThresholds, type SummaryMode } from './output/summary-text.ts';
import { initialVUsOf, maxScenarioEndMs, maxVUsOf, type Scenario } from './scenarios.ts';
import { newScenarioRun, TestRun, type Vu } from './test-run.ts';
import { evaluateThresholds } from './thresholds.ts';
import { VuHandle, type VuSpec } from './vu/handle.ts';
import type { CallMessage, DoneMessage } from './vu/protocol.ts';

export { ConfigError };

/** An exception in setup(), teardown() or a VU's init context: exit 107. */
export class ScriptError extends Error {
  override name = 'ScriptError';
}

/** setup() or teardown() ran past setupTimeout/teardownTimeout: k6's exit codes 100 and 101. */
export class CallTimeoutError extends Error {
  override name = 'TimeoutError';
  constructor(
    message: string,
    readonly exitCode: number,
  ) {
    super(message);
  }
}
const EXIT_SETUP_TIMEOUT = 100;
const EXIT_TEARDOWN_TIMEOUT = 101;
/** k6's exit code after exec.test.fail(). */
const EXIT_MARKED_AS_FAILED = 110;
const EXIT_EXTERNAL_ABORT = 105;
const EXIT_SCRIPT_ERROR = 107;

/** vu.call() for setup()/teardown(), refused with k6's message and exit code after `ms`. */
async function callWithin(
  vu: VuHandle,
  fn: 'setup' | 'teardown',
  ms: number,
  message: Omit<CallMessage, 'kind' | 'fn'>,
): Promise<DoneMessage> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<never>((_, reject) => {
    timer = setTimeout(() => {
      vu.interrupt();
      reject(
        new CallTimeoutError(
          `${fn}() execution timed out after ${Math.round(ms / 1000)} seconds ` +
            `(increase the time limit with the ${fn}Timeout option)`,
          fn === 'setup' ? EXIT_SETUP_TIMEOUT : EXIT_TEARDOWN_TIMEOUT,
        ),
      );
    }, ms);
  });
  try {
    return await Promise.race([vu.call({ fn, ...message }), timeout]);
  } finally {
    clearTimeout(timer);
  }
}

export interface RunConfig extends LoadOptions {
  /** k6's --summary-export: the legacy JSON export format. */
  summaryExport?: string;
  /** This runner's own record of the run (exit code, thresholds, summary data), for tests and tools. */
  runRecord?: string;
  summaryMode: SummaryMode;
  outputs: string[];
  progress: boolean;
  log: (text: string) => void;
  /** Warnings found before the script loaded (K6_* variables the runner does not read). */
  warnings?: string[];
  /** k6's --no-thresholds: thresholds are neither evaluated nor able to fail the run. */
  noThresholds?: boolean;
  /** k6's -v/--verbose: console.debug() is printed (k6 logs at debug level). */
  verbose?: boolean;
  /** k6's --no-summary: no end-of-test summary (nor handleSummary()). */
  noSummary?: boolean;
  /** Called when the scenarios start and when they have ended (benchmarks measure between). */
  onExecution?: (phase: 'start' | 'end') => void;
  /**
   * The CLI's: Ctrl-C or SIGTERM ends the run as in k6. A tool that runs many tests in one process (the capacity
   * search) keeps Node's default, so that Ctrl-C stops it rather than one of its trials.
   */
  handleSignals?: boolean;
}

export interface RunOutcome {
  exitCode: number;
  abortReason?: string;
}

function header(config: RunConfig, scenarios: Scenario[]): string {
  const maxVUs = scenarios.reduce((n, s) => n + maxVUsOf(s), 0);
  const maxMs = Math.max(...scenarios.map(maxScenarioEndMs));
  return (
    `\n  execution: local (elevation k6-compatible runner, one thread per VU)\n` +
    `     script: ${config.scriptPath}\n     output: ${config.outputs.join(', ') || '-'}\n\n` +
    `  scenarios: (100.00%) ${scenarios.length} scenario${scenarios.length > 1 ? 's' : ''}, ${maxVUs} max VUs, ${formatDuration(maxMs)} max duration (incl. graceful stop):\n` +
    scenarios.map((s) => `           * ${s.name}: ${s.executor} (exec: ${s.exec})`).join('\n') +
    '\n\n'
  );
}

export async function runTest(config: RunConfig): Promise<RunOutcome> {
  const loaded = await loadTest(config);
  const { scenarios, settings } = loaded;
  const thresholds = config.noThresholds ? [] : loaded.thresholds;
  // As k6 does for an option it does not know (and here also for one the runner does not implement).
  for (const warning of [...(config.warnings ?? []), ...loaded.warnings])
    process.stderr.write(`WARN[0000] ${warning}\n`);
  const test = new TestRun(config.tags);
  test.runs.push(...scenarios.map(newScenarioRun));
  const trendStats = (loaded.options.summaryTrendStats as string[] | undefined) ?? DEFAULT_TREND_STATS;
  config.log(header(config, scenarios));

  let exitCode = 0;
  let abortReason: string | undefined;
  test.onAbort((reason, code) => {
    abortReason = reason;
    exitCode = code;
  });
  // As k6: the first Ctrl-C (or SIGTERM) ends the run as an abort does, so teardown() and handleSummary() still
  // run and the figures so far are kept, exit 105 (ExternalAbort); a second one stops at once. (Node's default,
  // exit 130 on the spot, lost a stopped soak's summary.)
  let signals = 0;
  const onSignal = (signal: NodeJS.Signals) => {
    if (++signals > 1) process.exit(EXIT_EXTERNAL_ABORT);
    const name = signal === 'SIGINT' ? 'interrupt' : 'terminated';
    process.stderr.write(`\nStopping k6 in response to signal ${signal} (again to stop at once)...\n`);
    test.abort(`test run was aborted because k6 received a '${name}' signal`, EXIT_EXTERNAL_ABORT);
  };
  if (config.handleSignals) {
    process.on('SIGINT', onSignal);
    process.on('SIGTERM', onSignal);
  }
  // Set when the VUs are initialised, just before setup(), as k6 marks the test started (execution/scheduler.go,
  // MarkStarted): rates, state.testRunDurationMs and delayAbortEval leave VU initialisation out.
  let testStartedAt = Date.now();
  const pools = new Pools({
    rps: settings.rps,
    noConnectionReuse: settings.noConnectionReuse,
    blacklistIPs: settings.blacklistIPs,
  });
  const spec: VuSpec = {
    code: loaded.code,
    scriptPath: config.scriptPath,
    env: config.env,
    globalTags: config.tags,
    allowRemote: config.allowRemote,
    testStartedAt,
    // exec.test.options: the script's options with the command line's tags, as k6 consolidates them.
    options: {
      ...loaded.options,
      tags: { ...(loaded.options.tags as Record<string, string> | undefined), ...config.tags },
    },
    sharedArrays: loaded.sharedArrays,
    stderrIsTTY: Boolean(process.stderr.isTTY),
    verbose: config.verbose === true,
    toughCookiePath: resolveToughCookie(),
    cheerioPath: resolveCheerio(),
  };
  const handles: VuHandle[] = [];
  let nextVuId = 1;
  /** A VU of `scenario` sees the scenario's `env` in __ENV, as in k6 (VU 0 the test's env only). */
  const startVu = async (id: number, scenario?: Scenario) => {
    const env = scenario ? { ...spec.env, ...scenario.env } : spec.env;
    const handle = await VuHandle.start(
      id,
      { ...spec, env },
      pools,
      (reason) => test.abort(reason, 108),
      (reason) => (test.failedReason ??= reason),
    );
    handles.push(handle);
    return handle;
  };

  void test.whenAborted.then(() => handles.forEach((h) => h.interrupt()));
  const absorb = (done: DoneMessage | undefined, what: string) => {
    if (!done) return;
    applyDeltas(test.registry, done.deltas);
    if (done.error) throw new ScriptError(`${what}: ${done.error}`);
  };

  try {
    // k6 initialises every VU a scenario starts with before setup(); VU 0 runs setup/teardown.
    const vu0 = await startVu(0);
    const initial = await Promise.all(
      scenarios.map((s) =>
        Promise.all(Array.from({ length: initialVUsOf(s) }, () => startVu(nextVuId++, s))),
      ),
    );
    testStartedAt = Date.now();
    spec.testStartedAt = testStartedAt;
    for (const h of handles) h.markStarted(testStartedAt);
    const exports = loaded.exports;
    // An exception or timeout in setup() or teardown() ends the run with its exit code, but, as in k6, the
    // thresholds and the summary still follow (internal/cmd/run.go writes them in a defer once init has passed);
    // setup() failing skips the scenarios and teardown(), as k6's scheduler returns before them.
    let failure: ScriptError | CallTimeoutError | undefined;
    const lifecycleCall = async (run: () => Promise<DoneMessage | undefined>, what: string) => {
      try {
        const done = await run();
        absorb(done, what);
        return done;
      } catch (err) {
        if (!(err instanceof ScriptError || err instanceof CallTimeoutError)) throw err;
        failure ??= err;
        exitCode = err instanceof CallTimeoutError ? err.exitCode : EXIT_SCRIPT_ERROR;
        return undefined;
      }
    };
    const setupDone = await lifecycleCall(
      async () =>
        exports.setup && !settings.noSetup
          ? await callWithin(vu0, 'setup', settings.setupTimeoutMs, {
              useSetupData: false,
              wantResult: true,
              group: '::setup',
            })
          : undefined,
      'setup() failed',
    );
    const setupData = setupDone?.result;
    spec.setupData = { value: setupData };
    for (const h of handles) h.setSetupData(setupData);

    const remoteWrite = config.outputs.includes('experimental-prometheus-rw')
      ? new RemoteWriteOutput(test.registry, remoteWriteConfig(config.env))
      : undefined;
    remoteWrite?.start();
    config.onExecution?.('start');
    const executionStart = performance.now();
    const maxVUs = scenarios.reduce((n, s) => n + maxVUsOf(s), 0);
    /** vus: active VUs; vus_max: VUs initialised for the scenarios (VU 0, which runs setup, is not one). */
    const sampleVUs = () => {
      test.registry.add(
        test.builtins.vus,
        test.total((r) => r.activeVUs),
        { ...config.tags },
      );
      test.registry.add(test.builtins.vus_max, handles.length - 1, { ...config.tags });
    };
    const progress = new ProgressLine(test.runs, executionStart, maxVUs, config.progress);
    progress.start();
    // Event loop lag: how late a 50 ms tick fires, worst per second.
    let lagMaxMs = 0;
    let tickAt = performance.now();
    const timers = [
      setInterval(() => {
        const now = performance.now();
        lagMaxMs = Math.max(lagMaxMs, now - tickAt - 50);
        tickAt = now;
      }, 50),
      // vus / vus_max samples once a second, as k6 emits them; the runner's own lag beside them.
      setInterval(() => {
        sampleVUs();
        test.registry.add(test.builtins.runner_event_loop_lag, lagMaxMs, { ...config.tags });
        lagMaxMs = 0;
      }, 1000),
      // abortOnFail thresholds are checked every 2 s, like k6, once delayAbortEval (from the test's start) has passed.
      setInterval(() => {
        const elapsed = Date.now() - testStartedAt;
        const failed = evaluateThresholds(
          thresholds,
          test.registry,
          elapsed,
          (t) => t.abortOnFail && elapsed >= t.delayAbortEvalMs,
        ).filter((r) => !r.ok);
        if (failed.length)
          test.abort(`thresholds on metrics '${failed.map((r) => r.group.key).join(', ')}' were crossed`, 99);
      }, 2000),
    ];

    if (!test.aborted && !failure) {
      const running = Promise.all(
        test.runs.map(async (run, i) => {
          const s = run.scenario;
          if (s.startTimeMs > 0) await Promise.race([delay(s.startTimeMs), test.whenAborted]);
          if (test.aborted) return;
          const vuTags = { ...config.tags, ...s.tags, scenario: s.name };
          const asVu = (handle: VuHandle, idInInstance: number): Vu => ({
            handle,
            idInInstance,
            iterationInInstance: -1,
            iterationInScenario: -1,
            tags: vuTags,
          });
          const vus = initial[i].map((h, slot) => asVu(h, slot + 1));
          run.allocatedVUs = vus.length;
          const ctx: ExecutorContext = {
            test,
            run,
            vus,
            minIterationDurationMs: settings.minIterationDurationMs,
            newVu: async () => {
              const handle = await startVu(nextVuId++, s);
              handle.setSetupData(setupData);
              return asVu(handle, ++run.allocatedVUs);
            },
          };
          await (s.executor.endsWith('arrival-rate') ? runArrivalRate(ctx) : runLoopingVUs(ctx));
        }),
      );
      // The executors have started their VUs (synchronously, up to their first wait): a first sample.
      sampleVUs();
      await running;
    }
    const executionMs = performance.now() - executionStart;
    config.onExecution?.('end');
    timers.forEach(clearInterval);
    // And once when the scenarios have ended, as k6 does on its way out.
    sampleVUs();
    progress.stop();
    if (abortReason) config.log(`\nTest aborted: ${abortReason}\n`);

    if (!failure)
      await lifecycleCall(
        async () =>
          exports.teardown && !settings.noTeardown
            ? await callWithin(vu0, 'teardown', settings.teardownTimeoutMs, {
                useSetupData: true,
                wantResult: false,
                group: '::teardown',
              })
            : undefined,
        'teardown() failed',
      );

    const testRunDurationMs = Date.now() - testStartedAt;
    const results = evaluateThresholds(thresholds, test.registry, testRunDurationMs);
    const failed = results.filter((r) => !r.ok);
    if (failed.length && exitCode === 0) exitCode = 99;
    if (test.failedReason !== undefined && exitCode === 0) exitCode = EXIT_MARKED_AS_FAILED;
    const data = buildSummaryData(
      test.registry,
      results,
      testRunDurationMs,
      trendStats,
      setupData,
      settings.summaryTimeUnit,
    );
    data.runner = {
      exitCode,
      abortReason:
        abortReason ??
        failure?.message ??
        (test.failedReason !== undefined ? `test run was marked as failed: ${test.failedReason}` : null),
    };
    await remoteWrite?.stop();

    const lagMax = test.registry.aggregate('runner_event_loop_lag');
    const lagWarning =
      lagMax?.type === 'gauge' && lagMax.max > LAG_WARNING_MS
        ? `WARN the load generator's event loop lagged up to ${lagMax.max.toFixed(0)} ms (metric runner_event_loop_lag): ` +
          'it was saturated, so http_req_duration includes its own delay; give it more CPU or less load\n'
        : '';
    // --no-summary: neither handleSummary() nor the text summary, as in k6.
    let printed = config.noSummary === true;
    // After a setup() or teardown() timeout VU 0 is still inside that call (an interrupt cannot stop a CPU loop, and
    // its late answer would be taken as handleSummary's): the text summary stands in. k6 runs handleSummary on a VU
    // of its own.
    const vu0Busy = failure instanceof CallTimeoutError;
    if (exports.handleSummary && !printed && vu0Busy)
      process.stderr.write('WARN handleSummary() not run: VU 0 is still in the call that timed out\n');
    if (exports.handleSummary && !printed && !vu0Busy) {
      const done = await vu0.call({
        fn: 'handleSummary',
        useSetupData: false,
        arg: data,
        wantResult: true,
        group: '',
      });
      if (done.error) process.stderr.write(`ERRO handleSummary() failed: ${done.error}\n`);
      else {
        printed = true;
        for (const [target, content] of Object.entries((done.result ?? {}) as Record<string, string>)) {
          if (target === 'stdout') config.log(content);
          else if (target === 'stderr') process.stderr.write(content);
          else {
            mkdirSync(path.dirname(path.resolve(target)), { recursive: true });
            writeFileSync(path.resolve(target), content);
          }
        }
      }
    }
    if (!printed) {
      const observed: ObservedThresholds = {};
      for (const r of results) (observed[r.group.key] ??= {})[r.threshold.source] = r.observed;
      config.log(textSummary(data, config.summaryMode, observed));
    }
    config.log(lagWarning);
    if (failed.length) {
      const names = [...new Set(failed.map((r) => r.group.key))].join(', ');
      config.log(
        `ERRO[${formatDuration(testRunDurationMs)}] thresholds on metrics '${names}' have been crossed\n`,
      );
    }
    if (test.failedReason !== undefined)
      config.log(`ERRO[${formatDuration(testRunDurationMs)}] test run was marked as failed\n`);
    if (config.summaryExport) writeSummaryExport(config.summaryExport, data);
    if (config.runRecord)
      writeRunRecord(config.runRecord, {
        script: config.scriptPath,
        testid: config.tags.testid ?? '',
        exitCode,
        abortReason,
        executionMs,
        results,
        data,
      });
    // The CLI reports it (after the summary, as k6 logs it) and exits with its code.
    if (failure) throw failure;
    return { exitCode, abortReason };
  } finally {
    process.off('SIGINT', onSignal);
    process.off('SIGTERM', onSignal);
    await Promise.all(handles.map((h) => h.stop()));
    await pools.close();
  }
}
