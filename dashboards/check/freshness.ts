// Generated JSON must be exactly what the TypeScript sources produce, with no leftover files.
import fs from 'node:fs';
import path from 'node:path';
import type { GeneratedDashboard } from '../build/render';

export const staleGeneratedFiles = (rendered: GeneratedDashboard[], dir: string): string[] => {
  const problems: string[] = [];
  for (const r of rendered) {
    const current = fs.existsSync(r.file) ? fs.readFileSync(r.file, 'utf8') : null;
    if (current === null) problems.push(`${path.relative(process.cwd(), r.file)} is missing`);
    else if (current !== r.text)
      problems.push(`${path.relative(process.cwd(), r.file)} differs from its TypeScript source`);
  }
  const expected = new Set(rendered.map((r) => path.basename(r.file)));
  const extra = fs.existsSync(dir)
    ? fs.readdirSync(dir).filter((f) => f.endsWith('.json') && !expected.has(f))
    : [];
  for (const f of extra)
    problems.push(`${f} in ${path.relative(process.cwd(), dir)} has no TypeScript source`);
  return problems;
};
