// npm run dashboards:build — regenerate dashboards/generated/*.json from the TypeScript sources.
import fs from 'node:fs';
import path from 'node:path';
import { GENERATED_DIR, renderDashboards } from '../../dashboards/build/render';

fs.mkdirSync(GENERATED_DIR, { recursive: true });
const rendered = renderDashboards();
const keep = new Set(rendered.map((r) => path.basename(r.file)));
for (const f of fs.readdirSync(GENERATED_DIR)) {
  if (f.endsWith('.json') && !keep.has(f)) fs.rmSync(path.join(GENERATED_DIR, f));
}
for (const r of rendered) {
  fs.writeFileSync(r.file, r.text);
  console.log(`wrote ${path.relative(process.cwd(), r.file)}`);
}
