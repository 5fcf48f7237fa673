/**
 * A point exactly on a pixel edge or corner reads the pixel GDAL reads (gdallocationinfo: floor of its inverse
 * geotransform, -originX/resX + x/resX). With a resolution that is no power of two (1″ = 1/3600°) the library's
 * (x − originX)/resX rounded such points to the pixel before: the west or north neighbour. A helper running
 * OpenTopoData side by side found 16 of 36 edge points on a Copernicus crop answered from the wrong pixel (ours
 * 1767.077 where GDAL and OpenTopoData read 1769.718). The expected pixels below are gdallocationinfo's.
 */
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { configureBlockCache, loadDatasetRegistry } from '../../../layers/elevation';
import { float32Grid } from '../../support/tiff-writer';

const SIZE = 256;
// glo_30_left.tif's geotransform (a Copernicus GLO-30 crop): 1″ pixels, origin on a pixel edge of the 1° grid.
const ORIGIN_X = 42.94986111111111;
const ORIGIN_Y = 40.55013888888889;
const RES = 0.0002777777777777778;
const value = (col: number, row: number) => col * 1000 + row;

let dir: string;

function raster(originX: number): Uint8Array {
  return float32Grid({ size: SIZE, west: originX, north: ORIGIN_Y, res: RES, value });
}

beforeAll(() => {
  configureBlockCache(16 * 1024 * 1024);
  dir = fs.mkdtempSync(path.join(os.tmpdir(), 'nearest-ties-'));
  fs.writeFileSync(path.join(dir, 'crop.tif'), raster(ORIGIN_X));
  // Two abutting tiles: the second starts where the first ends.
  fs.mkdirSync(path.join(dir, 'tiles'));
  fs.writeFileSync(path.join(dir, 'tiles', 'west.tif'), raster(ORIGIN_X));
  fs.writeFileSync(path.join(dir, 'tiles', 'east.tif'), raster(ORIGIN_X + SIZE * RES));
  // Their mosaic as gdalbuildvrt writes it.
  const source = (file: string, xOff: number) =>
    `<SimpleSource><SourceFilename relativeToVRT="1">${file}</SourceFilename><SourceBand>1</SourceBand>` +
    `<SrcRect xOff="0" yOff="0" xSize="${SIZE}" ySize="${SIZE}"/><DstRect xOff="${xOff}" yOff="0" xSize="${SIZE}" ySize="${SIZE}"/></SimpleSource>`;
  fs.writeFileSync(
    path.join(dir, 'tiles', 'mosaic.vrt'),
    `<VRTDataset rasterXSize="${2 * SIZE}" rasterYSize="${SIZE}"><SRS>EPSG:4326</SRS>` +
      `<GeoTransform>${ORIGIN_X}, ${RES}, 0, ${ORIGIN_Y}, 0, -${RES}</GeoTransform>` +
      `<VRTRasterBand dataType="Float32" band="1">${source('west.tif', 0)}${source('east.tif', SIZE)}</VRTRasterBand></VRTDataset>`,
  );
  fs.writeFileSync(
    path.join(dir, 'config.yaml'),
    'datasets:\n  - name: crop\n    path: crop.tif\n  - name: tiles\n    path: tiles/mosaic.vrt\n',
  );
});
afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('nearest on an exact pixel edge or corner reads the pixel GDAL reads', () => {
  // [lat, lon, gdallocationinfo's pixel, line]
  const EDGES: [number, number, number, number][] = [
    [40.5, 42.97486111111111, 90, 180], // the helper's point: ours read pixel 89 (its west neighbour)
    [40.54819444444444, 42.95013888888889, 1, 7],
    [40.52236111111111, 42.95013888888889, 1, 100],
    [40.50013888888889, 42.95013888888889, 1, 180], // a corner: ours read (0, 179)
    [40.494305555555556, 42.95041666666667, 2, 201],
    [40.52236111111111, 42.950694444444444, 3, 100],
  ];

  it.each(EDGES)('(%d, %d) reads pixel (%d, %d)', async (lat, lon, col, row) => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    await expect(registry.get('crop').sample([{ lat, lon }], 'nearest')).resolves.toEqual([value(col, row)]);
  });

  it('on the seam of 0.1° tiles (0.7 / 0.1 = 6.999…), reads the east tile as GDAL reads their mosaic', async () => {
    // Two 16-pixel tiles named as OpenTopoData names them; the point's longitude is their seam. The west tile,
    // found first (floor(0.7 / 0.1) = 6), holds it on its far edge: its last column was read (a reviewer's run:
    // 1815 where gdallocationinfo on their gdalbuildvrt mosaic reads the east tile's first column, 2800).
    const tenth = path.join(dir, 'tenth');
    fs.mkdirSync(tenth);
    const res = 0.1 / 16;
    const tile = (west: number, base: number) =>
      float32Grid({ size: 16, west, north: 0.8, res, value: (col, row) => base + col * 100 + row });
    fs.writeFileSync(path.join(tenth, 'N0x7E0x6.tif'), tile(0.6, 10000));
    fs.writeFileSync(path.join(tenth, 'N0x7E0x7.tif'), tile(0.7, 20000));
    fs.writeFileSync(
      path.join(tenth, 'config.yaml'),
      "datasets:\n  - name: tenth\n    path: .\n    filename_tile_size: '0.1'\n",
    );
    const registry = loadDatasetRegistry({ configPath: path.join(tenth, 'config.yaml') });
    // lat 0.75: 0.05 below the top, row 8 (0.05 / (0.1 / 16) = 8, exact)
    await expect(registry.get('tenth').sample([{ lat: 0.75, lon: 0.7 }], 'nearest')).resolves.toEqual([
      20008,
    ]);
  });

  it('a point on the seam of two abutting tiles reads the east tile, as GDAL reads their mosaic', async () => {
    const registry = loadDatasetRegistry({ configPath: path.join(dir, 'config.yaml') });
    const seam = ORIGIN_X + SIZE * RES; // the east tile's origin, the west tile's far edge
    await expect(registry.get('tiles').sample([{ lat: 40.5, lon: seam }], 'nearest')).resolves.toEqual([
      value(0, 180),
    ]);
  });
});
