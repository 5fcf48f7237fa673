import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import YAML from 'yaml';
import { REPO_ROOT } from './stack';

/**
 * One data folder and config for end-to-end runs, so a single serverless-offline start serves them all:
 * the bundled sample, the single-file test fixtures, and (when present) a real SRTM COG from ../shared/dem.
 * The folder holds symlinks (the data layer follows them); the config's paths are relative to it, so the
 * handlers read every dataset through the data layer over HTTP, as from S3.
 */
export const SHARED_DEM = path.resolve(REPO_ROOT, '../shared/dem');
export const SHARED_SRTM_TILE = 'derived/N48E009_srtm3_cog.tif';
export const SHARED_DATASET = 'srtm-shared';

export interface E2eDatasets {
  configPath: string;
  dataDir: string;
  /** Dataset names in config order. */
  names: string[];
  /** Whether ../shared/dem was there, i.e. dataset `srtm-shared` exists. */
  hasSharedDem: boolean;
  cleanup(): void;
}

interface DatasetEntry {
  name: string;
  path?: string;
}

export function prepareE2eDatasets(): E2eDatasets {
  const workDir = fs.mkdtempSync(path.join(os.tmpdir(), 'elevation-e2e-'));
  const dataDir = path.join(workDir, 'data');
  fs.mkdirSync(dataDir);
  const datasets: DatasetEntry[] = [{ name: 'sample', path: 'sample/stuttgart.tif' }];
  fs.symlinkSync(path.join(REPO_ROOT, 'layers/dem-sample/sample'), path.join(dataDir, 'sample'));

  const fixturesConfig = path.join(REPO_ROOT, 'test/fixtures/config.yaml');
  if (fs.existsSync(fixturesConfig)) {
    fs.symlinkSync(path.join(REPO_ROOT, 'test/fixtures'), path.join(dataDir, 'fixtures'));
    const parsed = YAML.parse(fs.readFileSync(fixturesConfig, 'utf8')) as { datasets?: DatasetEntry[] };
    // Single files only: tiled folders over HTTP would need a tile_template, which the fixtures omit.
    for (const entry of parsed.datasets ?? []) {
      if (entry.path?.endsWith('.tif')) datasets.push({ name: entry.name, path: `fixtures/${entry.path}` });
    }
  }

  const hasSharedDem = fs.existsSync(path.join(SHARED_DEM, SHARED_SRTM_TILE));
  if (hasSharedDem) {
    fs.symlinkSync(SHARED_DEM, path.join(dataDir, 'shared'));
    datasets.push({ name: SHARED_DATASET, path: `shared/${SHARED_SRTM_TILE}` });
  }

  const configPath = path.join(workDir, 'config.yaml');
  const config = { max_locations_per_request: 512, access_control_allow_origin: '*', datasets };
  fs.writeFileSync(configPath, YAML.stringify(config));
  return {
    configPath,
    dataDir,
    names: datasets.map((d) => d.name),
    hasSharedDem,
    cleanup: () => fs.rmSync(workDir, { recursive: true, force: true }),
  };
}
