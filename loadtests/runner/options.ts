/**
 * k6's script options beyond scenarios and thresholds: which this runner honours (and how), which have
 * no effect here by nature, and which it does not implement. k6 warns about an option it does not know
 * and ignores it; a known option of the wrong type is invalid config (exit 104). This runner does the
 * same, and warns too about a k6 option it does not implement, so a script never silently runs with
 * a setting it asked for left out (an `rps` cap ignored would send more load than the script allows).
 */
import { BlockList, isIP } from 'node:net';
import { parseDuration, type TimeUnit } from './duration.ts';
import { bareHost } from './target-guard.ts';

/** Where `hosts` sends a host name: an IP address, and a port when the mapping gives one. */
export interface HostAddress {
  address: string;
  port?: number;
}

/** The options this runner honours outside scenarios/thresholds/summaryTrendStats/tags/maxRedirects. */
export interface RunnerSettings {
  /** The User-Agent header of every request ('' sends none). */
  userAgent: string;
  /** Responses have a null body unless a request asks for one (`responseType`). */
  discardResponseBodies: boolean;
  /** A failed request (no response) throws instead of returning a response with `error`. */
  throw: boolean;
  /** A completed iteration shorter than this is padded with a pause (not counted in iteration_duration). */
  minIterationDurationMs: number;
  /** Requests per second over the whole test, all VUs together; 0 for no limit. */
  rps: number;
  /** Parallel requests of one http.batch() call in total and per host; 0 for no limit. */
  batch: number;
  batchPerHost: number;
  /** Every request on a new connection (`Connection: close`). */
  noConnectionReuse: boolean;
  /** A VU keeps its cookie jar from one iteration to the next (k6 starts each with an empty one). */
  noCookiesReset: boolean;
  noSetup: boolean;
  noTeardown: boolean;
  setupTimeoutMs: number;
  teardownTimeoutMs: number;
  /** Every time in the end-of-test summary in this unit ('' picks one per value, k6's default). */
  summaryTimeUnit: TimeUnit | '';
  /**
   * k6's `hosts`: a host name (`name`, `name:port` or `*.domain`, lower case) answered by this address
   * instead of DNS; the request keeps its URL (metrics, Host header) and goes to the address.
   */
  hosts: Readonly<Record<string, HostAddress>>;
  /** k6's `blockHostnames`: host names (`*` standing for any start) whose requests fail unsent (error 1111). */
  blockHostnames: readonly string[];
  /** k6's `blacklistIPs`: CIDR ranges whose addresses requests are never sent to (error 1110). */
  blacklistIPs: readonly string[];
}

/** The runner's User-Agent when the script sets none (k6 sends `k6/<version> (https://k6.io/)`). */
export const DEFAULT_USER_AGENT = 'elevation-loadtest-runner';

export const DEFAULT_SETTINGS: RunnerSettings = {
  userAgent: DEFAULT_USER_AGENT,
  discardResponseBodies: false,
  throw: false,
  minIterationDurationMs: 0,
  rps: 0,
  // k6's defaults: 20 parallel requests per http.batch() call, 6 per host.
  batch: 20,
  batchPerHost: 6,
  noConnectionReuse: false,
  noCookiesReset: false,
  noSetup: false,
  noTeardown: false,
  // k6's default for both.
  setupTimeoutMs: 60_000,
  teardownTimeoutMs: 60_000,
  summaryTimeUnit: '',
  hosts: {},
  blockHostnames: [],
  blacklistIPs: [],
};

/** Honoured elsewhere in the runner (scenarios.ts, thresholds.ts, the summary, engine tags, k6/http). */
const HONOURED_ELSEWHERE = [
  'vus',
  'duration',
  'iterations',
  'stages',
  'scenarios',
  'thresholds',
  'summaryTrendStats',
  'tags',
  'maxRedirects',
];

/**
 * k6 options that change nothing here: `ext` and `cloud` are for Grafana Cloud and outputs, and samples
 * are not buffered in a channel.
 */
const WITHOUT_EFFECT = ['ext', 'cloud', 'metricSamplesBufferSize'];

/** k6 options this runner does not implement: each one named in a warning when a script sets it. */
export const NOT_IMPLEMENTED: Readonly<Record<string, string>> = {
  paused: 'there is no REST API to resume a paused test',
  executionSegment: 'one runner instance runs the whole test',
  executionSegmentSequence: 'one runner instance runs the whole test',
  dns: 'the system resolver is used (targets are loopback addresses unless --allow-remote)',
  httpDebug: 'requests and responses are not logged',
  insecureSkipTLSVerify: 'no TLS options: certificates are verified',
  tlsCipherSuites: 'no TLS options',
  tlsVersion: 'no TLS options',
  tlsAuth: 'no TLS options: no client certificates',
  noVUConnectionReuse: 'connections are pooled per origin for all VUs (noConnectionReuse is honoured)',
  systemTags: "k6's default system tags are always attached",
};

type Kind = 'boolean' | 'integer' | 'string' | 'duration';
const HONOURED_HERE: Record<string, Kind> = {
  userAgent: 'string',
  discardResponseBodies: 'boolean',
  throw: 'boolean',
  minIterationDuration: 'duration',
  rps: 'integer',
  batch: 'integer',
  batchPerHost: 'integer',
  noConnectionReuse: 'boolean',
  noCookiesReset: 'boolean',
  noSetup: 'boolean',
  noTeardown: 'boolean',
  setupTimeout: 'duration',
  teardownTimeout: 'duration',
  summaryTimeUnit: 'string',
};

/** Invalid config: the caller exits 104, as k6 does for an option of the wrong type. */
export class OptionError extends Error {
  override name = 'OptionError';
}

/** `hosts` as k6 reads it: values are an IP address or `IP:port` (`[IPv6]:port`); keys are host names. */
function parseHosts(value: unknown): Record<string, HostAddress> {
  if (value === null || typeof value !== 'object' || Array.isArray(value))
    throw new OptionError(
      `option "hosts" must be an object of host name → IP address, got ${JSON.stringify(value)}`,
    );
  const hosts: Record<string, HostAddress> = {};
  for (const [name, target] of Object.entries(value as Record<string, unknown>)) {
    const text = typeof target === 'string' ? target : '';
    const m = /^\[([^\]]+)\](?::(\d+))?$/.exec(text) ?? /^([^:]+):(\d+)$/.exec(text) ?? [text, text];
    const address = m[1];
    const port = m[2] === undefined ? undefined : Number(m[2]);
    if (!isIP(address) || (port !== undefined && (port < 1 || port > 65535)))
      throw new OptionError(
        `option "hosts": "${name}" must map to an IP address or IP:port (k6 resolves no names there), got ${JSON.stringify(target)}`,
      );
    hosts[name.toLowerCase()] = port === undefined ? { address } : { address, port };
  }
  return hosts;
}

/** A list of strings each `valid` accepts (k6 refuses the whole config otherwise). */
function parseList(name: string, value: unknown, valid: (v: string) => boolean): string[] {
  if (!Array.isArray(value) || value.some((v) => typeof v !== 'string'))
    throw new OptionError(`option "${name}" must be an array of strings, got ${JSON.stringify(value)}`);
  const bad = (value as string[]).find((v) => !valid(v));
  if (bad !== undefined) throw new OptionError(`option "${name}": invalid entry ${JSON.stringify(bad)}`);
  return name === 'blockHostnames'
    ? (value as string[]).map((v) => v.toLowerCase())
    : [...(value as string[])];
}

/** k6's host patterns: letters, digits, dots and hyphens, after an optional leading `*`. */
const validHostPattern = (pattern: string) => /^\*?[\p{L}0-9.-]*$/u.test(pattern);

const cidrs = new Map<string, BlockList | undefined>();
/** A CIDR range (`10.0.0.0/8`, `::1/128`) as a BlockList; undefined when it is not one. */
function cidr(text: string): BlockList | undefined {
  if (!cidrs.has(text)) {
    const m = /^([^/]+)\/(\d{1,3})$/.exec(text);
    const family = m ? isIP(m[1]) : 0;
    let list: BlockList | undefined;
    if (m && family && Number(m[2]) <= (family === 4 ? 32 : 128)) {
      list = new BlockList();
      list.addSubnet(m[1], Number(m[2]), family === 4 ? 'ipv4' : 'ipv6');
    }
    cidrs.set(text, list);
  }
  return cidrs.get(text);
}

/**
 * The `blockHostnames` pattern a host name matches (k6 checks names, not IP addresses, before `hosts`):
 * `*` stands for any start, so `*.k6.io` blocks `test.k6.io` and `*` every name.
 *
 * @example
 * ```ts
 * assert.equal(blockedPattern(['*.k6.io'], 'test.k6.io'), '*.k6.io');
 * assert.equal(blockedPattern(['*'], '127.0.0.1'), undefined);
 * ```
 */
export function blockedPattern(patterns: readonly string[], hostname: string): string | undefined {
  const name = bareHost(hostname).toLowerCase();
  if (isIP(name)) return undefined;
  return patterns.find((p) => (p.startsWith('*') ? name.endsWith(p.slice(1)) : name === p));
}

/**
 * The `blacklistIPs` range an IP address is in, or undefined.
 *
 * @example
 * ```ts
 * assert.equal(blacklistedRange(['10.0.0.0/8'], '10.1.2.3'), '10.0.0.0/8');
 * assert.equal(blacklistedRange(['10.0.0.0/8'], '127.0.0.1'), undefined);
 * ```
 */
export function blacklistedRange(ranges: readonly string[], address: string): string | undefined {
  const ip = bareHost(address);
  const family = isIP(ip);
  if (!family) return undefined;
  return ranges.find((r) => cidr(r)?.check(ip, family === 4 ? 'ipv4' : 'ipv6'));
}

/**
 * The address `hosts` gives a request's host, or undefined for DNS: `name:port` first, then `name`, then
 * the longest matching `*.domain` wildcard (with the port, then without).
 *
 * @example
 * ```ts
 * const hosts = { 'test.k6.io': { address: '127.0.0.1', port: 3000 }, '*.k6.io': { address: '127.0.0.2' } };
 * assert.equal(hostAddress(hosts, 'TEST.k6.io', '80')?.port, 3000);
 * assert.equal(hostAddress(hosts, 'quickpizza.k6.io', '80')?.address, '127.0.0.2');
 * ```
 */
export function hostAddress(
  hosts: Readonly<Record<string, HostAddress>>,
  hostname: string,
  port: string,
): HostAddress | undefined {
  const name = hostname.toLowerCase();
  const exact = hosts[`${name}:${port}`] ?? hosts[name];
  if (exact) return exact;
  for (let dot = name.indexOf('.'); dot >= 0; dot = name.indexOf('.', dot + 1)) {
    const wildcard = hosts[`*${name.slice(dot)}:${port}`] ?? hosts[`*${name.slice(dot)}`];
    if (wildcard) return wildcard;
  }
  return undefined;
}

function typed(name: string, kind: Kind, value: unknown): boolean | number | string {
  const fail = (expected: string) =>
    new OptionError(`option "${name}" must be ${expected}, got ${JSON.stringify(value)}`);
  switch (kind) {
    case 'boolean':
      if (typeof value !== 'boolean') throw fail('true or false');
      return value;
    case 'integer':
      if (typeof value !== 'number' || !Number.isInteger(value)) throw fail('an integer');
      return value;
    case 'string':
      if (typeof value !== 'string') throw fail('a string');
      return value;
    case 'duration': {
      if (typeof value !== 'string' && typeof value !== 'number')
        throw fail('a duration such as "30s" or a number of milliseconds');
      try {
        return parseDuration(value);
      } catch {
        throw fail('a duration such as "30s" or a number of milliseconds');
      }
    }
  }
}

export interface CheckedOptions {
  settings: RunnerSettings;
  /** One line per option that is unknown to k6 or not implemented here, for stderr. */
  warnings: string[];
}

/**
 * Reads the settings the runner honours from a script's `options` and lists the options it does not
 * honour; throws OptionError for an honoured option of the wrong type or value.
 *
 * @example
 * ```ts
 * const { settings, warnings } = checkOptions({ rps: 50, dns: { ttl: '1m' }, gracefulStop: '5s' });
 * assert.equal(settings.rps, 50);
 * assert.equal(warnings.length, 2);
 * ```
 */
export function checkOptions(options: Record<string, unknown>): CheckedOptions {
  const settings: RunnerSettings = { ...DEFAULT_SETTINGS };
  const values: Record<string, boolean | number | string> = {};
  const warnings: string[] = [];
  for (const [name, value] of Object.entries(options)) {
    // k6 reads options as JSON: a key whose value is undefined is not there.
    if (value === undefined) continue;
    if (name === 'hosts') settings.hosts = parseHosts(value);
    else if (name === 'blockHostnames') settings.blockHostnames = parseList(name, value, validHostPattern);
    else if (name === 'blacklistIPs')
      settings.blacklistIPs = parseList(name, value, (v) => cidr(v) !== undefined);
    else if (name in HONOURED_HERE) values[name] = typed(name, HONOURED_HERE[name], value);
    else if (name in NOT_IMPLEMENTED)
      warnings.push(
        `option "${name}" is not implemented by this runner and has no effect: ${NOT_IMPLEMENTED[name]}`,
      );
    else if (!HONOURED_ELSEWHERE.includes(name) && !WITHOUT_EFFECT.includes(name))
      // k6's own warning for a field its Options do not have.
      warnings.push(
        `There were unknown fields in the options exported in the script  error="json: unknown field \\"${name}\\""`,
      );
  }
  const nonNegative = (name: string, fallback: number): number => {
    const value = values[name] as number | undefined;
    if (value !== undefined && value < 0)
      throw new OptionError(`option "${name}" must not be negative, got ${value}`);
    return value ?? fallback;
  };
  const unit = (values.summaryTimeUnit as string | undefined) ?? '';
  if (unit !== '' && unit !== 's' && unit !== 'ms' && unit !== 'us')
    throw new OptionError(`option "summaryTimeUnit" must be one of s, ms, us, got "${unit}"`);
  settings.userAgent = (values.userAgent as string | undefined) ?? DEFAULT_USER_AGENT;
  settings.discardResponseBodies = (values.discardResponseBodies as boolean | undefined) ?? false;
  settings.throw = (values.throw as boolean | undefined) ?? false;
  settings.minIterationDurationMs = nonNegative('minIterationDuration', 0);
  settings.rps = nonNegative('rps', 0);
  settings.batch = nonNegative('batch', DEFAULT_SETTINGS.batch);
  settings.batchPerHost = nonNegative('batchPerHost', DEFAULT_SETTINGS.batchPerHost);
  settings.noConnectionReuse = (values.noConnectionReuse as boolean | undefined) ?? false;
  settings.noCookiesReset = (values.noCookiesReset as boolean | undefined) ?? false;
  settings.noSetup = (values.noSetup as boolean | undefined) ?? false;
  settings.noTeardown = (values.noTeardown as boolean | undefined) ?? false;
  settings.setupTimeoutMs = nonNegative('setupTimeout', DEFAULT_SETTINGS.setupTimeoutMs);
  settings.teardownTimeoutMs = nonNegative('teardownTimeout', DEFAULT_SETTINGS.teardownTimeoutMs);
  settings.summaryTimeUnit = unit as RunnerSettings['summaryTimeUnit'];
  return { settings, warnings };
}
