/**
 * Which tiles a point of a tiled dataset tries: its own, and the neighbour across an edge it is within 5 % of a
 * tile from (Copernicus tiles own up to half a pixel beyond their whole-degree edge, so a point near an edge
 * may be in the neighbour's pixels).
 */
import { crsFromEpsg } from '../../../layers/elevation/geo/crs';
import { TiledMosaic } from '../../../layers/elevation/dataset/mosaic';
import type { RasterOpener } from '../../../layers/elevation/dataset/raster-opener';
import type { TileIndex } from '../../../layers/elevation/dataset/tile-index';

const TILE = 100;
const index: TileIndex = {
  locate: () => Promise.resolve([]),
  keys: () => Promise.resolve(null),
  listed: false,
  stale: () => undefined,
};
const mosaic = () => new TiledMosaic(crsFromEpsg(4326), TILE, index, {} as RasterOpener, 'm');

describe('TiledMosaic.candidates', () => {
  it.each([
    // x, y (tile units of 100), the tiles tried as "ix,iy", own tile first, rows (dy) outer
    [50, 50, ['0,0']],
    [2, 50, ['0,0', '-1,0']],
    [98, 50, ['0,0', '1,0']],
    [50, 2, ['0,0', '0,-1']],
    [50, 98, ['0,0', '0,1']],
    [2, 98, ['0,0', '-1,0', '0,1', '-1,1']],
    [98, 2, ['0,0', '1,0', '0,-1', '1,-1']],
    [-50, 250, ['-1,2']],
    [-2, 250, ['-1,2', '0,2']],
    [-2, 299, ['-1,2', '0,2', '-1,3', '0,3']],
  ])('at (%p, %p) tries %p', (x, y, tiles) => {
    expect(mosaic().candidates(x, y)).toEqual(tiles);
  });

  it('tries no neighbour exactly at 5 % from an edge, on either side', () => {
    expect(mosaic().candidates(5, 95)).toEqual(['0,0']);
    expect(mosaic().candidates(95, 5)).toEqual(['0,0']);
    expect(mosaic().candidates(4.99, 95.01)).toEqual(['0,0', '-1,0', '0,1', '-1,1']);
  });
});
