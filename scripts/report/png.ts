// PNGs of the report: one per chart (Chart.js renders each canvas to a PNG inside headless
// Chromium; --dump-dom carries them out) and one screenshot of the whole page.
import fs from 'node:fs';
import path from 'node:path';
import { dumpDom, screenshot } from './chromium';

const attr = (tag: string, name: string): string | undefined =>
  new RegExp(`${name}="([^"]*)"`).exec(tag)?.[1];

/** Two charts side by side. */
const PAGE_WIDTH = 1280;
/** Chromium caps a screenshot's size; past this the bottom of a very long report is cut. */
const MAX_SCREENSHOT_HEIGHT = 16_000;

export const writePngs = (htmlFile: string, outDir: string): { page: string; panels: string[] } => {
  const dom = dumpDom(htmlFile, '#export', PAGE_WIDTH);
  const exportDiv = /<div id="export"[^>]*>/.exec(dom)?.[0];
  if (!exportDiv) throw new Error('the report page did not export its charts (script error?)');
  const panelDir = path.join(outDir, 'panels');
  fs.mkdirSync(panelDir, { recursive: true });
  const panels: string[] = [];
  for (const img of dom.match(/<img [^>]*data-panel-key="[^"]*"[^>]*>/g) ?? []) {
    const key = attr(img, 'data-panel-key');
    const src = attr(img, 'src') ?? '';
    const base64 = /^data:image\/png;base64,(.*)$/.exec(src)?.[1];
    if (!key || !base64) continue;
    const file = path.join(panelDir, `${key}.png`);
    fs.writeFileSync(file, Buffer.from(base64, 'base64'));
    panels.push(file);
  }
  const height = Math.min(Number(attr(exportDiv, 'data-height') ?? 4000) + 40, MAX_SCREENSHOT_HEIGHT);
  const page = path.join(outDir, 'report.png');
  screenshot(htmlFile, page, PAGE_WIDTH, height);
  return { page, panels };
};
