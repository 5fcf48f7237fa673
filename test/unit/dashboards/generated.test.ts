import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { GENERATED_DIR, renderDashboards } from '../../../dashboards/build/render';
import { staleGeneratedFiles } from '../../../dashboards/check/freshness';
import { provisioningProblems } from '../../../dashboards/check/provisioning';
import { checkAgainstSdkTypes } from '../../../dashboards/check/sdk-types';

describe('generated dashboards', () => {
  it('are committed exactly as the TypeScript sources render them (run npm run dashboards:build)', () => {
    expect(staleGeneratedFiles(renderDashboards(), GENERATED_DIR)).toEqual([]);
  });

  it('reports edited, missing and orphaned files as stale', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'dash-'));
    const rendered = renderDashboards().map((r) => ({ ...r, file: path.join(dir, path.basename(r.file)) }));
    fs.writeFileSync(rendered[0].file, rendered[0].text.replace('"Elevation API"', '"Edited by hand"'));
    fs.writeFileSync(rendered[1].file, rendered[1].text);
    fs.writeFileSync(path.join(dir, 'old.json'), '{}');
    const problems = staleGeneratedFiles(rendered, dir);
    expect(problems).toHaveLength(3);
    expect(problems.join('\n')).toMatch(
      /differs[\s\S]*missing[\s\S]*old\.json in \S+ has no TypeScript source/,
    );
  });

  it('type-check against the foundation SDK types, and a broken dashboard does not', () => {
    const good = renderDashboards();
    const broken = good[0].text
      .replace('"unit": "s"', '"unit": 5')
      .replace('"legendFormat"', '"legendFormatt"')
      .replace('"mode": "dashed"', '"mode": "dotted"');
    const problems = checkAgainstSdkTypes([...good, { file: 'broken.json', text: broken }]);
    expect(problems.filter((p) => p.file !== 'broken.json')).toEqual([]);
    const messages = problems.map((p) => p.message).join('\n');
    expect(problems.every((p) => p.file === 'broken.json')).toBe(true);
    expect(messages).toContain('\'"legendFormatt"\' does not exist');
    expect(messages).toContain('Type \'"dotted"\' is not assignable');
    expect(messages).toContain("Type 'number' is not assignable to type 'string'");
  }, 60_000);

  it('are provisioned with datasources whose uids the panels reference', () => {
    expect(provisioningProblems()).toEqual([]);
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'prov-'));
    fs.mkdirSync(path.join(dir, 'datasources'));
    fs.writeFileSync(
      path.join(dir, 'datasources', 'datasources.yaml'),
      'datasources:\n  - {uid: prom, type: prometheus}\n',
    );
    expect(provisioningProblems(dir)).toEqual([
      'datasources.yaml has no datasource with uid prometheus',
      'datasources.yaml has no datasource with uid jaeger',
      'dashboards/dashboards.yaml provider is missing',
    ]);
  });
});
