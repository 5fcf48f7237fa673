// The provisioning files must create the datasources with the uids the dashboards reference.
import fs from 'node:fs';
import path from 'node:path';
import { parse } from 'yaml';

export const PROVISIONING_DIR = path.join(__dirname, '..', 'provisioning');

export const provisioningProblems = (dir = PROVISIONING_DIR): string[] => {
  const file = path.join(dir, 'datasources', 'datasources.yaml');
  if (!fs.existsSync(file)) return [`${file} is missing`];
  const doc = parse(fs.readFileSync(file, 'utf8')) as { datasources?: { uid?: string; type?: string }[] };
  const problems: string[] = [];
  for (const uid of ['prometheus', 'jaeger']) {
    const ds = (doc.datasources ?? []).find((d) => d.uid === uid);
    if (!ds) problems.push(`datasources.yaml has no datasource with uid ${uid}`);
    else if (ds.type !== uid) problems.push(`datasource ${uid} has type ${String(ds.type)}, expected ${uid}`);
  }
  if (!fs.existsSync(path.join(dir, 'dashboards', 'dashboards.yaml')))
    problems.push('dashboards/dashboards.yaml provider is missing');
  return problems;
};
