/**
 * GDAL's answers for the real-data suite, computed at test time by scripts/gdal/reference.py (Debian's
 * gdal-bin + python3-gdal): nearest from `gdallocationinfo -valonly -wgs84`, bilinear/cubic from GDAL's
 * own RasterIO resampling. One Python process answers every case.
 */
import { execFileSync } from 'node:child_process';
import { existsSync } from 'node:fs';
import path from 'node:path';

export const REPO_ROOT = path.resolve(__dirname, '../../..');
/** Real DEM files shared next to the repository (never copied into it; see its SOURCES.md). SHARED_DEM overrides. */
export const SHARED_DEM = process.env.SHARED_DEM ?? path.resolve(REPO_ROOT, '../shared/dem');
const REFERENCE_SCRIPT = path.join(REPO_ROOT, 'scripts/gdal/reference.py');
/** Debian's python3 has python3-gdal; a pyenv/venv python3 on PATH usually does not. */
const PYTHON = existsSync('/usr/bin/python3') ? '/usr/bin/python3' : 'python3';

export interface ReferencePoint {
  lat: number;
  lon: number;
  /** centre | random | edge-inside | edge-outside | corner | block-edge | nodata | next-to-nodata | … */
  kind: string;
  /** What gdallocationinfo prints; null for nodata or outside the raster. */
  nearest: number | null;
  /** GDAL's value where the window is inside the raster and holds no nodata; absent otherwise. */
  bilinear?: number;
  cubic?: number;
  /** 2x2 window inside the raster holding nodata, own pixel valid: renormalised bilinear (numpy). */
  bilinearNextToNodata?: number;
  /** In a tile's buffer outside its named cell: null is as right as GDAL's value. */
  nullAllowed?: boolean;
}

export interface ReferenceCase {
  id: string;
  points: ReferencePoint[];
  /** Largest |GDAL bilinear - numpy bilinear| over the case: GDAL resamples through Float32. */
  bilinearNumpyMaxDiff: number;
}

export interface CaseSpec {
  id: string;
  /** Absolute paths; several files are mosaicked through a VRT (a seamless tiled dataset). */
  files: string[];
  count?: number;
  seed?: number;
  extraPoints?: { lat: number; lon: number; kind: string }[];
  /** Points given in the rasters' own CRS (e.g. along a projected tile seam). */
  extraProjected?: { x: number; y: number; kind: string }[];
  /** Tiles named by lower-left corner: points outside these cells but in a tile's buffer may also be null. */
  tileCells?: { size: number; lowerLeft: [number, number][] };
}

export function gdalReference(cases: CaseSpec[]): Map<string, ReferenceCase> {
  let stdout: string;
  try {
    stdout = execFileSync(PYTHON, [REFERENCE_SCRIPT], {
      input: JSON.stringify({ cases }),
      encoding: 'utf8',
      maxBuffer: 256 * 1024 * 1024,
    });
  } catch (error) {
    throw new Error(
      `GDAL reference failed (${PYTHON} ${REFERENCE_SCRIPT}). The real-data suite needs Debian's ` +
        `gdal-bin and python3-gdal (apt-get install -y gdal-bin python3-gdal): ${(error as Error).message}`,
    );
  }
  const parsed = JSON.parse(stdout) as { cases: ReferenceCase[] };
  return new Map(parsed.cases.map((c) => [c.id, c]));
}
