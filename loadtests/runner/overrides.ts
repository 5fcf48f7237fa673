/**
 * k6's option tiers above the script: K6_* environment variables, then command-line flags (each tier
 * overrides the one below, as in k6). Only options the runner honours are read here; a K6_* variable
 * of an option the runner does not implement is named in a warning rather than ignored without a word.
 */
import { NOT_IMPLEMENTED } from './options.ts';

type Kind = 'integer' | 'string' | 'duration' | 'boolean' | 'list' | 'stages';

interface Overridable {
  kind: Kind;
  /** k6's flags for it (none: environment only, as in k6). */
  flags: string[];
}

/** Options settable above the script, as k6 names their flags. */
const OVERRIDABLE: Record<string, Overridable> = {
  vus: { kind: 'integer', flags: ['--vus', '-u'] },
  duration: { kind: 'duration', flags: ['--duration', '-d'] },
  iterations: { kind: 'integer', flags: ['--iterations', '-i'] },
  stages: { kind: 'stages', flags: ['--stage', '-s'] },
  rps: { kind: 'integer', flags: ['--rps'] },
  userAgent: { kind: 'string', flags: ['--user-agent'] },
  batch: { kind: 'integer', flags: ['--batch', '-b'] },
  batchPerHost: { kind: 'integer', flags: ['--batch-per-host'] },
  maxRedirects: { kind: 'integer', flags: ['--max-redirects'] },
  minIterationDuration: { kind: 'duration', flags: ['--min-iteration-duration'] },
  summaryTimeUnit: { kind: 'string', flags: ['--summary-time-unit'] },
  summaryTrendStats: { kind: 'list', flags: ['--summary-trend-stats'] },
  setupTimeout: { kind: 'duration', flags: [] },
  teardownTimeout: { kind: 'duration', flags: [] },
  throw: { kind: 'boolean', flags: ['--throw', '-w'] },
  noConnectionReuse: { kind: 'boolean', flags: ['--no-connection-reuse'] },
  discardResponseBodies: { kind: 'boolean', flags: ['--discard-response-bodies'] },
  noSetup: { kind: 'boolean', flags: ['--no-setup'] },
  noTeardown: { kind: 'boolean', flags: ['--no-teardown'] },
  noCookiesReset: { kind: 'boolean', flags: [] },
  blockHostnames: { kind: 'list', flags: ['--block-hostnames'] },
  blacklistIPs: { kind: 'list', flags: ['--blacklist-ip'] },
};

/** k6's environment variable of an option: K6_ and the name in upper snake case (userAgent → K6_USER_AGENT). */
export function envName(option: string): string {
  if (option === 'blacklistIPs') return 'K6_BLACKLIST_IPS'; // an acronym: not K6_BLACKLIST_I_P_S
  return `K6_${option.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

/** The option a flag sets, with its kind; undefined for a flag that sets none. */
export function optionOfFlag(flag: string): { option: string; kind: Kind } | undefined {
  for (const [option, o] of Object.entries(OVERRIDABLE))
    if (o.flags.includes(flag)) return { option, kind: o.kind };
  return undefined;
}

export class OverrideError extends Error {
  override name = 'OverrideError';
}

/** Go's strconv.ParseBool, which k6 uses for boolean environment variables. */
function parseBool(name: string, text: string): boolean {
  if (['1', 't', 'T', 'TRUE', 'true', 'True'].includes(text)) return true;
  if (['0', 'f', 'F', 'FALSE', 'false', 'False'].includes(text)) return false;
  throw new OverrideError(`${name}: "${text}" is not a boolean (true or false)`);
}

/** k6's stage text, `duration:target` (`30s:10`), as an options stage. */
function parseStage(name: string, text: string): { duration: string; target: number } {
  const m = /^([^:]+):(\d+)$/.exec(text.trim());
  if (!m) throw new OverrideError(`${name}: "${text}" is not a stage (duration:target, e.g. 30s:10)`);
  return { duration: m[1], target: Number(m[2]) };
}

/** One override's value from its text; `previous` is what an earlier flag of a repeatable one gave. */
export function overrideValue(name: string, kind: Kind, text: string, previous?: unknown): unknown {
  switch (kind) {
    case 'integer':
      if (!/^-?\d+$/.test(text.trim())) throw new OverrideError(`${name}: "${text}" is not an integer`);
      return Number(text);
    case 'boolean':
      return parseBool(name, text);
    case 'list':
      return text.split(',').map((s) => s.trim());
    case 'stages': {
      // Repeated flags add stages; the variable holds them all, comma-separated.
      const stages = text.split(',').map((s) => parseStage(name, s));
      return Array.isArray(previous) ? [...(previous as unknown[]), ...stages] : stages;
    }
    default:
      return text;
  }
}

/**
 * The options K6_* variables set, and warnings for K6_* variables of k6 options the runner does not
 * implement (other K6_* variables, such as an output's settings, are not options and are left alone).
 */
export function envOverrides(env: Record<string, string | undefined>): {
  options: Record<string, unknown>;
  warnings: string[];
} {
  const options: Record<string, unknown> = {};
  const warnings: string[] = [];
  for (const [option, o] of Object.entries(OVERRIDABLE)) {
    const text = env[envName(option)];
    if (text !== undefined && text !== '') options[option] = overrideValue(envName(option), o.kind, text);
  }
  for (const option of [...Object.keys(NOT_IMPLEMENTED), 'hosts']) {
    if (env[envName(option)] !== undefined)
      warnings.push(
        `${envName(option)} is not read by this runner and has no effect` +
          (option === 'hosts' ? ' (set hosts in the script options)' : `: ${NOT_IMPLEMENTED[option]}`),
      );
  }
  return { options, warnings };
}

/**
 * The script's options with the overrides applied, as k6's Options.Apply does: a higher tier's
 * duration, iterations or stages replaces the script's whole execution setup (its scenarios too);
 * vus alone replaces only vus (with scenarios defined it changes nothing: a warning says so).
 */
export function applyOverrides(
  options: Record<string, unknown>,
  overrides: Record<string, unknown>,
): { options: Record<string, unknown>; warnings: string[] } {
  const warnings: string[] = [];
  if (Object.keys(overrides).length === 0) return { options, warnings };
  const resetsExecution = ['duration', 'iterations', 'stages'].some((k) => overrides[k] !== undefined);
  if (!resetsExecution) {
    if (overrides.vus !== undefined && options.scenarios !== undefined)
      warnings.push(
        `vus=${String(overrides.vus)} has no effect: the script defines scenarios (give their VUs there, or ` +
          'override duration, iterations or stages too), as in k6',
      );
    return { options: { ...options, ...overrides }, warnings };
  }
  const rest = { ...options };
  for (const k of ['scenarios', 'duration', 'iterations', 'stages']) delete rest[k];
  return { options: { ...rest, ...overrides }, warnings };
}
