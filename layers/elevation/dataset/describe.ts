/** What `GET /v1/datasets` reports for a raster dataset: WGS84 bounds, resolution, CRS, pixel type, tile count. */
import { wgs84Converter, type Crs } from '../geo/crs';
import type { Raster } from '../raster/raster';
import type { DatasetInfo } from '../types';
import type { Mosaic } from './mosaic';
import { TiledMosaic } from './mosaic';
import { VrtMosaic } from './vrt-mosaic';

type Box = [number, number, number, number];

export async function describeMosaic(
  name: string,
  mosaic: Mosaic,
  tileSize: number | null,
  verticalDatum: string | null,
): Promise<DatasetInfo> {
  if (mosaic instanceof TiledMosaic && tileSize !== null) {
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
    const { originX, originY, width, height, resX, resY } = mosaic.grid;
    const box: Box = [originX, originY + height * resY, originX + width * resX, originY];
    return {
      name,
      bounds: toWgs84Box(mosaic.crs, box),
      ...rasterFacts(await mosaic.open('0'), mosaic.crs, verticalDatum),
      resolution: [resX, Math.abs(resY)],
      tileCount: mosaic.spec.sources.length,
    };
  }
  const raster = await mosaic.open(mosaic.candidates(0, 0)[0]);
  if (!raster) throw new Error(`Dataset ${name} has no raster`);
  const { grid } = raster;
  const box: Box = [
    grid.originX,
    grid.originY + grid.height * grid.resY,
    grid.originX + grid.width * grid.resX,
    grid.originY,
  ];
  return {
    name,
    bounds: toWgs84Box(raster.crs, box),
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

/** Transforms a box by sampling its edges (a projected box is curved in WGS84). */
function toWgs84Box(crs: Crs, [minX, minY, maxX, maxY]: Box): Box {
  const converter = wgs84Converter(crs);
  const lons: number[] = [];
  const lats: number[] = [];
  const steps = crs.isGeographic ? 1 : 16;
  for (let i = 0; i <= steps; i++) {
    const t = i / steps;
    for (const [x, y] of [
      [minX + t * (maxX - minX), minY],
      [minX + t * (maxX - minX), maxY],
      [minX, minY + t * (maxY - minY)],
      [maxX, minY + t * (maxY - minY)],
    ]) {
      const [lon, lat] = converter.inverse(x, y);
      lons.push(lon);
      lats.push(lat);
    }
  }
  const round = (v: number) => Math.round(v * 1e6) / 1e6;
  return [
    round(Math.min(...lons)),
    round(Math.min(...lats)),
    round(Math.max(...lons)),
    round(Math.max(...lats)),
  ];
}
