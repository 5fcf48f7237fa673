/**
 * Real DEM files from ../shared/dem read through the library must agree with GDAL: nearest equals
 * `gdallocationinfo` and bilinear/cubic match GDAL's resampling within 1e-3 m, at several hundred points per
 * file (pixel centres, random, within half a pixel of the edges, corners, block edges, nodata pixels).
 * Tiled datasets are compared with a GDAL VRT mosaic of their tiles: seamless across tile edges. Some files are
 * also recompressed (ZSTD, LERC bare and wrapped) and compared with GDAL reading the recompressed file; and
 * tiles given a GDAL band scale/offset are compared with GDAL's heights of them (`gdal_translate -unscale`).
 */
import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, rmSync } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { loadDatasetRegistry, type DatasetRegistry, type Interpolation } from '../../layers/elevation';
import { assertablePoints, mismatches } from './support/compare';
import { gdalReference, SHARED_DEM, type CaseSpec, type ReferenceCase } from './support/gdal-reference';
import { describeIfAvailable } from '../support/requirements';
import { hasCommand } from '../support/tools';
import { tempDatasets, type DatasetEntry, type TempDatasets } from './support/temp-datasets';

const dem = (relative: string): string => path.join(SHARED_DEM, relative);
const POINTS_PER_FILE = 300;
const COP_UPSAMPLED = 'derived/upsampled1as_N48_00_E009_00_DEM_cog.tif';
const LA = (i: number): string => dem(`copernicus-glo30-crops/los_angeles_tile_${i}.tif`);
const copName = (cell: string): string => `Copernicus_DSM_COG_10_${cell}_DEM.tif`;
/** The cell of each LA crop: LA(i) is the crop of tile LA_CELLS[i]. */
const LA_CELLS = ['N33_00_W118_00', 'N33_00_W119_00', 'N34_00_W118_00', 'N34_00_W119_00'];
/**
 * Real files recompressed by gdal_translate (in beforeAll) with the codecs the reader decodes whole: the same
 * heights must come back as from GDAL reading the recompressed file.
 */
const RECOMPRESSED_DIR = path.join(os.tmpdir(), `elevation-realdata-codecs-${process.pid}`);
const recompressed = (file: string): string => path.join(RECOMPRESSED_DIR, file);
/**
 * The LA crops labelled with a GDAL band scale and offset (`gdal_translate -a_scale -a_offset`: the stored values
 * stay, the heights become stored × scale + offset), then GDAL's heights of them as Float64 tiles
 * (`-unscale`; the crops have no nodata, which -unscale would not rescale). `scales` gives each tile its own.
 */
function scaledLa(folder: string, scales: [number, number][]): typeof RECOMPRESSED {
  return LA_CELLS.flatMap((cell, i) => [
    {
      file: `${folder}/${copName(cell)}`,
      source: LA(i),
      options: ['-of', 'COG', '-a_scale', String(scales[i][0]), '-a_offset', String(scales[i][1])],
    },
    {
      file: `${folder}-unscaled/${copName(cell)}`,
      source: recompressed(`${folder}/${copName(cell)}`),
      options: ['-unscale', '-ot', 'Float64'],
    },
  ]);
}
/**
 * Open-Elevation's data folder as its create-tiles.sh cuts it: the source raster split into n x n tiles by
 * `gdal_translate -r cubicspline -projwin` on fractional bounds from the source's corners, so GDAL resamples each
 * tile (401 px of 0.000832° here, not the source's 400.33 of 0.000833°). Someone moving from Open-Elevation points
 * a dataset at a gdalbuildvrt VRT of that folder; its heights must be GDAL's of that VRT.
 */
function openElevationTiles(n: number): typeof RECOMPRESSED {
  const [west, north, east, south] = [9 - 1 / 2400, 49 + 1 / 2400, 10 + 1 / 2400, 48 - 1 / 2400]; // N48E009.hgt
  const [xStep, yStep] = [(east - west) / n, (north - south) / n];
  return Array.from({ length: n * n }, (_, i) => {
    const [x, y] = [Math.floor(i / n), i % n];
    const window = [west + x * xStep, north - y * yStep, west + (x + 1) * xStep, north - (y + 1) * yStep];
    return {
      file: `open-elevation/SRTM_${x}_${y}.tif`,
      source: dem('srtm3-germany/N48E009.hgt'),
      options: ['-r', 'cubicspline', '-projwin', ...window.map(String), '-of', 'GTiff'],
    };
  });
}
const OPEN_ELEVATION_SPLIT = 3;
const RECOMPRESSED: { file: string; source: string; options: string[] }[] = [
  {
    file: 'fairbanks-zstd-p3.tif',
    source: dem('copernicus-glo30-crops/fairbanks_tile_0.tif'),
    options: ['-of', 'GTiff', '-co', 'TILED=YES', '-co', 'COMPRESS=ZSTD', '-co', 'PREDICTOR=3'],
  },
  {
    file: 'fairbanks-lerc-zstd.tif',
    source: dem('copernicus-glo30-crops/fairbanks_tile_0.tif'),
    options: ['-of', 'COG', '-co', 'COMPRESS=LERC_ZSTD', '-co', 'MAX_Z_ERROR=0'],
  },
  {
    file: 'srtm3-lerc-deflate.tif',
    source: dem('derived/N48E009_srtm3_cog.tif'),
    options: ['-of', 'COG', '-co', 'COMPRESS=LERC_DEFLATE', '-co', 'MAX_Z_ERROR=0'],
  },
  {
    // GDAL applies PREDICTOR=2 to Float64 bands as 64-bit integers (every request was a 500 before).
    file: 'srtm3-float64-p2.tif',
    source: dem('derived/N48E009_srtm3_cog.tif'),
    options: [
      '-of',
      'GTiff',
      '-ot',
      'Float64',
      '-co',
      'TILED=YES',
      '-co',
      'COMPRESS=DEFLATE',
      '-co',
      'PREDICTOR=2',
    ],
  },
  {
    file: 'nodata-9999-lerc.tif',
    source: dem('opentopodata/nodata/nodata.geotiff'),
    options: ['-of', 'COG', '-co', 'COMPRESS=LERC', '-co', 'MAX_Z_ERROR=0'],
  },
  // Each tile its own scale: a window across a seam scales each pixel by its own tile's.
  ...scaledLa('la-scaled', [
    [0.5, -20],
    [2, 100],
    [0.25, 0],
    [1, -1000],
  ]),
  // One scale for all, as gdalbuildvrt wants it (it skips a source of another scale or offset).
  ...scaledLa(
    'la-scaled-same',
    Array.from({ length: 4 }, (): [number, number] => [0.5, -20]),
  ),
  ...openElevationTiles(OPEN_ELEVATION_SPLIT),
];

/** Around the corner where the four LA crops meet: windows there take pixels from up to four tiles. */
const LA_CORNER_POINTS: CaseSpec['extraPoints'] = [
  { lat: 34.0, lon: -118.0, kind: 'tile-corner' },
  { lat: 34.0001, lon: -118.0001, kind: 'tile-corner' },
  { lat: 33.9999, lon: -117.9999, kind: 'tile-corner' },
  { lat: 34.0002, lon: -117.9998, kind: 'tile-corner' },
  { lat: 33.99985, lon: -118.00015, kind: 'tile-corner' },
];

interface RealCase {
  /** Dataset name in the temp config; also the reference case id. */
  name: string;
  files: string[];
  entry: DatasetEntry;
  extraPoints?: CaseSpec['extraPoints'];
  extraProjected?: CaseSpec['extraProjected'];
  tileCells?: CaseSpec['tileCells'];
  /** Mosaics answer from a VRT of `files`; several datasets may share one reference. */
  referenceOf?: string;
  /** Default: all three; a 3x3 raster has no interior 2x2 window without nodata. */
  methods?: Interpolation[];
}

const CASES: RealCase[] = [
  { name: 'srtm3-cog', files: [dem('derived/N48E009_srtm3_cog.tif')], entry: {} },
  {
    name: 'copernicus-layout-file',
    files: [dem(COP_UPSAMPLED)],
    entry: {},
    // Whole degrees: pixel centres on the north and west edges; lat 48.0 / lon 10.0 belong to absent tiles.
    extraPoints: [
      { lat: 49.0, lon: 9.0, kind: 'whole-degree' },
      { lat: 49.0, lon: 9.5, kind: 'whole-degree' },
      { lat: 48.5, lon: 9.0, kind: 'whole-degree' },
      { lat: 48.0, lon: 9.5, kind: 'whole-degree' },
      { lat: 48.5, lon: 10.0, kind: 'whole-degree' },
      { lat: 48.0001, lon: 9.9999, kind: 'whole-degree' },
      { lat: 48.00015, lon: 9.99985, kind: 'whole-degree' },
    ],
  },
  {
    // The same tile opened as a Copernicus-named tiled dataset: tile choice by floor(lat - ½px) etc.
    name: 'copernicus-layout-tiled',
    files: [dem(COP_UPSAMPLED)],
    referenceOf: 'copernicus-layout-file',
    entry: { path: 'cop-tiles/', filename_epsg: 4326, filename_tile_size: 1 },
  },
  { name: 'srtm3-epsg3035', files: [dem('derived/N48E009-E010_srtm3_epsg3035_100m_cog.tif')], entry: {} },
  { name: 'srtm3-epsg25832', files: [dem('derived/N48E009_srtm3_epsg25832_90m_cog.tif')], entry: {} },
  {
    // Four real GLO-30 crops meeting at 34 N, 118 W, named as the tiles they come from.
    name: 'copernicus-la-corner',
    files: [0, 1, 2, 3].map(LA),
    entry: { path: 'la-tiles/', filename_epsg: 4326, filename_tile_size: 1 },
    extraPoints: LA_CORNER_POINTS,
  },
  {
    // GDAL's heights of the scaled tiles (Float64), the reference of the scaled datasets below.
    name: 'la-scaled-reference',
    files: LA_CELLS.map((cell) => recompressed(`la-scaled-unscaled/${copName(cell)}`)),
    entry: { path: recompressed('la-scaled-unscaled/'), filename_epsg: 4326, filename_tile_size: 1 },
    extraPoints: LA_CORNER_POINTS,
  },
  {
    name: 'la-scaled-tiles',
    files: [],
    referenceOf: 'la-scaled-reference',
    entry: { path: recompressed('la-scaled/'), filename_epsg: 4326, filename_tile_size: 1 },
  },
  {
    name: 'la-scaled-same-reference',
    files: LA_CELLS.map((cell) => recompressed(`la-scaled-same-unscaled/${copName(cell)}`)),
    entry: { path: recompressed('la-scaled-same-unscaled/'), filename_epsg: 4326, filename_tile_size: 1 },
    extraPoints: LA_CORNER_POINTS,
  },
  // gdalbuildvrt copies the sources' scale and offset to the VRT's band.
  {
    name: 'la-scaled-vrt',
    files: [],
    referenceOf: 'la-scaled-same-reference',
    entry: { path: 'la-scaled.vrt' },
  },
  { name: 'copernicus-fairbanks', files: [dem('copernicus-glo30-crops/fairbanks_tile_0.tif')], entry: {} },
  {
    // Two EU-DEM tiles (25 km pixels) meeting at x = 4000000 m; sea is nodata. These test tiles carry a
    // one-pixel (25 km) buffer beyond their named 1000 km cells: there null is accepted as well as GDAL's value.
    name: 'eu-dem-pair',
    files: [
      dem('opentopodata/eu-dem-25km-laea/N2000000E3000000.TIF'),
      dem('opentopodata/eu-dem-25km-laea/N2000000E4000000.TIF'),
    ],
    entry: { path: dem('opentopodata/eu-dem-25km-laea/'), filename_epsg: 3035, filename_tile_size: 1000000 },
    // Both sides of the seam x = 4000000 m, every 25 km in y: 2x2 and 4x4 windows take pixels from both tiles.
    extraProjected: Array.from({ length: 40 }, (_, i) => ({
      x: 4000000 + (i % 2 === 0 ? -1 : 1) * (3000 + 211 * i),
      y: 2012345 + 25000 * i,
      kind: 'seam',
    })),
    tileCells: {
      size: 1000000,
      lowerLeft: [
        [3000000, 2000000],
        [4000000, 2000000],
      ],
    },
  },
  // The same files as GDAL VRT mosaics (gdalbuildvrt): the dataset is the .vrt, answers must not change.
  { name: 'copernicus-la-vrt', files: [], referenceOf: 'copernicus-la-corner', entry: { path: 'la.vrt' } },
  { name: 'eu-dem-vrt', files: [], referenceOf: 'eu-dem-pair', entry: { path: 'eu-dem.vrt' } },
  { name: 'srtm-hgt-vrt', files: [], referenceOf: 'srtm-hgt-tiles', entry: { path: 'srtm-hgt.vrt' } },
  {
    name: 'nodata-9999',
    files: [dem('opentopodata/nodata/nodata.geotiff')],
    entry: {},
    methods: ['nearest'],
  },
  { name: 'srtm-utm32n-point', files: [dem('opentopodata/srtm90m-utm32n/N00E010.tif')], entry: {} },
  { name: 'fairbanks-zstd', files: [recompressed('fairbanks-zstd-p3.tif')], entry: {} },
  { name: 'fairbanks-lerc-zstd', files: [recompressed('fairbanks-lerc-zstd.tif')], entry: {} },
  { name: 'srtm3-lerc-deflate', files: [recompressed('srtm3-lerc-deflate.tif')], entry: {} },
  { name: 'srtm3-float64-p2', files: [recompressed('srtm3-float64-p2.tif')], entry: {} },
  {
    name: 'nodata-9999-lerc',
    files: [recompressed('nodata-9999-lerc.tif')],
    entry: {},
    methods: ['nearest'],
  },
  {
    // Raw SRTM .hgt tiles as OpenTopoData datasets hold them (they share the lon 10 column).
    name: 'srtm-hgt-tiles',
    files: [dem('srtm3-germany/N48E009.hgt'), dem('srtm3-germany/N48E010.hgt')],
    entry: { path: dem('srtm3-germany/'), filename_epsg: 4326, filename_tile_size: 1 },
  },
  {
    // Open-Elevation's data folder (tiles of any name, resampled by its create-tiles.sh) through a VRT of it.
    name: 'open-elevation-folder-vrt',
    files: Array.from({ length: OPEN_ELEVATION_SPLIT ** 2 }, (_, i) =>
      recompressed(
        `open-elevation/SRTM_${Math.floor(i / OPEN_ELEVATION_SPLIT)}_${i % OPEN_ELEVATION_SPLIT}.tif`,
      ),
    ),
    entry: { path: 'open-elevation.vrt' },
  },
  {
    // OpenTopoData's own test dataset: one .hgt and one .hgt.zip tile side by side.
    name: 'opentopodata-hgt-and-zip',
    files: [
      dem('opentopodata/srtm90m/N00E010.hgt'),
      `/vsizip/${dem('opentopodata/srtm90m/N00E011.hgt.zip')}/N00E011.hgt`,
    ],
    entry: { path: dem('opentopodata/srtm90m/'), filename_epsg: 4326, filename_tile_size: 1 },
  },
];

/** GDAL VRT mosaics written by gdalbuildvrt in the temp folder (sources relative to it, or absolute). */
const VRTS: Record<string, string[]> = {
  'la.vrt': LA_CELLS.map((cell) => `la-tiles/${copName(cell)}`),
  'eu-dem.vrt': [
    dem('opentopodata/eu-dem-25km-laea/N2000000E3000000.TIF'),
    dem('opentopodata/eu-dem-25km-laea/N2000000E4000000.TIF'),
  ],
  'srtm-hgt.vrt': [dem('srtm3-germany/N48E009.hgt'), dem('srtm3-germany/N48E010.hgt')],
  'la-scaled.vrt': LA_CELLS.map((cell) => recompressed(`la-scaled-same/${copName(cell)}`)),
  'open-elevation.vrt': openElevationTiles(OPEN_ELEVATION_SPLIT).map(({ file }) => recompressed(file)),
};

const LINKS = {
  'cop-tiles': { [copName('N48_00_E009_00')]: dem(COP_UPSAMPLED) },
  'la-tiles': Object.fromEntries(LA_CELLS.map((cell, i) => [copName(cell), LA(i)])),
};

const METHODS: Interpolation[] = ['nearest', 'bilinear', 'cubic'];
/** Below this many assertable points a method's test would prove little on a file. */
const MIN_ASSERTED = { nearest: 200, bilinear: 100, cubic: 100 } as const;
/** Points whose 2x2 window holds nodata while their own pixel is valid, over all files. */
const MIN_NEXT_TO_NODATA = 30;

describeIfAvailable(
  'real DEM files agree with GDAL',
  [
    { what: '../shared/dem', available: existsSync(SHARED_DEM) },
    { what: 'GDAL (gdal-bin, python3-gdal)', available: hasCommand('gdallocationinfo') },
  ],
  () => {
    let references: Map<string, ReferenceCase>;
    let temp: TempDatasets;
    let registry: DatasetRegistry;

    beforeAll(() => {
      mkdirSync(RECOMPRESSED_DIR, { recursive: true });
      for (const { file, source, options } of RECOMPRESSED) {
        mkdirSync(path.dirname(recompressed(file)), { recursive: true });
        execFileSync('gdal_translate', ['-q', ...options, source, recompressed(file)]);
      }
      references = gdalReference(
        CASES.filter((c) => !c.referenceOf).map((c) => ({
          id: c.name,
          files: c.files,
          count: POINTS_PER_FILE,
          extraPoints: c.extraPoints,
          extraProjected: c.extraProjected,
          tileCells: c.tileCells,
        })),
      );
      const entries = CASES.map((c) => ({ name: c.name, path: c.files[0], ...c.entry }));
      temp = tempDatasets(entries, LINKS);
      for (const [vrt, sources] of Object.entries(VRTS))
        execFileSync('gdalbuildvrt', ['-q', vrt, ...sources], { cwd: temp.dir });
      registry = loadDatasetRegistry({ configPath: temp.configPath });
    });
    afterAll(() => {
      temp?.cleanup();
      rmSync(RECOMPRESSED_DIR, { recursive: true, force: true });
    });

    const reference = (c: RealCase): ReferenceCase =>
      references.get(c.referenceOf ?? c.name) as ReferenceCase;

    describe.each(CASES)('$name', (c) => {
      test.each(c.methods ?? METHODS)('%s matches GDAL at every reference point', async (method) => {
        const points = assertablePoints(reference(c).points, method);
        expect(points.length).toBeGreaterThanOrEqual(MIN_ASSERTED[method]);
        const wrong = await mismatches(registry.get(c.name), points, method);
        expect({ checked: points.length, wrong: wrong.slice(0, 15), wrongCount: wrong.length }).toEqual({
          checked: points.length,
          wrong: [],
          wrongCount: 0,
        });
      });

      test('the GDAL reference bilinear agrees with a numpy bilinear of the same pixels', () => {
        expect(reference(c).bilinearNumpyMaxDiff).toBeLessThan(1e-4);
      });
    });

    // The library's documented nodata policy (dataset/interpolation.ts): bilinear renormalises its weights
    // over the valid pixels. GDAL's RasterIO propagates nodata, so the reference is numpy on GDAL-read pixels.
    test('bilinear next to nodata renormalises over the valid pixels (SRTM voids, sea, raster borders)', async () => {
      let checked = 0;
      const wrong = [];
      for (const c of CASES.filter((k) => !k.referenceOf)) {
        const points = reference(c).points.filter((p) => p.bilinearNextToNodata !== undefined);
        checked += points.length;
        const dataset = registry.get(c.name);
        wrong.push(...(await mismatches(dataset, points, 'bilinear', (p) => p.bilinearNextToNodata ?? null)));
      }
      expect(checked).toBeGreaterThanOrEqual(MIN_NEXT_TO_NODATA);
      expect(wrong).toEqual([]);
    });
  },
);
