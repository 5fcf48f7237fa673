/**
 * The production settings of serverless.yml that issue 11 fixed, checked on the source file (fast, no osls).
 * The packaged CloudFormation template itself is checked by `npm run test:deploy` (cfn-lint + assertions).
 */
import fs from 'node:fs';
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

  it('passes S3_FORCE_PATH_STYLE through to the functions', () => {
    expect(config.provider.environment.S3_FORCE_PATH_STYLE).toBe("${env:S3_FORCE_PATH_STYLE, ''}");
  });
});
