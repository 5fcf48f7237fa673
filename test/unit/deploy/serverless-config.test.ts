/**
 * The production settings of serverless.yml that issue 11 fixed, checked on the source file (fast, no osls).
 * The packaged CloudFormation template itself is checked by `npm run test:deploy` (cfn-lint + assertions).
 */
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

interface Statement {
  Action: string;
  Resource: unknown;
  Condition?: Record<string, Record<string, string>>;
}

const config = parse(fs.readFileSync('serverless.yml', 'utf8')) as {
  params: Record<string, Record<string, unknown>>;
  provider: {
    runtime: string;
    environment: Record<string, string>;
    iam: { role: { statements: Statement[] } };
    logs?: { httpApi?: unknown };
  };
  layers: Record<string, { compatibleRuntimes: string[] }>;
  functions: Record<string, { reservedConcurrency?: unknown }>;
  custom: { esbuild: { target: string; sourcemap: unknown } };
  resources: { extensions: Record<string, { Properties: Record<string, Record<string, unknown>> }> };
};
const statements = config.provider.iam.role.statements;

describe('serverless.yml for production', () => {
  it('runs nodejs24.x everywhere and targets node24 outside the local stage', () => {
    expect(config.provider.runtime).toBe('nodejs24.x');
    expect(config.layers.dem.compatibleRuntimes).toEqual(['nodejs24.x']);
    expect(config.custom.esbuild.target).toBe('${param:esbuildTarget}');
    expect(config.params.default.esbuildTarget).toBe('node24');
    // serverless-offline runs the bundle on the developer's Node, which may be 20.
    expect(config.params.local.esbuildTarget).toBe('node20');
  });

  it('allows s3:ListBucket on the data bucket only with an s3:prefix condition, so a missing tile is 404', () => {
    const list = statements.find((s) => s.Action === 's3:ListBucket');
    expect(list?.Condition).toEqual({ StringLike: { 's3:prefix': '${param:dataPrefix}*' } });
    expect(list?.Resource).toEqual({ 'Fn::Sub': 'arn:${AWS::Partition}:s3:::${param:dataBucket}' });
  });

  it('hard-codes no partition in any ARN and uses no short-form tags (plain YAML readers must parse it)', () => {
    const text = fs.readFileSync('serverless.yml', 'utf8');
    expect(text).not.toMatch(/arn:aws:/);
    expect(text).not.toMatch(/:\s+!\w+/);
  });

  it("states in the README the reserved concurrency the functions add up to (an account's limit must cover it)", () => {
    const reserved = Object.entries(config.functions).map(([name, fn]) => {
      const value =
        fn.reservedConcurrency === '${param:reservedConcurrency}'
          ? config.params.default.reservedConcurrency
          : fn.reservedConcurrency;
      return {
        name,
        value: value as number,
        perParam: fn.reservedConcurrency === '${param:reservedConcurrency}',
      };
    });
    const tiles = reserved.filter((r) => r.perParam);
    const others = reserved.filter((r) => !r.perParam);
    expect(others.every((r) => r.value === 2)).toBe(true);
    const total = reserved.reduce((sum, r) => sum + r.value, 0);
    const readme = fs.readFileSync('README.md', 'utf8').replace(/\s+/g, ' ');
    // Only the sentences themselves, so a failure shows them and not the whole README.
    expect(/Reserved concurrency caps instances \([^)]*\([^)]*\)/.exec(readme)?.[0]).toBe(
      `Reserved concurrency caps instances (${tiles.length} functions that read tiles x ` +
        `${String(config.params.default.reservedConcurrency)} + ${others.length} x 2 = ${total} ` +
        `(${tiles.map((r) => `\`${r.name}\``).join(', ')}; ${others.map((r) => `\`${r.name}\``).join(', ')})`,
    );
    expect(/an account needs \d+ \+ 100 unreserved concurrency/.exec(readme)?.[0]).toBe(
      `an account needs ${total} + 100 unreserved concurrency`,
    );
  });

  it('keeps --enable-source-maps and source maps to the local stage', () => {
    expect(config.provider.environment.NODE_OPTIONS).toBe('${param:nodeOptions}');
    expect(config.params.default.nodeOptions).toBe('');
    expect(config.params.local.nodeOptions).toBe('--enable-source-maps');
    expect(config.params.default.sourcemap).toBe(false);
    expect(config.custom.esbuild.sourcemap).toBe('${param:sourcemap}');
  });

  it('bounds cost: reserved concurrency on every function, HTTP API stage throttling, access logs', () => {
    for (const fn of Object.values(config.functions)) expect(fn.reservedConcurrency).toBeDefined();
    expect(config.params.default.reservedConcurrency).toEqual(expect.any(Number));
    const routeSettings = config.resources.extensions.HttpApiStage.Properties.DefaultRouteSettings;
    expect(routeSettings).toMatchObject({
      ThrottlingRateLimit: '${param:throttleRate}',
      ThrottlingBurstLimit: '${param:throttleBurst}',
    });
    expect(config.provider.logs?.httpApi).toBeDefined();
  });

  it('passes S3_FORCE_PATH_STYLE and the S3 endpoint through to the functions (an S3-compatible store)', () => {
    expect(config.provider.environment.S3_FORCE_PATH_STYLE).toBe("${env:S3_FORCE_PATH_STYLE, ''}");
    // Offline, serverless-offline passes AWS_* shell variables on; a deployed function gets only this.
    expect(config.provider.environment.AWS_ENDPOINT_URL_S3).toBe("${env:AWS_ENDPOINT_URL_S3, ''}");
  });

  it('takes CONFIG_PATH and DATA_ROOT from the shell on the local stage only: a deploy from its params', () => {
    expect(config.provider.environment.CONFIG_PATH).toBe('${param:configPath}');
    expect(config.provider.environment.DATA_ROOT).toBe('${param:dataRoot}');
    expect(config.params.default).toMatchObject({ configPath: '/opt/config.yaml', dataRoot: '' });
    expect(config.params.local).toMatchObject({
      configPath: "${env:CONFIG_PATH, 'layers/dem-sample/config.yaml'}",
      dataRoot: "${env:DATA_ROOT, ''}",
    });
    const stages = Object.entries(config.params).filter(([stage]) => stage !== 'local');
    expect(JSON.stringify(stages)).not.toMatch(/\$\{env:(CONFIG_PATH|DATA_ROOT)/);
  });

  it('passes every setting the handlers read to the functions (serverless-offline gives them nothing else)', () => {
    // Set by Lambda (or, offline, by serverless-offline and offline-env.ts), not by a user of this project.
    const runtime = new Set(['IS_OFFLINE', 'LAMBDA_TASK_ROOT', 'TZ', '_X_AMZN_TRACE_ID']);
    // Powertools' own switch: passing it empty would override POWERTOOLS_DEV (set it on the function in AWS).
    runtime.add('POWERTOOLS_METRICS_DISABLED');
    const read = new Set<string>();
    const reads = [
      /process\.env\.([A-Z_][A-Z0-9_]*)/g,
      /\benv\.([A-Z_][A-Z0-9_]*)/g,
      /\(env, '([A-Z_][A-Z0-9_]*)'/g,
      /env\['([A-Z_][A-Z0-9_]*)'\]/g,
    ];
    for (const file of sourceFiles(['layers', 'functions'])) {
      const text = fs.readFileSync(file, 'utf8');
      for (const pattern of reads) for (const m of text.matchAll(pattern)) read.add(m[1]);
    }
    // The scan finds the settings it must (a pattern that stopped matching would pass vacuously).
    for (const known of ['DATA_ROOT', 'PARTIAL_DECODE', 'MAX_KMZ_UNZIPPED_MB', 'OFFLINE_DIRECT_STDOUT']) {
      expect([...read]).toContain(known);
    }
    const missing = [...read].filter(
      (name) => !name.startsWith('AWS_') && !runtime.has(name) && !(name in config.provider.environment),
    );
    expect(missing).toEqual([]);
  });
});

function sourceFiles(dirs: string[]): string[] {
  return dirs.flatMap((dir) =>
    fs
      .readdirSync(dir, { recursive: true, encoding: 'utf8' })
      .filter((f) => f.endsWith('.ts') && !f.endsWith('.test.ts') && !f.endsWith('.d.ts'))
      .map((f) => path.join(dir, f)),
  );
}
