/**
 * 180 E is 180 W. Two Copernicus-style tiles (pixel-is-point, east column dropped) meet at the antimeridian:
 * E179 ends half a pixel short of 180, whose pixels live in W180. Heights follow a plane that is continuous
 * across the meridian (z = 10 x longitude east of Greenwich, counted past 180), so the right answers are known.
 */
import { newReadStats, noTracing } from '../../../layers/elevation';
import { crsFromEpsg } from '../../../layers/elevation/geo/crs';
import type { Mosaic } from '../../../layers/elevation/dataset/mosaic';
import { sampleMosaic } from '../../../layers/elevation/dataset/window-sampler';
import { completeBlock } from '../../../layers/elevation/raster/block-rows';
import type { Raster } from '../../../layers/elevation/raster/raster';

const RES = 0.25;
const SIZE = 4;
const WGS84 = crsFromEpsg(4326);

/** A 1x1 degree tile whose first pixel centre is (west, north), values 10 x (longitude east, 0-360). */
function tile(name: string, west: number): Raster {
  const values = new Float32Array(SIZE * SIZE);
  for (let r = 0; r < SIZE; r++)
    for (let c = 0; c < SIZE; c++) values[r * SIZE + c] = (10 * (((west + c * RES) % 360) + 360)) % 3600;
  return {
    url: name,
    cacheKey: `antimeridian-test-${name}`,
    grid: {
      width: SIZE,
      height: SIZE,
      originX: west - RES / 2,
      originY: 1 + RES / 2,
      resX: RES,
      resY: -RES,
      blockWidth: SIZE,
      blockHeight: SIZE,
    },
    crs: WGS84,
    nodata: null,
    scale: 1,
    offset: 0,
    pixelType: 'Float32',
    pixelIsPoint: true,
    verticalDatum: null,
    blocksAcross: 1,
    blocksDown: 1,
    samplesPerPixel: 1,
    blockBytes: SIZE * SIZE * 4,
    partialExtraBytes: () => 0,
    readBlock: () => Promise.resolve(completeBlock(values, SIZE)),
  };
}

const tiles: Record<string, Raster> = { E179: tile('E179', 179), W180: tile('W180', -180) };
const mosaic: Mosaic = {
  crs: WGS84,
  candidates: (x) => (x >= 0 ? ['E179'] : ['W180']),
  open: (id) => Promise.resolve(tiles[id] ?? null),
};

// The mirror layout (west column dropped): E179's last pixel is centred on 180, W180 starts half a pixel east of it.
const mirrored: Record<string, Raster> = { E179: tile('E179m', 179.25), W180: tile('W180m', -179.75) };
const mirroredMosaic: Mosaic = { ...mosaic, open: (id) => Promise.resolve(mirrored[id] ?? null) };

async function heights(
  lons: number[],
  interpolation: 'nearest' | 'bilinear',
  tiles = mosaic,
): Promise<number[]> {
  const xs = Float64Array.from(lons);
  const ys = new Float64Array(lons.length).fill(0.5);
  const ctx = { stats: newReadStats(), trace: noTracing };
  return Array.from(await sampleMosaic(tiles, xs, ys, interpolation, ctx));
}

describe('the antimeridian', () => {
  it('answers a point at longitude 180 from the tile across it (180 W)', async () => {
    expect(await heights([180, -180], 'nearest')).toEqual([1800, 1800]);
  });

  it('answers a lone point at 180 E, the only one of its request, from 180 W', async () => {
    expect(await heights([180], 'nearest')).toEqual([1800]);
    expect(await heights([180], 'bilinear')).toEqual([1800]);
  });

  it('answers a point at 180 W from the tile east of the antimeridian when only that one reaches it', async () => {
    expect(await heights([-180], 'nearest', mirroredMosaic)).toEqual([1800]);
    expect(await heights([-179.95, 179.95], 'nearest', mirroredMosaic)).toEqual([1800, 1800]);
  });

  it('interpolates a bilinear window that straddles the antimeridian from both tiles', async () => {
    const [east, west] = await heights([179.875, -179.875], 'bilinear');
    expect(east).toBeCloseTo(1798.75, 3); // between 179.75 (E179) and 180 (W180's first column)
    expect(west).toBeCloseTo(1801.25, 3);
  });
});
