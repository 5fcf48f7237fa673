/**
 * What the deploy tier runs on, installed by `bash scripts/deploy/install.sh` into .bin/ (git-ignored):
 * AWS's Lambda Runtime Interface Emulator (Go module proxy), Node 24 (the nodejs24.x runtime's major) with
 * aws-lambda-ric (the open-source Node.js runtime interface client), moto server and cfn-lint (PyPI), plus the
 * artefacts of `npm run package`.
 */
import fs from 'node:fs';
import path from 'node:path';
import type { Requirement } from '../../support/requirements';

const BIN = path.resolve('.bin');
export const tools = {
  rie: path.join(BIN, 'aws-lambda-rie'),
  node24: path.join(BIN, 'node24'),
  ric: path.join(BIN, 'ric/node_modules/aws-lambda-ric/index.mjs'),
  motoServer: path.join(BIN, 'venv/bin/moto_server'),
  cfnLint: path.join(BIN, 'venv/bin/cfn-lint'),
  /** The runtime's own node_modules (Lambda: /var/runtime/node_modules on NODE_PATH): the AWS SDK v3. */
  runtimeModules: path.join(BIN, 'lambda-runtime/node_modules'),
};
export const PACKAGE_DIR = path.resolve('.serverless');

export function deployRequirements(...needed: (keyof typeof tools)[]): Requirement[] {
  return [
    ...needed.map((name) => ({
      what: `${path.relative(process.cwd(), tools[name])} (bash scripts/deploy/install.sh)`,
      available: fs.existsSync(tools[name]),
    })),
    {
      what: 'packaged functions in .serverless/ (npm run package)',
      available: fs.existsSync(path.join(PACKAGE_DIR, 'cloudformation-template-update-stack.json')),
    },
  ];
}
