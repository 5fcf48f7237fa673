/**
 * k6's flags as its pflag parser takes them: `--name=value`, a short flag's value attached (`-i5`, `-i=5`),
 * booleans as `--flag` or `--flag=false`; k6's harmless flags accepted, the rest refused by name.
 */
import { ConfigError } from '../../../loadtests/runner/engine';
import { parseArgs } from '../../../loadtests/runner/cli';
import { runScript } from './harness';

const parse = (...args: string[]) => parseArgs(['run', ...args, 'script.ts']);

describe('cli flags', () => {
  it('takes --name=value as --name value', () => {
    const c = parse('--vus=3', '--summary-export=/tmp/x.json', '--env=A=1', '--tag=k=v=w', '--duration=2s');
    expect(c.overrides).toMatchObject({ vus: 3, duration: '2s' });
    expect(c.summaryExport).toBe('/tmp/x.json');
    expect(c.env.A).toBe('1');
    expect(c.tags.k).toBe('v=w');
  });

  it('takes a short flag with its value attached, with or without =', () => {
    expect(parse('-i5').overrides).toMatchObject({ iterations: 5 });
    expect(parse('-u=4').overrides).toMatchObject({ vus: 4 });
    expect(parse('-eA=1').env.A).toBe('1');
  });

  it('takes a boolean flag as --flag=true or --flag=false, and short booleans together (-qw)', () => {
    expect(parse('--no-thresholds=false').noThresholds).toBe(false);
    expect(parse('--no-summary=true').noSummary).toBe(true);
    expect(parse('--throw=false').overrides).toMatchObject({ throw: false });
    const c = parse('-qw');
    expect(c.progress).toBe(false);
    expect(c.overrides).toMatchObject({ throw: true });
  });

  it("accepts k6's harmless flags: --no-usage-report, --no-color, -v/--verbose, --include-system-env-vars", () => {
    process.env.S58_PROBE_VAR = 'here';
    try {
      expect(() => parse('--no-usage-report', '--no-color', '--include-system-env-vars')).not.toThrow();
      expect(parse('-v').verbose).toBe(true);
      expect(parse('--verbose').verbose).toBe(true);
      expect(parse().env.S58_PROBE_VAR).toBe('here');
      // As k6: without the system environment, __ENV holds only the -e values.
      const bare = parse('--include-system-env-vars=false', '-e', 'B=2');
      expect(bare.env).toEqual({ B: '2' });
    } finally {
      delete process.env.S58_PROBE_VAR;
    }
  });

  // k6's runtime options (internal/cmd/runtime_options.go): the flag is a pflag Bool, true by default for `k6 run`;
  // K6_INCLUDE_SYSTEM_ENV_VARS sets it when the flag is not given (saveBoolFromEnv: Go's ParseBool, so a value that
  // is no boolean, "" included, is an error even beside the flag).
  it('reads K6_INCLUDE_SYSTEM_ENV_VARS below the flag, as k6', () => {
    const saved = { ...process.env };
    process.env.S59_PROBE_VAR = 'here';
    try {
      process.env.K6_INCLUDE_SYSTEM_ENV_VARS = 'false';
      expect(parse('-e', 'B=2').env).toEqual({ B: '2' });
      expect(parse('--include-system-env-vars').env.S59_PROBE_VAR).toBe('here');
      process.env.K6_INCLUDE_SYSTEM_ENV_VARS = 'T';
      expect(parse().env.S59_PROBE_VAR).toBe('here');
      expect(parse('--include-system-env-vars=0').env).toEqual({});
      for (const text of ['maybe', ''])
        for (const flags of [[], ['--include-system-env-vars']]) {
          process.env.K6_INCLUDE_SYSTEM_ENV_VARS = text;
          expect(() => parse(...flags)).toThrow(
            `env var 'K6_INCLUDE_SYSTEM_ENV_VARS' is not a valid boolean value: strconv.ParseBool: parsing "${text}": invalid syntax`,
          );
        }
    } finally {
      process.env = saved;
    }
  });

  // pflag has no negated form of a boolean (parseLongArg: "unknown flag: --no-include-system-env-vars"); k6 turns
  // it off with --include-system-env-vars=false only.
  it('refuses --no-include-system-env-vars, which k6 does not have', () => {
    expect(() => parse('--no-include-system-env-vars')).toThrow(
      new ConfigError('unknown flag --no-include-system-env-vars'),
    );
  });

  // k6's -e (state.ParseEnvKeyValue, then userEnvVarName in runtime_options.go): `-e NAME` is NAME="", and a name
  // other than letters, digits and _ (not starting with a digit) is refused.
  it('takes -e NAME as an empty value and refuses a name k6 refuses', () => {
    expect(parse('-e', 'EMPTY', '--env', 'A_1=x=y').env).toMatchObject({ EMPTY: '', A_1: 'x=y' });
    for (const [arg, name] of [
      ['1A=x', '1A'],
      ['=x', ''],
      ['A-B=x', 'A-B'],
    ])
      expect(() => parse('-e', arg)).toThrow(new ConfigError(`invalid environment variable name '${name}'`));
  });

  // k6's Options.Apply (lib/options.go): a tier that sets any of duration, iterations, stages drops all of them from
  // the tiers below, so K6_DURATION does not become the maxDuration of --iterations' shared iterations.
  it('lets an execution flag replace the K6_* execution options, as one tier over another', () => {
    const saved = { ...process.env };
    try {
      process.env.K6_DURATION = '5s';
      process.env.K6_VUS = '2';
      expect(parse('--iterations', '3').overrides).toEqual({ vus: 2, iterations: 3 });
      process.env.K6_ITERATIONS = '7';
      expect(parse().overrides).toEqual({ vus: 2, duration: '5s', iterations: 7 });
      expect(parse('-d', '9s').overrides).toEqual({ vus: 2, duration: '9s' });
    } finally {
      process.env = saved;
    }
  });

  it('still refuses a flag it does not know, by name', () => {
    expect(() => parse('--linger')).toThrow(new ConfigError('unknown flag --linger'));
    expect(() => parseArgs(['run', 'script.ts', '--vus'])).toThrow('--vus needs a value');
  });
});

describe('-v/--verbose', () => {
  it('prints console.debug(), as k6 does at debug level, and only then', async () => {
    const script = `export const options = { iterations: 1 };
export default function () { console.debug('DEBUG-LINE'); }`;
    const verbose = await runScript(script, ['--verbose']);
    const plain = await runScript(script);
    expect(verbose.code).toBe(0);
    expect(verbose.stderr).toMatch(/level=debug msg="DEBUG-LINE"|DEBU\[\d+\] DEBUG-LINE/);
    expect(plain.stderr).not.toContain('DEBUG-LINE');
  }, 30_000);
});

describe('-o/--out', () => {
  it('takes experimental-prometheus-rw, with or without =, and refuses the outputs it does not write', () => {
    expect(parse('-o', 'experimental-prometheus-rw').outputs).toEqual(['experimental-prometheus-rw']);
    expect(parse('--out=experimental-prometheus-rw').outputs).toEqual(['experimental-prometheus-rw']);
    for (const out of ['json=/tmp/x.json', 'csv=/tmp/x.csv', 'cloud', 'influxdb=http://127.0.0.1:8086/k6'])
      expect(() => parse('-o', out)).toThrow(
        new ConfigError(
          `output "${out.split('=')[0]}" is not supported by this runner (supported: experimental-prometheus-rw; ` +
            'for JSON use --summary-export or handleSummary())',
        ),
      );
  });
});
