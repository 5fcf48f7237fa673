/** The packaged CloudFormation template (`npm run package`): cfn-lint clean, and the production settings in it. */
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { describeIfAvailable } from '../support/requirements';
import { deployRequirements, PACKAGE_DIR, tools } from './support/tools';

const TEMPLATE = path.join(PACKAGE_DIR, 'cloudformation-template-update-stack.json');

interface Resource {
  Type: string;
  Condition?: string;
  Properties: Record<string, unknown>;
}

describeIfAvailable('packaged CloudFormation template', deployRequirements('cfnLint'), () => {
  const template = () =>
    JSON.parse(fs.readFileSync(TEMPLATE, 'utf8')) as {
      Resources: Record<string, Resource>;
      Parameters: Record<string, unknown>;
    };
  const functions = () =>
    Object.values(template().Resources).filter((r) => r.Type === 'AWS::Lambda::Function');

  it('passes cfn-lint with no errors and no warnings beyond the justified ignores in .cfnlintrc.yaml', () => {
    const run = spawnSync(tools.cfnLint, ['--format', 'parseable', TEMPLATE], { encoding: 'utf8' });
    expect(run.stdout + run.stderr).toBe('');
    expect(run.status).toBe(0);
    // W2531 (deprecated runtime) in particular: it must not even be ignored.
    expect(fs.readFileSync('.cfnlintrc.yaml', 'utf8')).not.toMatch(/W2531/);
  });

  it('runs every function and the layer on nodejs24.x with bounded concurrency and no --enable-source-maps', () => {
    for (const fn of functions()) {
      expect(fn.Properties.Runtime).toBe('nodejs24.x');
      expect(fn.Properties.ReservedConcurrentExecutions).toEqual(expect.any(Number));
      const env = (fn.Properties.Environment as { Variables: Record<string, string> }).Variables;
      expect(env.NODE_OPTIONS ?? '').not.toMatch(/enable-source-maps/);
    }
    expect(template().Resources.DemLambdaLayer.Properties.CompatibleRuntimes).toEqual(['nodejs24.x']);
  });

  it('grants s3:ListBucket on the data bucket only for the data prefix, with partition-free ARNs', () => {
    const role = template().Resources.IamRoleLambdaExecution.Properties as {
      Policies: {
        PolicyDocument: { Statement: { Action: string[]; Resource: unknown; Condition?: unknown }[] };
      }[];
    };
    const statements = role.Policies.flatMap((p) => p.PolicyDocument.Statement);
    const list = statements.find((s) => s.Action.includes('s3:ListBucket'));
    expect(list?.Condition).toEqual({ StringLike: { 's3:prefix': 'dem/*' } });
    expect(JSON.stringify(template())).not.toMatch(/arn:aws:s3/);
  });

  it('throttles the HTTP API stage, writes access logs, and adds kms:Decrypt only when a key is given', () => {
    const stage = template().Resources.HttpApiStage.Properties as {
      DefaultRouteSettings: Record<string, number>;
      AccessLogSettings?: unknown;
    };
    expect(stage.DefaultRouteSettings.ThrottlingRateLimit).toBeGreaterThan(0);
    expect(stage.DefaultRouteSettings.ThrottlingBurstLimit).toBeGreaterThan(0);
    expect(stage.AccessLogSettings).toBeDefined();
    expect(template().Resources.DataKmsDecryptPolicy.Condition).toBe('HasDataKmsKey');
    expect(template().Parameters.DataKmsKeyArn).toMatchObject({ Default: '' });
  });

  it('ships no source maps in the function zips', () => {
    const zips = fs.readdirSync(PACKAGE_DIR).filter((f) => f.endsWith('.zip') && f !== 'dem.zip');
    // One per function in serverless.yml: elevation, file, profile, app, google, datasets, legacy,
    // openelevation, help, health.
    expect(zips.length).toBe(10);
    for (const zip of zips) {
      const listing = spawnSync('python3', ['-m', 'zipfile', '-l', path.join(PACKAGE_DIR, zip)], {
        encoding: 'utf8',
      });
      expect(listing.stdout).not.toMatch(/\.map\b/);
    }
  });
});
