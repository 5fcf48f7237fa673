/** k6 options → a normalised list of scenarios (shortcut options become the `default` scenario, as in k6). */
import { parseDuration } from './duration.ts';

export type ExecutorName =
  | 'constant-arrival-rate'
  | 'ramping-arrival-rate'
  | 'constant-vus'
  | 'ramping-vus'
  | 'per-vu-iterations'
  | 'shared-iterations';

export interface Stage {
  readonly durationMs: number;
  readonly target: number;
}

export interface Scenario {
  readonly name: string;
  readonly executor: ExecutorName;
  readonly exec: string;
  readonly startTimeMs: number;
  readonly gracefulStopMs: number;
  readonly env: Record<string, string>;
  readonly tags: Record<string, string>;
  readonly vus: number;
  readonly iterations: number;
  readonly durationMs: number;
  readonly rate: number;
  readonly timeUnitMs: number;
  readonly preAllocatedVUs: number;
  readonly maxVUs: number;
  readonly startRate: number;
  readonly stages: Stage[];
  readonly gracefulRampDownMs: number;
}

type RawStage = { duration: string | number; target: number };
export interface RawScenario {
  executor: string;
  exec?: string;
  startTime?: string;
  gracefulStop?: string;
  env?: Record<string, string>;
  tags?: Record<string, string>;
  vus?: number;
  iterations?: number;
  duration?: string | number;
  maxDuration?: string;
  rate?: number;
  timeUnit?: string;
  preAllocatedVUs?: number;
  maxVUs?: number;
  startRate?: number;
  startVUs?: number;
  stages?: RawStage[];
  gracefulRampDown?: string;
}
export interface RawOptions {
  scenarios?: Record<string, RawScenario>;
  vus?: number;
  duration?: string;
  iterations?: number;
  stages?: RawStage[];
}

const EXECUTORS: ExecutorName[] = [
  'constant-arrival-rate',
  'ramping-arrival-rate',
  'constant-vus',
  'ramping-vus',
  'per-vu-iterations',
  'shared-iterations',
];

/**
 * The scenarios of the options, as k6's DeriveScenariosFromShortcuts (lib/executor/execution_config_shortcuts.go):
 * `iterations` (with `duration` as its maxDuration), `duration` or `stages` become the `default` scenario, and two of
 * them, or one with `scenarios`, are refused (only one tier can hold both: a higher tier's replaces a lower one's).
 */
function deriveScenarios(options: RawOptions): Record<string, RawScenario> {
  const conflict = (a: string, b: string) =>
    new Error(`using \`${a}\` and \`${b}\` options simultaneously is not allowed`);
  const hasStages = (options.stages?.length ?? 0) > 0; // an empty list is no stages, as in k6
  const hasScenarios = options.scenarios !== undefined && options.scenarios !== null;
  if (options.iterations !== undefined) {
    if (hasStages) throw conflict('iterations', 'stages');
    if (hasScenarios) throw conflict('iterations', 'scenarios');
    return {
      default: {
        executor: 'shared-iterations',
        vus: options.vus ?? 1,
        iterations: options.iterations,
        ...(options.duration !== undefined && { maxDuration: options.duration }),
      },
    };
  }
  if (options.duration !== undefined) {
    if (hasStages) throw conflict('duration', 'stages');
    if (hasScenarios) throw conflict('duration', 'scenarios');
    if (parseDuration(options.duration) <= 0)
      throw new Error(
        '`duration` option should be more than 0, for infinite duration use the externally-controlled executor',
      );
    return { default: { executor: 'constant-vus', vus: options.vus ?? 1, duration: options.duration } };
  }
  if (hasStages) {
    if (hasScenarios) throw conflict('stages', 'scenarios');
    return { default: { executor: 'ramping-vus', startVUs: options.vus ?? 1, stages: options.stages } };
  }
  // `vus` alone: each VU one iteration, shared (k6 sets iterations to vus).
  if (options.vus !== undefined && !hasScenarios)
    return { default: { executor: 'shared-iterations', vus: options.vus, iterations: options.vus } };
  if (hasScenarios && Object.keys(options.scenarios ?? {}).length > 0) return options.scenarios ?? {};
  // Nothing (or an empty `scenarios`): one iteration of one VU.
  return { default: { executor: 'per-vu-iterations', vus: 1, iterations: 1 } };
}

function normalise(name: string, raw: RawScenario): Scenario {
  if (!EXECUTORS.includes(raw.executor as ExecutorName))
    throw new Error(
      `scenario "${name}": executor "${raw.executor}" is not supported (${EXECUTORS.join(', ')})`,
    );
  const executor = raw.executor as ExecutorName;
  const iterationsExecutor = executor === 'per-vu-iterations' || executor === 'shared-iterations';
  const preAllocatedVUs = raw.preAllocatedVUs ?? 0;
  const scenario: Scenario = {
    name,
    executor,
    exec: raw.exec ?? 'default',
    startTimeMs: parseDuration(raw.startTime, 0),
    gracefulStopMs: parseDuration(raw.gracefulStop, 30_000),
    env: raw.env ?? {},
    tags: raw.tags ?? {},
    vus: raw.vus ?? 1,
    iterations: raw.iterations ?? 1,
    durationMs: iterationsExecutor
      ? parseDuration(raw.maxDuration, 600_000)
      : executor.startsWith('ramping')
        ? (raw.stages ?? []).reduce((sum, s) => sum + parseDuration(s.duration), 0)
        : parseDuration(raw.duration),
    rate: raw.rate ?? 0,
    timeUnitMs: parseDuration(raw.timeUnit, 1000),
    preAllocatedVUs,
    maxVUs: Math.max(raw.maxVUs ?? preAllocatedVUs, preAllocatedVUs),
    startRate: raw.startRate ?? 0,
    stages: (raw.stages ?? []).map((s) => ({ durationMs: parseDuration(s.duration), target: s.target })),
    gracefulRampDownMs: parseDuration(raw.gracefulRampDown, 30_000),
  };
  if (executor === 'ramping-vus') return { ...scenario, vus: raw.startVUs ?? 1 };
  checkAsK6(name, executor, raw, scenario);
  if (executor.endsWith('arrival-rate') && scenario.maxVUs < 1)
    throw new Error(`scenario "${name}": preAllocatedVUs must be at least 1`);
  if (executor.startsWith('ramping') && scenario.stages.length === 0)
    throw new Error(`scenario "${name}": ${executor} needs stages`);
  return scenario;
}

/** k6's shortest executor duration (lib/executor's minDuration). */
const MIN_DURATION_MS = 1000;

/**
 * What k6's executor configs refuse before a run (their Validate): a constant-arrival-rate's rate must be a whole
 * number above 0 (NaN reaches k6 as null, "isn't specified"; 2.5 does not unmarshal into its int64), its timeUnit
 * above 0; a constant executor's duration at least 1s, a constant-vus' VUs above 0; an iterations executor's VUs
 * above 0, its maxDuration at least 1s, shared-iterations' iterations at least its VUs. Without this, SCALE=abc ran a
 * scenario of rate NaN that sent nothing and passed its thresholds.
 */
function checkAsK6(name: string, executor: ExecutorName, raw: RawScenario, scenario: Scenario): void {
  const problem = (text: string) => new Error(`scenario "${name}": ${text}`);
  if (executor === 'constant-arrival-rate') {
    if (typeof raw.rate !== 'number' || !Number.isFinite(raw.rate))
      throw problem("the iteration rate isn't specified");
    if (!Number.isInteger(raw.rate))
      throw problem(`the iteration rate must be a whole number, got ${raw.rate}`);
    if (raw.rate <= 0) throw problem('the iteration rate should be more than 0');
    if (scenario.timeUnitMs <= 0) throw problem('the timeUnit should be more than 0');
  }
  if (executor === 'constant-vus' && scenario.vus <= 0)
    throw problem('the number of VUs should be more than 0');
  if (
    (executor === 'constant-arrival-rate' || executor === 'constant-vus') &&
    scenario.durationMs < MIN_DURATION_MS
  )
    throw problem(`the duration should be at least 1s, but is ${raw.duration ?? 'unspecified'}`);
  // lib/executor/shared_iterations.go and per_vu_iterations.go (Validate).
  if (executor === 'shared-iterations' || executor === 'per-vu-iterations') {
    if (scenario.vus <= 0) throw problem('the number of VUs should be more than 0');
    if (executor === 'per-vu-iterations' && scenario.iterations <= 0)
      throw problem('the number of iterations should be more than 0');
    if (executor === 'shared-iterations' && scenario.iterations < scenario.vus)
      throw problem(
        `the number of iterations (${scenario.iterations}) shouldn't be less than the number of VUs (${scenario.vus})`,
      );
    if (scenario.durationMs < MIN_DURATION_MS)
      throw problem(`the maxDuration should be at least 1s, but is ${raw.maxDuration}`);
  }
}

export function scenariosFrom(options: RawOptions): Scenario[] {
  return Object.entries(deriveScenarios(options)).map(([name, s]) => normalise(name, s));
}

/** Longest time a scenario may take including its graceful stop, as k6 prints in its header. */
export function maxScenarioEndMs(s: Scenario): number {
  const rampDown = s.executor === 'ramping-vus' ? s.gracefulRampDownMs : 0;
  return s.startTimeMs + s.durationMs + Math.max(s.gracefulStopMs, rampDown);
}

/** Highest number of VUs a scenario can use. */
export function maxVUsOf(s: Scenario): number {
  if (s.executor.endsWith('arrival-rate')) return s.maxVUs;
  if (s.executor === 'ramping-vus') return Math.max(s.vus, ...s.stages.map((st) => st.target));
  return s.vus;
}

/** VUs initialised before the test starts: all a VU-based scenario uses, an arrival-rate scenario's preAllocatedVUs. */
export function initialVUsOf(s: Scenario): number {
  return s.executor.endsWith('arrival-rate') ? s.preAllocatedVUs : maxVUsOf(s);
}
