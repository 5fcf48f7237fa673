/**
 * Every environment variable the library reads: its name, default, unit and bounds, as the README's settings
 * table documents them. A renamed variable, a unit changed from MB to bytes or a bound moved would be ignored
 * silently by a deployment that sets it; these tests are what notices.
 */
import { readFileSync } from 'node:fs';
import path from 'node:path';
import type { Settings } from '../../../layers/elevation/config/settings';
import { loadSettings, SettingsError } from '../../../layers/elevation/config/settings';

const MiB = 1024 * 1024;

interface IntegerSetting {
  variable: string;
  field: keyof Settings;
  /** The default as the README writes it (in the variable's own unit). */
  readme: string;
  fallback: number;
  /** A valid value other than the default, and what the setting becomes. */
  raw: string;
  value: number;
  min: number;
  max: number;
  /** How one unit of the variable maps to the setting (MB → bytes, s → ms). */
  unit: number;
}

// prettier-ignore
const INTEGERS: IntegerSetting[] = [
  { variable: 'MAX_BODY_BYTES', field: 'maxBodyBytes', readme: '1048576', fallback: MiB, raw: '2048', value: 2048, min: 1024, max: 6 * MiB, unit: 1 },
  { variable: 'BLOCK_CACHE_MB', field: 'blockCacheBytes', readme: '512', fallback: 512 * MiB, raw: '4', value: 4 * MiB, min: 1, max: 64 * 1024, unit: MiB },
  { variable: 'HEADER_PREFETCH_BYTES', field: 'headerPrefetchBytes', readme: '65536', fallback: 65536, raw: '4096', value: 4096, min: 1024, max: 16 * MiB, unit: 1 },
  { variable: 'RANGE_TIMEOUT_MS', field: 'rangeTimeoutMs', readme: '5000', fallback: 5000, raw: '100', value: 100, min: 10, max: 120_000, unit: 1 },
  { variable: 'RANGE_RETRIES', field: 'rangeRetries', readme: '2', fallback: 2, raw: '0', value: 0, min: 0, max: 10, unit: 1 },
  { variable: 'MISSING_TTL_S', field: 'missingTtlMs', readme: '60', fallback: 60_000, raw: '5', value: 5000, min: 0, max: 86_400, unit: 1000 },
  { variable: 'MAX_CONCURRENT_READS', field: 'maxConcurrentReads', readme: '16', fallback: 16, raw: '3', value: 3, min: 1, max: 256, unit: 1 },
  { variable: 'REQUEST_BLOCK_BUDGET_MB', field: 'requestBlockBudgetBytes', readme: '64', fallback: 64 * MiB, raw: '8', value: 8 * MiB, min: 4, max: 4096, unit: MiB },
  { variable: 'DEADLINE_MARGIN_MS', field: 'deadlineMarginMs', readme: '500', fallback: 500, raw: '0', value: 0, min: 0, max: 60_000, unit: 1 },
  { variable: 'MAX_FILE_BYTES', field: 'maxFileBytes', readme: '4194304', fallback: 4 * MiB, raw: '1024', value: 1024, min: 1024, max: 6 * MiB, unit: 1 },
  { variable: 'MAX_FILE_COORDINATES', field: 'maxFileCoordinates', readme: '100000', fallback: 100_000, raw: '7', value: 7, min: 1, max: 1_000_000, unit: 1 },
  { variable: 'MAX_KMZ_UNZIPPED_MB', field: 'maxKmzUnzippedBytes', readme: '32', fallback: 32 * MiB, raw: '1', value: MiB, min: 1, max: 1024, unit: MiB },
];

/** The README's settings table: variable → its default column. */
function readmeDefaults(): Map<string, string> {
  const readme = readFileSync(path.join(__dirname, '../../../README.md'), 'utf8');
  const rows = new Map<string, string>();
  for (const line of readme.split('\n')) {
    const cells = line.split('|').map((c) => c.trim());
    if (cells.length < 4 || !cells[1].startsWith('`')) continue;
    for (const name of cells[1].matchAll(/`([A-Z0-9_]+)`/g)) rows.set(name[1], cells[2]);
  }
  return rows;
}

describe('settings: every variable, its unit and its bounds', () => {
  const defaults = loadSettings({});
  const readme = readmeDefaults();

  it.each(INTEGERS.map((s) => [s.variable, s] as const))(
    '%s: documented default, read, in its unit',
    (_, s) => {
      expect(defaults[s.field]).toBe(s.fallback);
      // The README's default column starts with the library's default (npm start may set another one after it).
      expect(readme.get(s.variable)).toMatch(new RegExp(`^\`${s.readme}\``));
      expect(s.fallback).toBe(Number(s.readme) * s.unit);
      expect(loadSettings({ [s.variable]: s.raw })[s.field]).toBe(s.value);
      expect(loadSettings({ [s.variable]: ` ${s.raw} ` })[s.field]).toBe(s.value);
      expect(loadSettings({ [s.variable]: '  ' })[s.field]).toBe(s.fallback);
    },
  );

  it.each(INTEGERS.map((s) => [s.variable, s] as const))(
    '%s: accepts its bounds, refuses past them',
    (_, s) => {
      expect(loadSettings({ [s.variable]: String(s.min) })[s.field]).toBe(s.min * s.unit);
      expect(loadSettings({ [s.variable]: String(s.max) })[s.field]).toBe(s.max * s.unit);
      const message = (raw: string) =>
        `${s.variable} must be an integer between ${s.min} and ${s.max}, got '${raw}'.`;
      for (const raw of [String(s.min - 1), String(s.max + 1), `${s.min}.5`, 'lots']) {
        expect(() => loadSettings({ [s.variable]: raw })).toThrow(SettingsError);
        expect(() => loadSettings({ [s.variable]: raw })).toThrow(message(raw));
      }
    },
  );

  it('MAX_SAMPLES is unset (the locations limit decides) unless given, then bounded', () => {
    expect(defaults.maxSamples).toBeNull();
    expect(readme.get('MAX_SAMPLES')).toMatch(/^the locations limit/);
    expect(loadSettings({ MAX_SAMPLES: '2' }).maxSamples).toBe(2);
    expect(loadSettings({ MAX_SAMPLES: ' 20 ' }).maxSamples).toBe(20);
    expect(loadSettings({ MAX_SAMPLES: '100000' }).maxSamples).toBe(100_000);
    expect(() => loadSettings({ MAX_SAMPLES: '1' })).toThrow(
      "MAX_SAMPLES must be an integer between 2 and 100000, got '1'.",
    );
    expect(() => loadSettings({ MAX_SAMPLES: '100001' })).toThrow(SettingsError);
  });

  it('MAX_LOCATIONS is unset (the config decides) unless given, then bounded', () => {
    expect(defaults.maxLocations).toBeNull();
    expect(loadSettings({ MAX_LOCATIONS: '1' }).maxLocations).toBe(1);
    expect(loadSettings({ MAX_LOCATIONS: '100000' }).maxLocations).toBe(100_000);
    expect(() => loadSettings({ MAX_LOCATIONS: '0' })).toThrow(
      "MAX_LOCATIONS must be an integer between 1 and 100000, got '0'.",
    );
    expect(() => loadSettings({ MAX_LOCATIONS: '100001' })).toThrow(SettingsError);
    // Decimal only, as every number a client sends (Number() read 0x10 as 16).
    expect(() => loadSettings({ MAX_LOCATIONS: '0x10' })).toThrow("got '0x10'");
    expect(loadSettings({ MAX_LOCATIONS: '1e3' }).maxLocations).toBe(1000);
  });

  it.each([
    'a.example',
    'https://a.example/app',
    'https://a.example\nx-evil: 1',
    'https://a.example, https://b.example',
  ])(
    'refuses CORS_ORIGIN %p: the header holds one origin (a newline made every function fail as it loaded)',
    (origin) => {
      expect(() => loadSettings({ CORS_ORIGIN: origin })).toThrow(SettingsError);
      expect(() => loadSettings({ CORS_ORIGIN: origin })).toThrow("CORS_ORIGIN must be '*' or one origin");
    },
  );

  it('reads CORS_ORIGIN as the header must hold it: without a trailing slash, which browsers refuse', () => {
    expect(loadSettings({ CORS_ORIGIN: 'https://api.example.com/' }).corsOrigin).toBe(
      'https://api.example.com',
    );
    expect(loadSettings({ CORS_ORIGIN: 'capacitor://localhost' }).corsOrigin).toBe('capacitor://localhost');
    expect(loadSettings({ CORS_ORIGIN: '*' }).corsOrigin).toBe('*');
  });

  it.each([
    ['PARTIAL_DECODE', 'partialDecode'],
    ['S3_FORCE_PATH_STYLE', 's3.forcePathStyle'],
  ])('%s is a flag, off by default as documented', (variable, field) => {
    const read = (env: Record<string, string>) => {
      const settings = loadSettings(env);
      return field === 'partialDecode' ? settings.partialDecode : settings.s3.forcePathStyle;
    };
    expect(readme.get(variable)).toBe('`false`');
    expect(read({})).toBe(false);
    for (const on of ['true', 'TRUE', ' 1 ']) expect(read({ [variable]: on })).toBe(true);
    for (const off of ['false', 'False', '0', '']) expect(read({ [variable]: off })).toBe(false);
    expect(() => read({ [variable]: 'yes' })).toThrow(`${variable} must be true or false, got 'yes'.`);
  });

  it('reads the text settings trimmed, blank as unset', () => {
    const settings = loadSettings({
      CONFIG_PATH: ' test/fixtures/config.yaml ',
      DATA_ROOT: ' s3://bucket/dem/ ',
      DEFAULT_DATASET: 'a',
      GOOGLE_DATASET: 'a,b',
      CORS_ORIGIN: '*',
    });
    expect(settings.configPath).toBe(path.resolve('test/fixtures/config.yaml'));
    expect(settings).toMatchObject({
      dataRoot: 's3://bucket/dem/',
      defaultDataset: 'a',
      googleDataset: 'a,b',
      corsOrigin: '*',
    });
    const blank = loadSettings({ CONFIG_PATH: ' ', DATA_ROOT: '', GOOGLE_DATASET: ' ', CORS_ORIGIN: '' });
    expect(blank.configPath).toBe(path.resolve('layers/dem-sample/config.yaml'));
    expect(blank).toMatchObject({ dataRoot: null, googleDataset: null, corsOrigin: null });
    for (const variable of ['CONFIG_PATH', 'DATA_ROOT', 'DEFAULT_DATASET', 'GOOGLE_DATASET', 'CORS_ORIGIN']) {
      expect(readme.has(variable)).toBe(true);
    }
  });
});
