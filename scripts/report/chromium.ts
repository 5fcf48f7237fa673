// Debian's headless Chromium, run as a command (no browser download, no driver): --dump-dom to read
// what the page's scripts produced, --screenshot for the full-page PNG.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { pathToFileURL } from 'node:url';

export const CHROMIUM = process.env.CHROMIUM_PATH ?? '/usr/bin/chromium';

/** Flags that keep a headless run quiet and local: no GPU, no network chatter, a throwaway profile. */
const baseFlags = (profile: string): string[] => [
  '--headless',
  '--no-sandbox',
  '--disable-gpu',
  '--disable-background-networking',
  '--disable-component-update',
  '--disable-sync',
  '--no-first-run',
  '--hide-scrollbars',
  '--force-device-scale-factor=1',
  `--user-data-dir=${profile}`,
];

const run = (args: string[], timeoutMs: number): string => {
  const profile = fs.mkdtempSync(path.join(os.tmpdir(), 'report-chromium-'));
  try {
    const res = spawnSync(CHROMIUM, [...baseFlags(profile), ...args], {
      encoding: 'utf8',
      timeout: timeoutMs,
      maxBuffer: 256 * 1024 * 1024,
    });
    if (res.error) throw new Error(`${CHROMIUM}: ${res.error.message}`);
    if (res.status !== 0) throw new Error(`${CHROMIUM} exited ${res.status}: ${res.stderr.slice(-2000)}`);
    return res.stdout;
  } finally {
    fs.rmSync(profile, { recursive: true, force: true });
  }
};

/** The DOM after the page's scripts ran (virtual time lets timers finish without waiting). */
export const dumpDom = (htmlFile: string, hash: string, width: number, timeoutMs = 120_000): string =>
  run(
    [
      '--virtual-time-budget=15000',
      `--window-size=${width},1000`,
      '--dump-dom',
      `${pathToFileURL(path.resolve(htmlFile)).href}${hash}`,
    ],
    timeoutMs,
  );

export const screenshot = (
  htmlFile: string,
  pngFile: string,
  width: number,
  height: number,
  timeoutMs = 120_000,
): void => {
  run(
    [
      '--virtual-time-budget=15000',
      `--window-size=${width},${height}`,
      `--screenshot=${path.resolve(pngFile)}`,
      pathToFileURL(path.resolve(htmlFile)).href,
    ],
    timeoutMs,
  );
  if (!fs.existsSync(pngFile)) throw new Error(`${CHROMIUM} wrote no screenshot to ${pngFile}`);
};
