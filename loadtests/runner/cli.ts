/**
 * `node --import tsx loadtests/runner/cli.ts run [flags] script.ts` — runs a k6 script with k6's common
 * flags: -e/--env KEY=VALUE, --tag KEY=VALUE, -o/--out experimental-prometheus-rw, --summary-export PATH,
 * --summary-mode compact|full|legacy, -q/--quiet, --no-thresholds, --no-summary and the option flags k6 has
 * for the options the runner honours (--vus, --duration, --iterations, --stage, --rps, --user-agent, …;
 * overrides.ts), with the same options from K6_* variables below them, plus this runner's own
 * --allow-remote (needed for any target outside loopback) and --run-record PATH.
 * Exit codes as k6: 100/101 setup()/teardown() timed out, 104 invalid config, 107 script error (including a
 * module that cannot be loaded).
 */
import { randomUUID } from 'node:crypto';
import { CallTimeoutError, ConfigError, runTest, type RunConfig } from './engine.ts';
import type { SummaryMode } from './output/summary-text.ts';
import { applyOverrides, envOverrides, optionOfFlag, overrideValue, OverrideError } from './overrides.ts';
import { RemoteTargetError, TargetGuard } from './target-guard.ts';

const SUMMARY_MODES: SummaryMode[] = ['compact', 'full', 'legacy'];

function keyValue(text: string, flag: string): [string, string] {
  const at = text.indexOf('=');
  if (at <= 0) throw new ConfigError(`${flag} expects KEY=VALUE, got "${text}"`);
  return [text.slice(0, at), text.slice(at + 1)];
}

/** k6's rule for a -e name (userEnvVarName in internal/cmd/runtime_options.go). */
const ENV_NAME = /^[a-zA-Z_][a-zA-Z0-9_]*$/;

/** One -e value as k6 reads it (state.ParseEnvKeyValue): NAME=value, or NAME alone for an empty value. */
function envKeyValue(text: string): [string, string] {
  const at = text.indexOf('=');
  const [name, value] = at < 0 ? [text, ''] : [text.slice(0, at), text.slice(at + 1)];
  if (!ENV_NAME.test(name)) throw new ConfigError(`invalid environment variable name '${name}'`);
  return [name, value];
}

/**
 * A runtime option's K6_* variable as k6's saveBoolFromEnv reads it: when present it must be a Go boolean ("" is
 * not one), else the run stops, even when the flag is given; undefined when absent.
 */
function runtimeEnvBool(name: string): boolean | undefined {
  const text = process.env[name];
  if (text === undefined) return undefined;
  try {
    return overrideValue(name, 'boolean', text) === true;
  } catch {
    throw new ConfigError(
      `env var '${name}' is not a valid boolean value: strconv.ParseBool: parsing ${JSON.stringify(text)}: invalid syntax`,
    );
  }
}

/** The outputs the runner writes; any other is refused rather than silently left out. */
const OUTPUTS = ['experimental-prometheus-rw'];

function outputName(text: string): string {
  const name = text.split('=')[0];
  if (!OUTPUTS.includes(name))
    throw new ConfigError(
      `output "${name}" is not supported by this runner (supported: ${OUTPUTS.join(', ')}; ` +
        'for JSON use --summary-export or handleSummary())',
    );
  return name;
}

/** Flags that take no value: alone they mean true, and `=false` turns them off (parseArgs sets each). */
const BOOLEAN_FLAGS = [
  '--no-thresholds',
  '--no-summary',
  '--quiet',
  '-q',
  '--verbose',
  '-v',
  '--include-system-env-vars',
  '--no-usage-report',
  '--no-color',
  '--allow-remote',
] as const;
type BooleanFlag = (typeof BOOLEAN_FLAGS)[number];
const isBooleanFlag = (flag: string): flag is BooleanFlag =>
  (BOOLEAN_FLAGS as readonly string[]).includes(flag);
const isBoolean = (flag: string) => isBooleanFlag(flag) || optionOfFlag(flag)?.kind === 'boolean';

/**
 * One argument as pflag reads it: `--name=value`, `-x=value`, `-xvalue` (a short flag's value attached) or, for
 * a short boolean, `-xyz` (a cluster: -x, then -yz). Other arguments come back whole.
 */
function splitFlag(arg: string): { flag: string; inline?: { value?: string; cluster?: string } } {
  if (arg.startsWith('--')) {
    const at = arg.indexOf('=');
    return at < 0 ? { flag: arg } : { flag: arg.slice(0, at), inline: { value: arg.slice(at + 1) } };
  }
  if (!/^-[^-]./.test(arg)) return { flag: arg };
  const flag = arg.slice(0, 2);
  const rest = arg.slice(2);
  if (rest.startsWith('=')) return { flag, inline: { value: rest.slice(1) } };
  return { flag, inline: isBoolean(flag) ? { cluster: rest } : { value: rest } };
}

export function parseArgs(argv: string[]): RunConfig {
  const args = argv[0] === 'run' ? argv.slice(1) : argv;
  const cliEnv: Record<string, string> = {};
  const warnings: string[] = [];
  const config: RunConfig = {
    scriptPath: '',
    env: {},
    tags: {},
    allowRemote: false,
    outputs: [],
    progress: true,
    summaryMode: 'compact',
    overrides: {},
    warnings,
    handleSignals: true,
    log: (text) => process.stdout.write(text),
  };
  // k6's tiers: K6_* variables over the script's options, flags over both.
  const fromEnv = envOverrides(process.env);
  const flagged: Record<string, unknown> = {};
  warnings.push(...fromEnv.warnings);
  const envFlag = (name: string) => {
    const text = process.env[name];
    return text !== undefined && text !== '' && overrideValue(name, 'boolean', text) === true;
  };
  config.noThresholds = envFlag('K6_NO_THRESHOLDS');
  config.noSummary = envFlag('K6_NO_SUMMARY');
  // `k6 run`'s default is true; the variable counts only when the flag is not given (the flag's setter runs later).
  let includeSystemEnv = runtimeEnvBool('K6_INCLUDE_SYSTEM_ENV_VARS') ?? true;
  const setBoolean: Record<BooleanFlag, (on: boolean) => void> = {
    '--no-thresholds': (on) => (config.noThresholds = on),
    '--no-summary': (on) => (config.noSummary = on),
    '--quiet': (on) => (config.progress = !on),
    '-q': (on) => (config.progress = !on),
    '--verbose': (on) => (config.verbose = on),
    '-v': (on) => (config.verbose = on),
    '--include-system-env-vars': (on) => (includeSystemEnv = on),
    // Nothing to turn off: the runner never sends a usage report and prints no colours.
    '--no-usage-report': () => undefined,
    '--no-color': () => undefined,
    '--allow-remote': (on) => (config.allowRemote = on),
  };
  for (let i = 0; i < args.length; i++) {
    const { flag: arg, inline } = splitFlag(args[i]);
    // A cluster of short booleans (`-qw`): the rest is read as the next flag, as pflag does.
    if (inline?.cluster) args.splice(i + 1, 0, `-${inline.cluster}`);
    const next = () => {
      if (inline?.value !== undefined) return inline.value;
      const value = args[++i];
      if (value === undefined) throw new ConfigError(`${arg} needs a value`);
      return value;
    };
    /** A boolean flag: set by being there, or `--flag=false` (Go's ParseBool, as pflag). */
    const on = () =>
      inline?.value === undefined ? true : overrideValue(arg, 'boolean', inline.value) === true;
    const option = optionOfFlag(arg);
    if (arg === '-e' || arg === '--env') {
      const [k, v] = envKeyValue(next());
      cliEnv[k] = v;
    } else if (arg === '--tag') {
      const [k, v] = keyValue(next(), arg);
      config.tags[k] = v;
    } else if (arg === '-o' || arg === '--out') config.outputs.push(outputName(next()));
    else if (arg === '--summary-export') config.summaryExport = next();
    else if (arg === '--summary-mode') {
      const mode = next() as SummaryMode;
      if (!SUMMARY_MODES.includes(mode))
        throw new ConfigError(`--summary-mode must be one of ${SUMMARY_MODES.join(', ')}`);
      config.summaryMode = mode;
    } else if (option)
      flagged[option.option] =
        option.kind === 'boolean' ? on() : overrideValue(arg, option.kind, next(), flagged[option.option]);
    else if (isBooleanFlag(arg)) setBoolean[arg](on());
    else if (arg === '--run-record') config.runRecord = next();
    else if (arg.startsWith('-')) throw new ConfigError(`unknown flag ${arg}`);
    else if (!config.scriptPath) config.scriptPath = arg;
    else throw new ConfigError(`unexpected argument ${arg}`);
  }
  if (!config.scriptPath) throw new ConfigError('usage: cli.ts run [flags] <script.ts>');
  // Flags over K6_* variables as k6's Options.Apply: --duration, --iterations or --stage drop all three of the
  // variables' (else K6_DURATION became the maxDuration of --iterations' shared iterations).
  config.overrides = applyOverrides(fromEnv.options, flagged).options;
  // k6 run passes the system environment to __ENV unless --include-system-env-vars=false; -e values win.
  config.env = { ...(includeSystemEnv ? (process.env as Record<string, string>) : {}), ...cliEnv };
  config.tags.testid ??= `${config.scriptPath.replace(/.*\//, '').replace(/\.[jt]s$/, '')}-${randomUUID().slice(0, 8)}`;
  return config;
}

export function checkBaseUrl(config: RunConfig): void {
  const base = config.env.BASE_URL;
  if (!base || config.allowRemote) return;
  new TargetGuard(false).check(new URL(base).origin);
}

async function main(): Promise<void> {
  let code: number;
  try {
    const config = parseArgs(process.argv.slice(2));
    checkBaseUrl(config);
    code = (await runTest(config)).exitCode;
  } catch (err) {
    const e = err as Error;
    process.stderr.write(`ERRO ${e.name}: ${e.message}\n`);
    code =
      e instanceof CallTimeoutError
        ? e.exitCode
        : e instanceof ConfigError || e instanceof RemoteTargetError || e instanceof OverrideError
          ? 104
          : 107;
  }
  process.exit(code);
}

if (require.main === module) void main();
