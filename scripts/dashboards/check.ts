// npm run dashboards:check — generated JSON is fresh, type-checks against the foundation SDK's
// types, passes the lint rules (metric names against docs/metrics.md when it exists), and the
// provisioning creates the datasource uids the dashboards use. Exits 1 on any problem.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, renderDashboards } from '../../dashboards/build/render';
import { staleGeneratedFiles } from '../../dashboards/check/freshness';
import { lintDashboardSet } from '../../dashboards/check/lint';
import { provisioningProblems } from '../../dashboards/check/provisioning';
import { checkAgainstSdkTypes } from '../../dashboards/check/sdk-types';

const CATALOGUE = path.join(__dirname, '..', '..', 'docs', 'metrics.md');

const rendered = renderDashboards();
const problems: string[] = [...staleGeneratedFiles(rendered, GENERATED_DIR), ...provisioningProblems()];
const files = rendered
  .filter((r) => fs.existsSync(r.file))
  .map((r) => ({ file: r.file, text: fs.readFileSync(r.file, 'utf8') }));
for (const p of checkAgainstSdkTypes(files))
  problems.push(`${path.relative(process.cwd(), p.file)}:${p.line} SDK types: ${p.message}`);
const metricCatalogue = fs.existsSync(CATALOGUE) ? fs.readFileSync(CATALOGUE, 'utf8') : undefined;
const lint = lintDashboardSet(
  files.map((f) => JSON.parse(f.text) as unknown),
  { metricCatalogue },
);
for (const p of lint) problems.push(`${p.where}: [${p.rule}] ${p.message}`);

const panels = files.reduce(
  (n, f) => n + ((JSON.parse(f.text) as { panels?: unknown[] }).panels?.length ?? 0),
  0,
);
console.log(
  `dashboards:check: ${files.length} dashboards, ${panels} panels (incl. rows); metric catalogue ${metricCatalogue === undefined ? 'absent (docs/metrics.md), names not checked' : 'checked'}`,
);
if (problems.length) {
  for (const p of problems) console.error(`  ✗ ${p}`);
  console.error(
    `dashboards:check: ${problems.length} problem(s); run npm run dashboards:build after changing dashboards/queries`,
  );
  process.exit(1);
}
console.log('dashboards:check: ok');
