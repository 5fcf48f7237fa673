/** Temporary dataset folders and config files pointing at the shared real DEM files (never copied). */
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { stringify } from 'yaml';

export type DatasetEntry = Record<string, string | number>;

export interface TempDatasets {
  dir: string;
  configPath: string;
  cleanup(): void;
}

/**
 * Writes `config.yaml` (OpenTopoData format) into a fresh temp folder; `links` creates sub-folders of
 * symlinks (folder -> {linkName: target}) so a file can appear under a tile name, e.g. a Copernicus name.
 */
export function tempDatasets(
  datasets: DatasetEntry[],
  links: Record<string, Record<string, string>> = {},
): TempDatasets {
  const dir = mkdtempSync(path.join(os.tmpdir(), 'elevation-realdata-'));
  for (const [folder, files] of Object.entries(links)) {
    mkdirSync(path.join(dir, folder), { recursive: true });
    for (const [name, target] of Object.entries(files)) symlinkSync(target, path.join(dir, folder, name));
  }
  const configPath = path.join(dir, 'config.yaml');
  writeFileSync(configPath, stringify({ max_locations_per_request: 100000, datasets }));
  return { dir, configPath, cleanup: () => rmSync(dir, { recursive: true, force: true }) };
}
