/** What `GET /v1/datasets` reports for a raster dataset: WGS84 bounds, resolution, CRS, pixel type, tile count. */
import type { Crs } from '../geo/crs';
import type { Raster } from '../raster/raster';
import type { DatasetInfo } from '../types';
import type { Mosaic } from './mosaic';
import { TiledMosaic } from './mosaic';
import { VrtMosaic } from './vrt-mosaic';
import { gridBox, toWgs84Box, type Box } from './wgs84-box';

export async function describeMosaic(
  name: string,
  mosaic: Mosaic,
  tileSize: number | null,
  verticalDatum: string | null,
): Promise<DatasetInfo> {
  if (mosaic instanceof TiledMosaic && tileSize !== null) {
    await mosaic.checkSidecars();
    const keys = await mosaic.listKeys();
    const first = keys && keys.length > 0 ? await mosaic.open(`${keys[0].ix},${keys[0].iy}`) : null;
    const box = keys && keys.length > 0 ? keysBox(keys, tileSize) : null;
    return {
      name,
      bounds: box && toWgs84Box(mosaic.crs, box),
      ...rasterFacts(first, mosaic.crs, verticalDatum),
      tileCount: keys ? keys.length : null,
    };
  }
  if (mosaic instanceof VrtMosaic) {
    const { resX, resY } = mosaic.grid;
    return {
      name,
      bounds: toWgs84Box(mosaic.crs, gridBox(mosaic.grid)),
      ...rasterFacts(await mosaic.open('0'), mosaic.crs, verticalDatum),
      resolution: [resX, Math.abs(resY)],
      tileCount: mosaic.spec.sources.length,
    };
  }
  const raster = await mosaic.open(mosaic.candidates(0, 0)[0]);
  if (!raster) throw new Error(`Dataset ${name} has no raster`);
  return {
    name,
    bounds: toWgs84Box(raster.crs, gridBox(raster.grid)),
    ...rasterFacts(raster, raster.crs, verticalDatum),
    tileCount: 1,
  };
}

function rasterFacts(raster: Raster | null, crs: Crs, verticalDatum: string | null) {
  return {
    resolution: raster ? ([raster.grid.resX, Math.abs(raster.grid.resY)] as [number, number]) : null,
    crs: raster?.crs.key ?? crs.key,
    pixelType: raster?.pixelType ?? null,
    verticalDatum: verticalDatum ?? raster?.verticalDatum ?? null,
  };
}

function keysBox(keys: { ix: number; iy: number }[], tileSize: number): Box {
  const xs = keys.map((k) => k.ix * tileSize);
  const ys = keys.map((k) => k.iy * tileSize);
  return [Math.min(...xs), Math.min(...ys), Math.max(...xs) + tileSize, Math.max(...ys) + tileSize];
}
